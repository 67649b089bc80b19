// Magnitude pruning of a GEMM weight to a Sparsity, per output channel along its reduction axis:
// what `--sparsity weights=2:4` (or weights=0.5) makes of the synthetic or loaded weights before
// the executor reads them (and before any quantization, so zeros stay zeros).
//   N:M      in each group of M consecutive values of a channel's reduction axis, the N of
//            largest |w| stay (ties: the lower index); a last partial group of g < M values keeps
//            min(N, g).
//   density  per channel, the round(d * fan_in) values of largest |w| stay (at least 1; half
//            rounds away from zero; ties: the lower index).
// Deterministic; O(n log n) at worst per channel.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/numeric/tensor.h"
#include "models/graph.h"
#include "models/weight_layout.h"
#include "util/sparsity.h"

namespace tessel::kernels {

// Where a weight's output channels and reduction axis lie (models/weight_layout.h).
using PruneLayout = models::WeightLayout;
inline PruneLayout matmulLayout(const std::vector<int64_t>& shape, bool transposed) {
  return models::matmulWeightLayout(shape, transposed);
}
inline PruneLayout convLayout(const std::vector<int64_t>& shape, bool channels_first) {
  return models::convWeightLayout(shape, channels_first);
}
inline std::optional<PruneLayout> pruneLayout(const models::Graph& g, int id) {
  return models::weightLayout(g, id);
}

// Prunes one channel's reduction list of `n` contiguous values in place (dense: unchanged).
void pruneRun(float* values, int64_t n, const Sparsity& s);
// A float tensor pruned channel by channel. Throws Error when the layout does not cover it.
void pruneInPlace(Tensor& w, const PruneLayout& layout, const Sparsity& s);
Tensor pruneWeight(const Tensor& w, const PruneLayout& layout, const Sparsity& s);

}  // namespace tessel::kernels
