// The Pareto fronts of a finished sweep (the spec's `pareto:`), one per workload variant: the
// points of one workload with the same workload options (workload.seq, .batch, ...) compete;
// the other keys are the design choices. Candidates are the ok points that broke no
// constraint and recorded every coordinate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/result_line.h"
#include "sweep/spec.h"

namespace tessel::sweep {

struct ParetoFront {
  std::string workload;
  nlohmann::ordered_json options;  // the variant's workload options, as the lines write them
  int64_t candidates = 0;          // points that competed
  std::vector<int64_t> indices;    // the points on the front, by index, ascending
};

// Empty when the spec has no `pareto:`; else one front per variant that has a candidate, in
// the order the variants first appear in `lines`.
std::vector<ParetoFront> paretoFronts(const Spec& spec, const std::vector<ResultLine>& lines);

}  // namespace tessel::sweep
