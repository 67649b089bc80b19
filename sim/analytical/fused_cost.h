// The cost of a fused group (dataflows/fused_group.h) as one loop nest. Three stages overlap,
// block by block (double-buffered):
//   - the array runs the block GEMMs, each costed by the loop-nest model with its mapping (array,
//     local-memory and NoC time; register-file, MAC and NoC energy; the local memories' reads);
//   - the vector unit that runs the design's softmax (or activation) runs the online softmax's
//     max, exp and sum, the rescale of the partial output and the final normalization;
//   - the DMA moves only the group's edge tensors between their homes and the local memories,
//     counted in closed form: Q once, K and V once per query block (or once, when they stay in
//     a resident level), O once; the FFN's input once, its weights once per row block, its
//     output once.
// cycles = max(array, vector, memory) + one block of the other two (the pipeline's fill).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/fused_group.h"
#include "dataflows/plan.h"
#include "sim/analytical/memory_model.h"
#include "sim/analytical/vector_model.h"
#include "sim/stats.h"

namespace tessel::sim::analytical {

// One member's part of the group's cost.
struct MemberCost {
  int op = -1;
  int64_t macs = 0;
  std::array<double, kNumCauses> cycles{};
  Transfer offchip;  // bytes at each level, all operands (for the time)
  std::vector<std::array<double, kNumOperands>> reads, writes;  // by Accelerator level, operand
  double rf_pj = 0, mac_pj = 0, noc_pj = 0, sfu_pj = 0, epilogue_pj = 0;
  double rf_bytes = 0, noc_bytes = 0;
};

struct GroupCost {
  bool ok = false;
  std::string reason;               // why the schedule does not fit the local memories
  std::vector<MemberCost> members;  // FusedGroup::chain.ops order
  double array = 0, vector = 0, memory = 0;  // each stage's busy cycles
  double cycles = 0;
  double energy_pj = 0;
  double offchip_bytes = 0;  // DRAM and L2 reads and writes
  std::string binds;         // "array" | "vector unit" | "memory": the stage that sets the time
  // FFN `partials`: the array time its down projection's blocks take beyond their own, waiting
  // for the accumulator's output port while the running output comes in and goes out.
  double partials_port_cycles = 0;
};

// "" when one block of the schedule fits the local memories (operands, double-buffered
// streams, scores or hidden chunk, running state), else which memory overflows and by how much.
std::string groupFits(const dataflows::FusedGroup& group, const models::Graph& graph,
                      const arch::Accelerator& acc);

// The group's cost with its schedule and block mappings (FusedGroup::blocks filled). A block
// without a mapping yet counts its MACs at the array's peak rate: the cycles are then a lower
// bound on any mapping's (the search skips schedules whose bound loses already).
GroupCost evaluateGroup(const dataflows::FusedGroup& group, const models::Graph& graph,
                        const arch::Accelerator& acc, const MemoryModel& mem, bool ideal_memory);

// A conv chain's per-element member (batch norm, relu, ...) over the positions its conv computes
// in the group's schedule: the SFU's cycles and passes where the design runs it there, nothing
// where the accumulator's drain applies it (as the unfused epilogue).
VectorCost convMemberVector(const dataflows::FusedGroup& grp, const models::Graph& graph,
                            const arch::Accelerator& acc, const MemoryModel& mem, int op);

// Pass cost of the design's vector unit for a member op (SFU lanes, or the accumulator path's
// cols per cycle when the array's epilogue runs it): cycles per element pass.
double vectorCyclesPerElement(const models::Op& op, const arch::Accelerator& acc);

}  // namespace tessel::sim::analytical
