// A chain of GEMM-like ops (models/chains.h) run as one loop nest: attention's QKᵀ → softmax →
// ·V tiled in query × key blocks, an FFN's up (gate) → activation → down tiled in token ×
// hidden blocks, consecutive convs tiled depth-first in bands of the last one's output rows
// (dataflows/conv_chain.h). The intermediates between the GEMMs stay in the local memories for a
// block's lifetime; only the group's edge tensors (Q, K, V, O; the FFN's or the convs' input,
// weights and output) move off chip. The schedule (block sizes, where K/V or the weights stay
// between blocks) is chosen by cost against the unfused plan (sim/fusion.h); both engines time
// the chosen one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dataflows/mapping.h"
#include "dataflows/problem.h"
#include "models/chains.h"

namespace tessel::dataflows {

// --fusion: none (nothing fused), epilogue (a GEMM and the elementwise/row-wise ops draining
// from it), auto (epilogues, plus attention and FFN chains wherever they cost less).
enum class FusionMode : uint8_t { None, Epilogue, Auto };
std::string_view nameOf(FusionMode m);
// ConfigError naming `what` (the option or key) when `name` is none of the three.
FusionMode fusionModeFrom(std::string_view name, const std::string& what = "--fusion");

// The loop nest of one fused group.
struct FusedGroup {
  models::ChainGroup chain;
  std::string name;  // "attention@layers.0.attn.score": the kind and the first op

  // Attention: query positions per block (a KV head's query heads stack, so a block has
  // heads/kv_heads times as many rows) and key positions per block; the whole row
  // (block_cols >= keys) is FLAT's row-granular schedule, a plain softmax; fewer is
  // FlashAttention's, an online softmax. FFN: token rows per block and hidden columns per chunk.
  int64_t block_rows = 0, block_cols = 0;
  bool online_softmax = false;
  // Where the re-read tensors (K and V; the FFN's weights) stay between row blocks: an index
  // into Accelerator::levels, or -1 when each row block reads them again from their home.
  int resident_level = -1;
  // Conv chain (dataflows/conv_chain.h): block_rows x block_cols outputs of the last conv per
  // tile; the halo an earlier tile computed stays on chip (keep) or is computed again (recompute).
  bool keep_halo = false;
  // FFN: where a row block's running output (the down projection's partial sums) lives between
  // hidden chunks: -1, the accumulator (the whole row block's output stays there), or an index
  // into Accelerator::levels whose copy each chunk reads, adds to and writes back — the L2 holds
  // row blocks the accumulator cannot, so the weights are read fewer times.
  int partials_level = -1;
  // FFN: each hidden chunk reads the row block's input again from its home (a block too large to
  // stay in the local buffer beside the chunk's weights), instead of once per row block.
  bool stream_input = false;
  // The gate-up half streaming its input: a level (the L2) each row block is staged in once from
  // a home elsewhere, then read there per chunk; -1: read from home per chunk. (`partials`
  // stages in partials_level.)
  int stage_level = -1;
  // Where a streamed input's row block is staged (-1: nowhere, read from home per chunk).
  int stagingLevel() const {
    const int level = partials_level >= 0 ? partials_level : stage_level;
    return stream_input && level >= 0 && level != homes[0] ? level : -1;
  }

  // The block GEMMs, mapped by the plan's mapper: score and context (attention) or each up
  // projection and the down projection (FFN), in chain order, with the number of times each runs.
  struct Block {
    int op = -1;  // the member op it computes
    Problem problem;
    Mapping mapping;
    // Blocks run (causal skipping counted); a conv chain's tiles at the edges are smaller than
    // its block, so its count is the positions it computes over the block's (a fraction).
    double count = 0;
  };
  std::vector<Block> blocks;

  // Where the group's edge tensors live off chip (indices into Accelerator::levels): attention
  // {Q, K, V, O}, FFN and conv chain {input, -, -, output} (their weights live in DRAM).
  std::array<int, 4> homes{0, 0, 0, 0};

  // What the unfused (epilogue) plan of the same ops costs, for the reports' savings.
  double unfused_cycles = 0, unfused_energy_pj = 0;
  double unfused_offchip_bytes = 0;

  // "row" | "block" (attention), "rows" | "partials" (FFN: the running output in the accumulator
  // or in partials_level), "gate_up" (a gated FFN's gate-up half: the product written out),
  // "recompute" | "keep" (conv chain)
  std::string_view schedule() const;
};

}  // namespace tessel::dataflows

namespace tessel::dataflows {

// The sizes a fused group's schedule is made of, read from its ops.
struct AttentionDims {
  int64_t units = 1;      // batch x KV heads: independent (query block rows x all keys) problems
  int64_t group = 1;      // query heads per KV head (GQA): their rows stack in a block
  int64_t queries = 0;    // S: query positions per head
  int64_t keys = 0;       // T: key positions
  int64_t head_dim = 0;   // d (QKᵀ's reduction)
  int64_t value_dim = 0;  // dv (the context's columns per head)
  bool causal = false;
  DType q = DType::Int8, k = DType::Int8, v = DType::Int8, p = DType::Int8, o = DType::Int8;
};
AttentionDims attentionDims(const models::ChainGroup& c, const models::Graph& g);

struct FfnDims {
  int64_t rows = 0;     // tokens (the up projections' m)
  int64_t model = 0;    // D: the up projections' k
  int64_t hidden = 0;   // F: the up projections' n, the down projection's k
  int64_t out = 0;      // the down projection's n (0: the gate-up half, no down projection)
  int64_t ups = 1;      // up projections (2 when gated)
  DType x = DType::Int8, w = DType::Int8, h = DType::Int8, y = DType::Int8;
};
FfnDims ffnDims(const models::ChainGroup& c, const models::Graph& g);

// Per attention unit, the blocks a schedule computes: causal masking skips the key blocks above
// the diagonal (offset by keys - queries, so a decode query sees the whole cache).
struct AttentionBlocks {
  int64_t row_blocks = 0;     // query blocks per unit
  int64_t blocks = 0;         // (query block, key block) pairs computed per unit
  int64_t key_rows = 0;       // keys loaded per unit, summed over its query blocks
  int64_t score_elems = 0;    // score elements computed per unit and query head
  int64_t rescale_rows = 0;   // query rows x (key blocks - 1): online-softmax rescales, per head
};
AttentionBlocks attentionBlocks(const AttentionDims& d, int64_t block_rows, int64_t block_cols);

// The block sizes a search tries along a dim of `extent`: powers of two from `smallest` below
// the extent, then the extent itself.
std::vector<int64_t> blockSizes(int64_t extent, int64_t smallest = 16);

}  // namespace tessel::dataflows
