// OpStats of a GEMM or convolution whose mapping is a loop nest (a searching mapper's): access
// counts, cycles by cause and energy straight from the nest cost model.
#pragma once

#include "arch/accelerator.h"
#include "dataflows/plan.h"
#include "sim/stats.h"

namespace tessel::sim::analytical {

void fillNestStats(OpStats& s, const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                   bool ideal_memory);

}  // namespace tessel::sim::analytical
