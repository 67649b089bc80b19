#include "reports/html/json_input.h"

#include <cmath>

#include "reports/format.h"
#include "reports/html/text.h"
#include "util/error.h"

namespace tessel::reports::html {
namespace {

// What each JsonKind must hold, for messages.
const char* const kWhat[] = {"a number", "an integer", "a string", "an array", "an object"};

}  // namespace

Json parseJson(const std::string& text, const std::string& source) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    badInput(source, std::string("not valid JSON (") + e.what() + ")");
  }
}

void badInput(const std::string& source, const std::string& what) {
  throw ConfigError({source, 0, 0, ""}, what);
}

double numberAt(const Json& obj, const char* key, const std::string& source) {
  return fieldAt(obj, "", key, JsonKind::Number, source).get<double>();
}

const Json& fieldAt(const Json& obj, const std::string& path, const std::string& key, JsonKind kind,
                    const std::string& source) {
  const std::string field = path.empty() ? key : path + "." + key;
  if (!obj.is_object() || !obj.contains(key)) {
    badInput(source, std::string("expected ") + kWhat[static_cast<int>(kind)] + " at '" + field +
                         "', which is missing");
  }
  return valueAt(obj[key], field, kind, source);
}

const Json& valueAt(const Json& v, const std::string& path, JsonKind kind,
                    const std::string& source) {
  const bool ok = kind == JsonKind::Number    ? v.is_number()
                  : kind == JsonKind::Integer ? v.is_number_integer()
                  : kind == JsonKind::String  ? v.is_string()
                  : kind == JsonKind::Array   ? v.is_array()
                                              : v.is_object();
  if (!ok) {
    badInput(source, std::string("expected ") + kWhat[static_cast<int>(kind)] + " at '" + path +
                         "', found " + v.type_name());
  }
  return v;
}

std::string scalarText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) return exactNumber(v.get<double>());
  return v.dump();
}

std::string metricText(const std::string& metric, double v) {
  if (metric == "cycles") return humanCycles(v);
  if (metric == "seconds") return engSeconds(v);
  if (metric == "energy_pj") return engEnergyPj(v);
  if (metric == "utilization") return percentText(v) + "%";
  if (metric.size() >= 5 && metric.compare(metric.size() - 5, 5, "bytes") == 0 && v >= 0 &&
      v < 9.2e18) {
    return binaryBytes(static_cast<int64_t>(std::llround(v)));
  }
  return humanNumber(v);
}

}  // namespace tessel::reports::html
