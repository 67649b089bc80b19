// The table's "top ops" section, on its own so other text writers can reuse it.
#pragma once

#include <ostream>

#include "sim/stats.h"

namespace tessel::reports {

// Lists up to top_n ops (all when negative) by cycles: rank, name, class, placement, cycles,
// percent of the run, utilization, a searched mapping's gap to its dataflow's bound and what
// the array's shape costs it (`gap_to_bound`, `array_shape_cost`; these two columns only when a
// listed op has a searched mapping), dominant cause, short mapping. Long names and mappings
// are cut so lines stay within `width` where possible. Writes nothing when no op has cycles.
void writeTopOps(const sim::RunStats& run, std::ostream& os, int top_n, int width);

}  // namespace tessel::reports
