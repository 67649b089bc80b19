// FP32 GEMM on Eigen, and FP16/BF16 GEMM emulated on it: operands rounded to the format, then
// either an FP32 product (FP32 accumulation) or a running sum rounded after every add
// (FP16/BF16 accumulation, a plain loop: slow, for accuracy studies).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/chain/op_chain.h"
#include "kernels/numeric/float_format.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

struct FloatGemmConfig {
  FloatFormat operands = FloatFormat::FP32;
  FloatFormat accumulate = FloatFormat::FP32;
};

// Static weights, stored [K, N] and rounded to the operand format once.
class FloatWeights {
 public:
  FloatWeights() = default;
  // w: float [K, N], or [N, K] when transposed (e.g. the tied LM head).
  explicit FloatWeights(const Tensor& w, FloatGemmConfig cfg = {}, bool transposed = false);
  int64_t k() const { return k_; }
  int64_t n() const { return n_; }
  const FloatGemmConfig& config() const { return cfg_; }
  const float* data() const { return data_.data(); }

 private:
  int64_t k_ = 0, n_ = 0;
  FloatGemmConfig cfg_;
  std::vector<float> data_;
};

// a: float [..., K] -> [..., N] (FP32, or the accumulation format when it is FP16/BF16), or
// whatever `epilogue` makes of it. `prologue` (optional) transforms A rows first and must end in
// Float. The epilogue runs on each block right after it is computed.
Tensor matmul(const Tensor& a, const FloatWeights& w, const OpChain& epilogue = {},
              const OpChain& prologue = {});

}  // namespace tessel::kernels
