// One call from a graph and an accelerator to RunStats: plan, evaluate every op, schedule.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/plan.h"
#include "models/graph.h"
#include "sim/engine.h"
#include "sim/stats.h"

namespace tessel::sim {

struct RunOptions {
  std::string engine = "analytical";
  dataflows::PlanOptions plan;
  EngineOptions engine_options;
  // Recorded verbatim in RunStats::options (the CLI puts seq, batch, phase... here).
  std::vector<std::pair<std::string, std::string>> labels;
  // When set (and engine_options.trace), receives the engine's command slices.
  std::vector<TraceSlice>* trace = nullptr;
  // When set, sees simulate's plans before they are evaluated (tessel run --emit-mapping).
  std::function<void(const std::vector<dataflows::OpPlan>&)> on_plans;
};

// The graph is first given its host conversions (dataflows::withHostConversions): the stats
// list those Quantize/Dequantize ops too. Ops run one after another in graph order; an op's fused
// epilogue members are charged separately (their own OpStats, placement Fused). Throws
// InfeasibleError when an op cannot be mapped or placed.
RunStats simulate(const models::Graph& graph, const arch::Accelerator& acc,
                  const dataflows::Dataflow& dataflow, const RunOptions& options);

// The second half of simulate: plans already made (dataflows::plan) timed by options.engine.
// Cross-checks evaluate one set of plans with both engines.
RunStats evaluatePlans(const models::Graph& graph, const arch::Accelerator& acc,
                       const dataflows::Dataflow& dataflow,
                       const std::vector<dataflows::OpPlan>& plans, const RunOptions& options);

// The version string reports carry.
std::string toolVersion();

}  // namespace tessel::sim
