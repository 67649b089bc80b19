// Internal to the fused-group cost (fused_cost.cpp, fused_ffn_cost.cpp, fused_conv_cost.cpp): the pieces every kind
// of group is costed with — block GEMMs through the loop-nest model, edge-tensor bytes, and the
// three overlapped stages' sum.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dataflows/nest/hardware.h"
#include "sim/analytical/fused_cost.h"

namespace tessel::sim::analytical::detail {

inline constexpr size_t kIn = 0, kW = 1, kOut = 2;

double bytesOf(DType t, double elements);
MemberCost& member(GroupCost& c, int op);
double accumBytes(const arch::Accelerator& acc);  // the accumulator's element size

// One block GEMM's part, `count` times: compute, compute with fill/drain, and busy (with the
// local ports and the NoC).
struct BlockTotals {
  double compute = 0, array = 0, busy = 0;
  double out_port = 0;  // the local level's output port time (a part of busy's local time)
};
// Its nest cost into the member (register-file, MAC and NoC energy; the local memories' reads
// and partial-sum writes); the array's peak rate when the block has no mapping yet.
BlockTotals addBlock(MemberCost& m, const dataflows::FusedGroup::Block& b, const models::Graph& g,
                     const arch::Accelerator& acc);

// An FFN streaming its input per chunk from a home other than the L2 of its running output
// stages each row block of it there once.
bool stagedInput(const dataflows::FusedGroup& grp);
// Bytes per cycle the local level's output port moves (every copy); infinity without a limit.
double outputPortRate(const dataflows::nest::Hardware& hw);

void read(MemberCost& m, int level, size_t operand, double bytes);
void write(MemberCost& m, int level, size_t operand, double bytes, bool offchip);
// A re-read stream (K, V, weights): `once` bytes distinct, `each` moved over all blocks; from
// home every time, or once into the resident level and re-read there.
void stream(MemberCost& m, size_t operand, int home, int resident, int local, double once,
            double each, const MemoryModel& mem);

struct Stages {
  double array = 0, vector = 0, memory = 0, steps = 1;
  double fill = -1;  // the pipeline's fill when known (>= 0), else one step of the others
};
// cycles = the binding stage plus the fill (one step of the others); the GEMMs get their array
// time, the
// vector member the vector unit's time beyond the array's, the memory member the memory stall.
// The pipeline's fill goes to `fill_cause` of the vector member.
void finish(GroupCost& c, const Stages& st, const std::vector<std::pair<int, BlockTotals>>& gemms,
            int vector_op, int memory_op, const MemoryModel& mem, Cause fill_cause = Cause::Sfu);
Transfer sum(const GroupCost& c);  // the members' off-chip bytes

// Element passes of the vector unit over one value of a member's output (a softmax two, any
// other op one, plus a conversion on each side whose dtype is not the unit's arithmetic).
double passes(const models::Op& op, const models::Graph& g, const arch::Accelerator& acc);

// FFN chains and their gate-up halves (fused_ffn_cost.cpp).
GroupCost ffnCost(const dataflows::FusedGroup& grp, const models::Graph& g,
                  const arch::Accelerator& acc, const MemoryModel& mem, GroupCost c);

// Conv chains (fused_conv_cost.cpp).
GroupCost convChainCost(const dataflows::FusedGroup& grp, const models::Graph& g,
                        const arch::Accelerator& acc, const MemoryModel& mem, GroupCost c);
// Bytes one tile keeps in the input/weight buffer and in the accumulator (groupFits checks them).
struct LocalNeed {
  double inputs = 0, outputs = 0;
};
LocalNeed convChainNeed(const dataflows::FusedGroup& grp, const models::Graph& g,
                        const arch::Accelerator& acc);

}  // namespace tessel::sim::analytical::detail
