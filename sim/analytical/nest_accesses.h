// OpStats::accesses and networks of a loop-nest mapping: the cost model's bytes per level and
// tensor, split into Timeloop's reads, fills and updates, in words and bytes.
#pragma once

#include <string>

#include "sim/analytical/nest_stats.h"

namespace tessel::sim::analytical {

// Words are bytes over the width each transfer moves (dataflows/nest/transfers.cpp): inputs and
// weights at their dtype; outputs at the accumulator's width, except an off-chip level's
// updates, where each element's last update is the result at the output's dtype.
void fillNestAccesses(OpStats& s, const NestCost& nc, const dataflows::nest::Mapping& m,
                      const dataflows::nest::Hardware& hw, const std::string& op);

}  // namespace tessel::sim::analytical
