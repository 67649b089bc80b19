#include "sweep/spec_results.h"

#include <algorithm>

#include "sweep/expression.h"
#include "util/suggest.h"

namespace tessel::sweep {
namespace {

// The canonical metric a name in `metrics:` stands for; ConfigError with a did-you-mean.
std::string knownMetric(const yaml::Node& n, const std::vector<std::string>& accepted) {
  const std::string name = n.scalar("a metric name");
  const std::optional<std::string> canonical = canonicalMetric(name);
  if (!canonical || std::find(accepted.begin(), accepted.end(), *canonical) == accepted.end()) {
    n.fail("unknown metric '" + name + "'" + didYouMean(name, accepted) +
           " (accepted: " + joinNames(accepted) + ")");
  }
  return *canonical;
}

std::string paretoMetric(const Spec& spec, const yaml::Node& n) {
  const std::string name = n.scalar("a metric name");
  if (metricInfo(name) && metricInfo(name)->better == Better::None) {
    n.fail("'" + name + "' is not a number: a Pareto front needs numeric metrics (accepted: " +
           joinNames(numericMetricNames()) + ")");
  }
  const std::string metric = knownMetric(n, numericMetricNames());
  const bool kept =
      std::find(spec.metrics.begin(), spec.metrics.end(), metric) != spec.metrics.end();
  if (!kept && !metricInfo(metric)->always) {
    n.fail("'" + metric +
           "' is not among the spec's metrics: add it to `metrics:` (the fronts "
           "are computed from the result lines)");
  }
  return metric;
}

// `cycles` (its natural direction), `{min: utilization}` or `{max: tops_per_w}`.
Objective readObjective(const Spec& spec, const yaml::Node& item) {
  if (!item.isMap()) {
    const std::string metric = paretoMetric(spec, item);
    return {metric, metricInfo(metric)->better == Better::Higher};
  }
  const auto entries = item.entries();
  if (entries.size() != 1) {
    item.fail("expected a metric name, {min: metric} or {max: metric}, got a mapping of " +
              std::to_string(entries.size()) + " keys");
  }
  const auto& [direction, metric] = entries.front();
  const std::string d = direction.scalar();
  if (d != "min" && d != "max") {
    direction.fail("unknown direction '" + d + "'" + didYouMean(d, {"min", "max"}) +
                   " (accepted: min, max)");
  }
  return {paretoMetric(spec, metric), d == "max"};
}

}  // namespace

void readMetrics(Spec& spec, const yaml::Node& node) {
  for (const yaml::Node& m : node.items()) spec.metrics.push_back(knownMetric(m, metricNames()));
  if (spec.metrics.empty()) node.fail("expected at least one metric");
}

void readPareto(Spec& spec, const yaml::Node& node) {
  if (!node.isSequence()) {
    node.fail("expected a list of 2 or 3 metrics, got " + node.describe());
  }
  const std::vector<yaml::Node> items = node.items();
  if (items.size() < 2 || items.size() > 3) {
    node.fail("expected 2 or 3 metrics for a Pareto front, got " + std::to_string(items.size()));
  }
  for (const yaml::Node& item : items) {
    const Objective o = readObjective(spec, item);
    for (const Objective& other : spec.pareto) {
      if (other.metric == o.metric) item.fail("'" + o.metric + "' is listed twice");
    }
    spec.pareto.push_back(o);
  }
}

void readConstraints(Spec& spec, const yaml::Node& node) {
  for (const yaml::Node& e : node.items()) {
    Constraint c{e.scalar("an expression"), e.where()};
    for (const std::string& name : identifiers(c.expression, c.where)) {
      const std::optional<std::string> metric = canonicalMetric(name);
      if (!metric) continue;
      if (metricInfo(*metric)->better == Better::None) {
        e.fail("'" + name + "' is not a number a constraint can compare (numeric metrics: " +
               joinNames(numericMetricNames()) + ")");
      }
      c.on_metrics = true;
    }
    spec.constraints.push_back(std::move(c));
  }
}

}  // namespace tessel::sweep
