// Timing and traffic of one GEMM-like op on a systolic/spatial array under any dataflow that
// configs/dataflows/ describes. The local-memory tile loop is evaluated per class of identical
// iterations (first / middle / last tile along each dim), so cost does not grow with the
// number of tiles.
#pragma once

#include <array>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/plan.h"
#include "sim/analytical/memory_model.h"
#include "sim/stats.h"

namespace tessel::sim::analytical {

struct GemmCost {
  double cycles = 0;
  double compute = 0;       // macs / (PEs * rate)
  double fill_drain = 0;    // array cycles beyond compute
  double noc = 0;           // buffer->array delivery beyond the array time
  double memory = 0;        // off-chip transfers not hidden under compute
  double array_cycles = 0;  // sum over tiles of the array's busy time
  // Bytes per level (like Accelerator::levels) and operand.
  std::vector<std::array<double, kNumOperands>> read;
  std::vector<std::array<double, kNumOperands>> write;
  double noc_bytes = 0;
};

// Cycles the array is busy on one tile of sm x sn x sk (elements), including the stationary
// operand's swaps that double buffering cannot hide and the pipeline fill/drain.
double tileArrayCycles(const arch::ComputeArray& array, const dataflows::Dataflow& df, int64_t sm,
                       int64_t sn, int64_t sk, double rate);

GemmCost evaluateGemm(const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                      const dataflows::Dataflow& df, const MemoryModel& mem);

}  // namespace tessel::sim::analytical
