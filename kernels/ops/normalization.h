// Standalone row-wise and channel ops: softmax and layer norm over the last dim, and inference
// batch norm in its folded form. Float results keep the input's format.
#pragma once

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

Tensor softmax(const Tensor& x);  // stable: exp(x - max) / sum; -inf entries give 0
// (x - mean) / sqrt(var + eps) * gamma + beta; gamma, beta of length cols.
Tensor layerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps);
// x / sqrt(mean(x^2) + eps) * gamma over the last dim; gamma of length cols.
Tensor rmsNorm(const Tensor& x, const Tensor& gamma, float eps);
// NHWC (channels last): y = x * scale[c] + shift[c].
Tensor batchNorm(const Tensor& x, const Tensor& scale, const Tensor& shift);

}  // namespace tessel::kernels
