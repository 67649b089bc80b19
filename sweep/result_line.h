// A result line of points.jsonl / results.jsonl, parsed once for the end-of-sweep analysis
// (sweep/summary.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tessel::sweep {

struct ResultLine {
  int64_t index = 0;
  nlohmann::ordered_json params;   // key -> value as the line writes it
  nlohmann::ordered_json metrics;  // status ok: the metrics; else null
  bool ok = false;                 // status "ok"
  bool violated = false;           // ok, but broke a constraint over metrics
};

// Parses the lines (each a JSON object with index, params, status) of the file `source`.
// ConfigError at source:line when one is not such an object.
std::vector<ResultLine> parseResultLines(const std::vector<std::string>& lines,
                                         const std::string& source);

// A params value as text: a string as it is, anything else as its JSON.
std::string paramText(const nlohmann::ordered_json& value);

// A metric of an ok line as a number; NaN when it has none.
double metricNumber(const ResultLine& line, const std::string& metric);

}  // namespace tessel::sweep
