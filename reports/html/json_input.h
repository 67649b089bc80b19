// Internal to reports/html: reading the input JSON documents. Errors name the input file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tessel::reports::html {

using Json = nlohmann::ordered_json;

// Parses `text`; ConfigError naming `source` and the parse error otherwise.
Json parseJson(const std::string& text, const std::string& source);
// ConfigError: "<source>: <what>".
[[noreturn]] void badInput(const std::string& source, const std::string& what);
// The number at `key` of `obj` (ConfigError naming the key when it is missing or not a number).
double numberAt(const Json& obj, const char* key, const std::string& source);
// A scalar as a reader would write it: strings as they are, numbers in their shortest form.
std::string scalarText(const Json& v);
// A metric for readers: cycles, seconds, energy_pj, *bytes and utilization get their units.
std::string metricText(const std::string& metric, double v);
// An axis label with the unit: "latency (cycles)", "energy (pJ)", "SRAM (bytes)".
std::string metricLabel(const std::string& metric);

}  // namespace tessel::reports::html
