// Pooling on NHWC tensors, and the embedding gather.
#pragma once

#include <cstdint>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

struct PoolParams {
  int64_t window = 1, stride = 1, pad = 0;
  bool count_pad = true;  // avgPool divides by the full window (PyTorch's default)
};

// Padding never wins a max. Float or Int8 (same quant params in and out).
Tensor maxPool(const Tensor& x, const PoolParams& p);
Tensor avgPool(const Tensor& x, const PoolParams& p);  // float
Tensor globalAvgPool(const Tensor& x);                 // float NHWC -> [N, C]

// ids: Int32 of any shape, values in [0, V); table: [V, D] float or Int8 -> ids.shape + [D], in
// the table's dtype and quant params. Throws Error on an out-of-range id.
Tensor embedding(const Tensor& ids, const Tensor& table);

}  // namespace tessel::kernels
