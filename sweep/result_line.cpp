#include "sweep/result_line.h"

#include <cmath>

#include "util/error.h"

namespace tessel::sweep {

std::vector<ResultLine> parseResultLines(const std::vector<std::string>& lines,
                                         const std::string& source) {
  std::vector<ResultLine> out;
  out.reserve(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    try {
      const auto j = nlohmann::ordered_json::parse(lines[i]);
      ResultLine r;
      r.index = j.at("index").get<int64_t>();
      r.params = j.at("params");
      r.ok = j.at("status").get<std::string>() == "ok";
      if (r.ok) r.metrics = j.at("metrics");
      r.violated = r.ok && j.contains("violated") && !j["violated"].empty();
      out.push_back(std::move(r));
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError({source, static_cast<int>(i + 1), 0, ""},
                        std::string("is not a sweep result line: ") + e.what());
    }
  }
  return out;
}

std::string paramText(const nlohmann::ordered_json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

double metricNumber(const ResultLine& line, const std::string& metric) {
  if (!line.ok || !line.metrics.contains(metric) || !line.metrics[metric].is_number()) return NAN;
  return line.metrics[metric].get<double>();
}

}  // namespace tessel::sweep
