// Internal to the fused lowering (fused.cpp builds the commands, fused_bytes.cpp gives them
// their bytes): the group's members by part and the commands of each step.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/systemc/lower/fused.h"

namespace tessel::sim::systemc::fused {

// The group's members by part (indices into chain.ops): who loads the row input, who stores the
// output, who runs the vector unit, the GEMMs of each stage and the block each GEMM runs.
struct Parts {
  int row_in = 0, row_out = 0, vector = 0;
  std::vector<int> gemm1;        // score | up (gate and up), in chain order
  int gemm3 = 0;                 // context | down; -1 for an FFN's gate-up half (none)
  std::vector<size_t> block_of;  // per member: its entry in grp.blocks (GEMMs only)
};
Parts partsOf(const dataflows::FusedGroup& grp);

// The commands of one step (a stream load and its GEMM in pieces), kNone where it has none.
struct StepIds {
  uint32_t row_load = kNone, vec = kNone, store = kNone;
  std::vector<uint32_t> load1, load3;  // pieces
  std::vector<uint32_t> gemm1, gemm3;  // pieces (stage 1: every member's, piece by piece)
  uint32_t lastGemm1() const { return gemm1.empty() ? kNone : gemm1.back(); }
  uint32_t lastGemm3() const { return gemm3.empty() ? kNone : gemm3.back(); }
};

// Spreads each member's bytes (the group cost's, per level, operand and direction) over the
// commands that move them, and its register-file and NoC bytes over its GEMMs.
void attachBytes(const dataflows::FusedGroup& grp, const models::Graph& g, const Parts& parts,
                 const analytical::GroupCost& cost, int local, const std::vector<StepIds>& ids,
                 FusedLowering& out);

}  // namespace tessel::sim::systemc::fused
