// Chains of GEMM-like ops that may run as one fused group: attention's QKᵀ → softmax → ·V, an
// FFN's up (and gate) → activation (· up) → down, and consecutive convolutions (each with the
// per-element ops its epilogue may drain through: batch norm, relu, requantize...). Between the
// GEMMs every tensor has exactly one consumer inside the chain, so a fused group never needs to
// write it out. Whether a chain is fused is decided later, by cost (dataflows/fused/); this pass
// only finds the candidates.
#pragma once

#include <string_view>
#include <vector>

#include "models/graph.h"

namespace tessel::models {

enum class ChainKind : uint8_t { Attention, Ffn, ConvChain };
std::string_view nameOf(ChainKind k);

struct ChainGroup {
  ChainKind kind = ChainKind::Attention;
  std::vector<int> ops;  // every member, in graph order
  // Attention: the score (QKᵀ, a transpose_b BatchMatMul with heads), the per-element ops
  // between it and the softmax (an exported scale or mask), the softmax, the context (·V).
  int score = -1, softmax = -1, context = -1;
  // FFN: the projections that read the block's input (up, and gate when gated), the
  // activation, the gating product (-1 when not gated) and the down projection.
  std::vector<int> up;
  int activation = -1, gate_mul = -1, down = -1;
  // Conv chain: the convolutions in order (2 or more); each one's per-element ops up to the
  // next conv are members too, the last conv's are not (they stay its epilogue).
  std::vector<int> convs;
  int first() const { return ops.front(); }
  int last() const { return ops.back(); }
  // A gated FFN's gate-up half (gateUpOf): gate and up as one loop nest whose drain computes
  // act(gate) * up (vLLM's merged gate_up_proj); the product is its output, down stays outside.
  bool gateUp() const { return kind == ChainKind::Ffn && down < 0; }
  // FFN: the member that writes the group's output (the down projection, or the product).
  int ffnOutput() const { return down >= 0 ? down : gate_mul; }
};

// The gate-up half of a gated FFN chain (gate_mul >= 0): its projections, activation and
// product, without the down projection.
ChainGroup gateUpOf(const ChainGroup& ffn);

// Every attention, FFN and conv chain of the graph, ordered by their first op; no op is in two.
// A conv chain is as long as the graph allows; sim/fusion.h may fuse a part of it.
std::vector<ChainGroup> findChains(const Graph& g);

}  // namespace tessel::models
