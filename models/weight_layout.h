// Where a GEMM weight's output channels and reduction axis lie in its row-major values: what
// pruning (kernels/weights/prune.h) and measuring a file's zeros (models/sparsity.h) walk. An N:M
// pattern groups M consecutive values of one channel's reduction axis.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/graph.h"

namespace tessel::models {

// Element (b, r, c) -- batch b, reduction index r, output channel c -- sits at
// (b * reduction + r) * channels + c when channels_last (MatMul [K, N], conv HWIO), at
// (b * channels + c) * reduction + r otherwise (a transposed MatMul's [N, K], a channels-first
// conv's [K, C, R, S]).
struct WeightLayout {
  int64_t batch = 1, reduction = 1, channels = 1;
  bool channels_last = true;
  int64_t index(int64_t b, int64_t r, int64_t c) const {
    return channels_last ? (b * reduction + r) * channels + c : (b * channels + c) * reduction + r;
  }
};

// A MatMul weight [..., K, N] ([..., N, K] when transposed): leading dims are batches.
WeightLayout matmulWeightLayout(const std::vector<int64_t>& shape, bool transposed);
// A Conv2d weight [R, S, C, K] (reduction R*S*C in that order), [K, C, R, S] channels first.
WeightLayout convWeightLayout(const std::vector<int64_t>& shape, bool channels_first);
// The layout of tensor `id` as the first MatMul or Conv2d that reads it as its weights (directly
// or through conversion ops) sees it; nullopt when none does.
std::optional<WeightLayout> weightLayout(const Graph& g, int id);

}  // namespace tessel::models
