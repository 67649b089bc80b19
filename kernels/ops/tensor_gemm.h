// Float GEMM-like ops outside the blocked kernels' views: numpy-style batched matmul of two
// activations (BatchMatMul with attn.heads == 0) and direct convolution with channel groups,
// dilation and either layout (ONNX's NCHW with [K, C/groups, R, S] weights, or NHWC with
// [R, S, C/groups, K]). FP32 accumulation in the natural loop order.
#pragma once

#include "kernels/numeric/tensor.h"
#include "models/graph.h"

namespace tessel::kernels {

// a [..., M, K] x b [..., K, N] (b [..., N, K] when transpose_b) -> [batch..., M, N], the batch
// dims broadcast. Both rank >= 2.
Tensor batchedMatmul(const Tensor& a, const Tensor& b, bool transpose_b);

// x NHWC or (channels_first) NCHW; r, s, stride, pad, groups, dilation from `c`; K from w.
Tensor convDirect(const Tensor& x, const Tensor& w, const Tensor* bias, const models::ConvShape& c,
                  bool channels_first);

}  // namespace tessel::kernels
