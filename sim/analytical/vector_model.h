// Costs of the ops that are not GEMMs: on the array's accumulator path (residual add, relu,
// pooling, the embedding gather), on the special-function unit, or offloaded to the host.
#pragma once

#include "arch/accelerator.h"
#include "dataflows/plan.h"
#include "models/graph.h"
#include "sim/analytical/memory_model.h"
#include "sim/stats.h"

namespace tessel::sim::analytical {

struct VectorCost {
  std::array<double, kNumCauses> cycles{};
  Transfer traffic;       // off-chip bytes (local-memory bytes are recorded in `local`)
  double local_read = 0;  // bytes read from the local memories
  double local_write = 0;
  double sfu_elements = 0;  // element-passes through the SFU (energy)
  double epilogue_pj = 0;   // energy of the array's epilogue lanes on the op's elements
  double host_flops = 0;    // floating-point operations the host core performs (energy)
  double host_bytes = 0;    // bytes the host moves through its memory (energy)
  int64_t chunks = 1;       // chunks it streams in (the fastest; stream_chunks.h): both engines
};

// Energy of the array's epilogue applying `op` to `elements` (0 when the SFU runs the op, or
// the epilogue does not list it: batch norm folded into the weights costs nothing).
double epiloguePj(const models::Op& op, const arch::Accelerator& acc, double elements);

// Passes an SFU makes over the data for an op (softmax: max, exp+sum, normalize).
int sfuPasses(models::OpKind kind);

// The chunk counts an op may stream in through its local memory. A chunk of the bytes it moves
// (off chip, or in the local memory when more) fits a quarter of the scratchpad or global buffer
// (two halves, each holding an input chunk and an output chunk) and is at least one DMA request;
// at most kMaxChunks. The model picks the fastest count in the range (fastestChunks).
struct ChunkRange {
  int64_t fewest = 1;
  int64_t most = 1;
};
ChunkRange chunkRange(const VectorCost& c, const arch::Accelerator& acc);
inline constexpr int64_t kMaxChunks = 4096;

VectorCost evaluateArrayVector(const dataflows::OpPlan& plan, const models::Graph& graph,
                               const arch::Accelerator& acc, const MemoryModel& mem);
VectorCost evaluateSfu(const dataflows::OpPlan& plan, const models::Graph& graph,
                       const arch::Accelerator& acc, const MemoryModel& mem);
VectorCost evaluateHost(const dataflows::OpPlan& plan, const models::Graph& graph,
                        const arch::Accelerator& acc, bool ideal_memory);
// The op's cost where its plan places it (array, SFU, host or a GEMM's epilogue): one of the
// four below. Both engines start from it.
VectorCost evaluateVector(const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                          const MemoryModel& mem, bool ideal_memory);
// A member of a GEMM's fused epilogue: SFU time if it runs there, plus any side input it reads.
VectorCost evaluateFused(const dataflows::OpPlan& plan, const models::Graph& graph,
                         const arch::Accelerator& acc, const MemoryModel& mem);

}  // namespace tessel::sim::analytical
