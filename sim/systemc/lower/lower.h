// Lowering: one op's plan -> the command stream the SystemC blocks execute.
//   GEMMs and convolutions: the loop nest's local tiles in the order the mapping visits them.
//   Each tile loads the tensors whose tile changed (into the other half of a double-buffered
//   local memory), stores the previous output tile when the output moves on (and reloads partial
//   sums that come back), and computes. Dependencies: a compute waits for its operands' loads; a
//   load waits until the compute that last read its buffer half is done; a store waits for the
//   computes it drains; a compute waits until its output half has been stored.
//   Vector ops: chunks streamed load -> unit -> store through double-buffered halves; host ops:
//   one host command (link transfers, the op, the call overhead).
// Bytes per level and tensor come from the same access-count model the analytical engine uses,
// spread over the commands that move them in proportion to each tile's footprint, so the two
// engines' byte counts agree exactly; cycles are what the blocks add.
#pragma once

#include <array>

#include "arch/accelerator.h"
#include "dataflows/plan.h"
#include "sim/analytical/nest_stats.h"
#include "sim/analytical/vector_model.h"
#include "sim/systemc/lower/command.h"

namespace tessel::sim::systemc {

struct GemmLowering {
  CommandStream stream;
  int64_t tiles = 0;  // local tiles visited
  // Bytes each tensor's loads (inputs, weights) and stores (outputs) would move if every fill
  // moved its whole tile's footprint: the enumeration's own count, which for a GEMM homed in
  // DRAM equals the cost model's closed form (tests check this).
  std::array<double, 3> enumerated_bytes{};
};

// Throws InfeasibleError when the nest has more local tiles than kMaxTiles.
GemmLowering lowerGemm(const dataflows::OpPlan& plan, const analytical::NestCost& nest);
// The same into `out`, reusing its buffers (an engine lowers op after op).
void lowerGemm(const dataflows::OpPlan& plan, const analytical::NestCost& nest, GemmLowering& out);
inline constexpr int64_t kMaxTiles = 4'000'000;

// `cost` is the op's analytical vector cost (its bytes, its unit's cycles and the chunks the
// model chose); it streams in cost.chunks chunks through `local`, the level it passes
// (MemoryModel::localInputs).
CommandStream lowerVector(const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                          const analytical::VectorCost& cost, int local);

}  // namespace tessel::sim::systemc
