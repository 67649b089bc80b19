// The metrics a sweep spec may name (in `metrics:`, `pareto:` and constraint expressions), in
// the order result lines print them, and which way each is better.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::sweep {

enum class Better { Lower, Higher, None };  // None: not a number (by_class, offchip_limit)

struct MetricInfo {
  std::string name;
  Better better;
  bool always;  // recorded on every ok line, whatever the spec lists
};

// Every metric, in result order.
const std::vector<MetricInfo>& metricCatalog();
// Their names, in result order.
const std::vector<std::string>& metricNames();
// The names a Pareto front or a constraint may use: the numeric ones.
const std::vector<std::string>& numericMetricNames();

// The metric `name` stands for: itself, or the metric of an alias (`static_energy` ->
// `static_energy_pj`); nullopt for a name that is no metric.
std::optional<std::string> canonicalMetric(std::string_view name);
// The catalog entry of a canonical name; nullptr for none.
const MetricInfo* metricInfo(std::string_view name);

}  // namespace tessel::sweep
