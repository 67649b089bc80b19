// The "scalesim" engine: conv/GEMM ops on the array timed as SCALE-Sim v2 times them
// (fold_timing.h), under the knobs of knobs.h; bytes, energy and accesses are the analytical
// engine's for the same plan, and other ops are charged zero cycles or timed by it (knob
// other_ops). Its per-op figures SCALE-Sim reports ride in OpStats::mapping under "scalesim_*"
// keys (stats_keys.h), which reports/scalesim_report reads.
#pragma once

#include <memory>

#include "sim/engine.h"
#include "sim/scalesim/stats_keys.h"

namespace tessel::sim {

std::unique_ptr<Engine> makeScaleSimEngine(const arch::Accelerator& acc,
                                           const dataflows::Dataflow& dataflow,
                                           const EngineOptions& options);


}  // namespace tessel::sim
