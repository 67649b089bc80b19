// OpStats of a GEMM or convolution whose mapping is a loop nest (a searching mapper's): access
// counts, cycles by cause and energy straight from the nest cost model.
#pragma once

#include "arch/accelerator.h"
#include "dataflows/nest/cost.h"
#include "dataflows/plan.h"
#include "sim/stats.h"

namespace tessel::sim::analytical {

// The nest cost model's verdict on a plan's mapping, with the options both engines use (the
// tensors' homes, the MAC rate of the op's dtype). Throws InfeasibleError when a tile does not fit.
struct NestCost {
  dataflows::nest::Problem problem;  // the mapped problem, with the op's output dtype
  dataflows::nest::CostOptions options;
  dataflows::nest::Cost cost;
};
NestCost nestCost(const dataflows::OpPlan& plan, const arch::Accelerator& acc, bool ideal_memory);

void fillNestStats(OpStats& s, const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                   bool ideal_memory);

}  // namespace tessel::sim::analytical
