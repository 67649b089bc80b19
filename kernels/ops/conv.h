// 2-D convolution, NHWC activations and [R, S, C, K] weights, lowered to GEMM by im2col: the
// [N*P*Q, R*S*C] patch matrix is gathered one row block at a time (never materialized whole)
// and multiplied by the weights viewed as [R*S*C, K]. The epilogue fuses as for matmul.
#pragma once

#include <cstdint>

#include "kernels/chain/op_chain.h"
#include "kernels/gemm/float.h"
#include "kernels/gemm/int8.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

struct ConvParams {
  int64_t r = 1, s = 1;  // kernel height and width
  int64_t stride = 1, pad = 0;
};

// Weights [R, S, C, K] as the GEMM operand [R*S*C, K].
FloatWeights convWeights(const Tensor& w, FloatGemmConfig cfg = {});
PackedWeights packConvWeights(const Tensor& w, Int8Isa isa = Int8Isa::Auto);

// x: [N, H, W, C] -> [N, P, Q, K]. Float x with FloatWeights; Int8 x with PackedWeights (padding
// holds x's zero point, i.e. real 0; output Int32 at x_scale * w_scale unless the epilogue
// converts).
Tensor conv2d(const Tensor& x, const FloatWeights& w, const ConvParams& p,
              const OpChain& epilogue = {});
Tensor conv2d(const Tensor& x, const PackedWeights& w, const ConvParams& p,
              const OpChain& epilogue = {});

}  // namespace tessel::kernels
