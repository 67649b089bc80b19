// Internal to reports/html: reading the input JSON documents. Errors name the input file.
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>

namespace tessel::reports::html {

using Json = nlohmann::ordered_json;

// Parses `text`; ConfigError naming `source` and the parse error otherwise.
Json parseJson(const std::string& text, const std::string& source);
// ConfigError: "<source>: <what>".
[[noreturn]] void badInput(const std::string& source, const std::string& what);
// The number at `key` of `obj` (ConfigError naming the key when it is missing or not a number).
double numberAt(const Json& obj, const char* key, const std::string& source);
// What a field must hold.
enum class JsonKind { Number, Integer, String, Array, Object };
// The member `key` of `obj`, which sits at `path` in the document ("" at the top level,
// "configurations[2]"). ConfigError naming the file, the field's full path, what it should hold
// and what it holds, when `obj` lacks it or it holds something else.
const Json& fieldAt(const Json& obj, const std::string& path, const std::string& key, JsonKind kind,
                    const std::string& source);
// `v`, found at `path` ("configurations[0].job_s[2]"), when it holds `kind`; ConfigError naming
// the path otherwise.
const Json& valueAt(const Json& v, const std::string& path, JsonKind kind,
                    const std::string& source);
// Typed reads of one document's fields; every error names the file and the field's path.
struct DocumentFields {
  const std::string& source;

  const Json& at(const Json& o, const std::string& path, const char* key, JsonKind k) const {
    return fieldAt(o, path, key, k, source);
  }
  double number(const Json& o, const std::string& path, const char* key) const {
    return at(o, path, key, JsonKind::Number).get<double>();
  }
  int64_t integer(const Json& o, const std::string& path, const char* key) const {
    return at(o, path, key, JsonKind::Integer).get<int64_t>();
  }
  std::string text(const Json& o, const std::string& path, const char* key) const {
    return at(o, path, key, JsonKind::String).get<std::string>();
  }
  // The array at `key`, each element checked to hold `k`.
  const Json& array(const Json& o, const std::string& path, const char* key, JsonKind k) const {
    const Json& a = at(o, path, key, JsonKind::Array);
    for (size_t i = 0; i < a.size(); ++i) valueAt(a[i], item(path, key, i), k, source);
    return a;
  }
  // "path.key[i]" ("key[i]" at the top level).
  static std::string item(const std::string& path, const char* key, size_t i) {
    return (path.empty() ? "" : path + ".") + key + "[" + std::to_string(i) + "]";
  }
};

// A scalar as a reader would write it: strings as they are, numbers in their shortest form.
std::string scalarText(const Json& v);
// A metric for readers: cycles, seconds, energy_pj, *bytes and utilization get their units.
std::string metricText(const std::string& metric, double v);

}  // namespace tessel::reports::html
