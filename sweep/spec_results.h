// Internal to sweep/: the parts of a spec that say what each result keeps and how results are
// judged — `metrics`, `pareto` and `constraints` (sweep/spec.h).
#pragma once

#include "sweep/spec.h"
#include "util/yaml.h"

namespace tessel::sweep {

// `metrics: [cycles, static_energy, ...]`: known names, aliases made canonical.
void readMetrics(Spec& spec, const yaml::Node& node);
// `pareto: [cycles, {max: tops_per_w}]`: 2 or 3 distinct numeric metrics among spec.metrics
// (read after them), each in its natural direction or a given `min`/`max`.
void readPareto(Spec& spec, const yaml::Node& node);
// `constraints: [expr, ...]`: parsed once here, each marked on_metrics when it reads a metric.
void readConstraints(Spec& spec, const yaml::Node& node);

}  // namespace tessel::sweep
