// Lowering a fused group (dataflows/fused_group.h) to commands: the group's block pipeline.
// A block is one row block's work on one key block (attention) or hidden chunk (FFN) of one
// unit (batch x KV heads); a step is one block or, on long sequences, several consecutive ones.
// A row's input (Q, x) is loaded with its first block and its output (O, y) stored after its
// last; every step loads its stream blocks (K and V; the up and down weight chunks) unless they
// stay resident, runs the first block GEMM(s) (score; gate and up), the vector unit (online
// softmax; activation) and the second block GEMM (context; down). Buffers are double-buffered by
// step: the array computes step i+1's first GEMM while the vector unit works on step i, and the
// DMA loads step i+2's blocks.
// Bytes per member, level and operand are the analytical group cost's (analytical/fused_cost.h),
// spread over the commands that move them, so the two engines agree exactly; a block GEMM's time
// is its own lowering simulated apart (the caller gives it per run of the block).
#pragma once

#include <cstdint>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/fused_group.h"
#include "sim/analytical/fused_cost.h"
#include "sim/systemc/lower/command.h"

namespace tessel::sim::systemc {

// What a fused group's command does: its track, its label and whose time it is.
enum class Role : uint8_t { RowLoad, Load1, Load3, Gemm1, Vector, Gemm3, RowStore };

// A run of consecutive key blocks (hidden chunks) [c0, c1) of one row block of one unit.
struct FusedSegment {
  int64_t unit = 0, row = 0, c0 = 0, c1 = 0;
  int64_t loaded = 0;  // key blocks (chunks) the unit had read before: [loaded, c1) are new
};

// One step of the pipeline: `blocks` consecutive blocks in execution order (unit, row block,
// key block), whatever rows they belong to; each step carries the sum of its blocks.
struct FusedStep {
  uint32_t seg_begin = 0, seg_end = 0;  // its segments in FusedSchedule::segments
  double blocks = 0;                    // unit-blocks it computes
  double row_in = 0;    // query (token) rows whose first block it computes: their input loads
  double row_out = 0;   // rows whose last block it computes: their output stores
  double each_w = 0;    // key rows (hidden columns) of the stream blocks it reads
  double once_w = 0;    // the part of them read for the first time in their unit
  double vector_w = 0;  // rows x columns: the vector unit's elements
};

// The steps of a group: identical blocks coalesced, k consecutive ones a step, so that at most
// `max_steps` remain (k = 1 up to that many blocks).
struct FusedSchedule {
  std::vector<FusedStep> steps;
  std::vector<FusedSegment> segments;
  int64_t units = 1;            // independent problems (attention: batch x KV heads)
  int64_t key_blocks = 0;       // key blocks (hidden chunks) per row, at most
  int64_t unit_blocks = 0;      // units x blocks per unit
  int64_t blocks_per_step = 1;  // k
};
FusedSchedule fusedSchedule(const dataflows::FusedGroup& grp, const models::Graph& g,
                            int64_t max_steps);
inline constexpr int64_t kMaxFusedSteps = 1024;

struct FusedLowering {
  CommandStream stream;
  std::vector<Role> role;              // per command
  std::vector<uint8_t> owner;          // per command: the member (index in chain.ops) it is for
  std::vector<uint8_t> access_member;  // per access: the member its bytes belong to
  FusedSchedule schedule;

  // Appends a command of step `step` for member `owner` (time-local when it moves bytes), with
  // its role; returns its id.
  uint32_t add(Kind kind, Queue queue, Role r, int member, int8_t tensor, size_t step);
};

// One run of a block GEMM on the array, as its own lowering ran it.
struct BlockRun {
  double cycles = 0;  // the array's time
  int64_t tiles = 1;  // its local tiles
};

// Where the group's streams stay between row blocks, as the lowering sees it.
struct Residence {
  int local = 0;  // the level the array reads its operands from (MemoryModel::localInputs)
  // The resident buffer holds two units' streams: the next unit's blocks load while this one
  // finishes; else a block takes the place of the previous unit's once that one has read it.
  bool two_units = false;
};

// `cost`: the group's analytical cost (its members' bytes and its vector-unit time); `blocks[i]`:
// grp.blocks[i] run once. A step that reads resident blocks for the first time runs its GEMM in
// pieces, one per local tile (at most kMaxPieces), each waiting only for its share of the load:
// a block streams its first weights tile by tile.
void lowerFused(const dataflows::FusedGroup& grp, const models::Graph& g,
                const analytical::GroupCost& cost, const std::vector<BlockRun>& blocks,
                Residence residence, FusedLowering& out);
inline constexpr int64_t kMaxPieces = 8;

// A depth-first conv chain's tile pipeline (lower/fused_conv.cpp): per step, the input's part
// of the tile and (unless resident) each conv's weights load, each conv's block GEMM runs (its
// block's time for the positions it computes; `vector_cycles[c]`, the vector unit's time over
// all of conv c's outputs, after it), the last output stores. The roles: RowLoad (input),
// Load1 (weights), Gemm1 (every conv), Vector, RowStore (output).
void lowerConvChain(const dataflows::FusedGroup& grp, const models::Graph& g,
                    const arch::Accelerator& acc, const analytical::GroupCost& cost,
                    const std::vector<BlockRun>& blocks, const std::vector<double>& vector_cycles,
                    int local, FusedLowering& out);

}  // namespace tessel::sim::systemc
