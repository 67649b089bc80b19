// --fusion auto: which attention, FFN and conv chains (models/chains.h) run as fused groups. For
// each chain whose members all run on the accelerator, the schedules (block sizes; where K/V or
// the weights stay between row blocks) that fit the local memories are costed as one loop nest
// (analytical/fused_cost.h, block GEMMs mapped by the plan's own mapper) and the best is
// compared, under the mapper's objective, with the unfused plans' own costs from the
// analytical engine: a chain is fused only where that is better. Identical layers share one
// decision. A conv chain may fuse in parts: each run of its convs is decided alone and the
// disjoint runs that save the most fuse (sim/fusion_conv.h).
#pragma once

#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/plan.h"
#include "models/graph.h"
#include "sim/engine.h"

namespace tessel::sim {

// The chains of `plans` fused where that pays; their members' plans then share the group.
void fuseChains(std::vector<dataflows::OpPlan>& plans, const models::Graph& graph,
                const arch::Accelerator& acc, const dataflows::Dataflow& dataflow,
                const dataflows::PlanOptions& options, const EngineOptions& engine_options);

// dataflows::plan, then fuseChains when options.fusion is auto.
std::vector<dataflows::OpPlan> planGraph(const models::Graph& graph, const arch::Accelerator& acc,
                                         const dataflows::Dataflow& dataflow,
                                         const dataflows::PlanOptions& options,
                                         const EngineOptions& engine_options);

}  // namespace tessel::sim
