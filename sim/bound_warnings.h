// The run's warnings about its array ops: a layer whose dataflow leaves most of the array idle
// whatever the mapping ("depthwise: 1 of 64 rows usable"), and a layer whose mapping is far from
// the best its dataflow allows, named with what binds it. Built from the searched mappings'
// bounds (dataflows/nest/bound.h) and the engine's cycles by cause.
#pragma once

#include <string>
#include <vector>

#include "dataflows/plan.h"
#include "sim/stats.h"

namespace tessel::sim {

// Named when the dataflow lets an op fill at most this share of the array's MAC slots.
inline constexpr double kSmallArrayShare = 1.0 / 8;
// Named when a mapping's latency is more than this many times its dataflow's bound.
inline constexpr double kFarFromBound = 2;

// One warning per finding, in op order, "OP: reason"; ops with the same finding (identical
// layers) share one, "OP and N more like it: reason". `ops[i]` is the engine's for `plans[i]`.
std::vector<std::string> boundWarnings(const std::vector<dataflows::OpPlan>& plans,
                                       const std::vector<OpStats>& ops);

}  // namespace tessel::sim
