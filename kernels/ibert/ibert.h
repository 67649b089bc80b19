// Integer-only nonlinear ops after I-BERT (Kim et al. 2021, arXiv 2101.01321), with the
// published constants. Inputs are integers q with a real scale S (x = q * S); every per-element
// computation is integer arithmetic. Float appears only when constants are derived from the
// scales, once, in the constructors (as I-BERT does offline).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

// Newton integer square root: x0 = 2^ceil(bits(n)/2), x' = (x + n/x) / 2, stop when x' >= x.
// Returns floor(sqrt(n)); `iterations` (optional) receives the number of Newton steps taken.
uint64_t iSqrt(uint64_t n, int* iterations = nullptr);

// i-GELU: GELU(x) ~ x/2 * (1 + L(x/sqrt2)), L(u) = sgn(u) [a (min(|u|, -b) + b)^2 + 1],
// a = -0.2888, b = -1.769, evaluated as sgn(q) [(min(|q|, -q_b) + q_b)^2 + q_c] with
// q_b = floor(b / S'), q_c = floor(1 / (a S'^2)), S' = S / sqrt2.
class IGelu {
 public:
  explicit IGelu(float input_scale);
  float outputScale() const { return out_scale_; }
  // In place: values of scale input_scale -> GELU values of scale outputScale(). Results beyond
  // int32 saturate and are counted.
  void run(int32_t* x, int64_t n, SaturationStats& sat) const;

 private:
  int64_t qb_ = 0, qc_ = 0, one_ = 0;  // q_b, q_c, and 1.0 in units of the (shifted) L scale
  int shift_ = 0;                      // right shift of L keeping the products within int32
  float out_scale_ = 0.0f;
};

// i-exp for x <= 0: x = -ln2 * z + p, exp(p) ~ 0.3585 (p + 1.353)^2 + 0.344, exp(x) = that >> z
// with z clamped at 30. Output values have scale outputScale(). Needs S <= ln2 / 2 (at least
// two integer steps per halving).
class IExp {
 public:
  explicit IExp(float input_scale);
  int64_t operator()(int64_t q) const;  // q <= 0
  float outputScale() const { return out_scale_; }

 private:
  int64_t x0_ = 0, qb_ = 0, qc_ = 0;  // floor(-ln2/S), floor(b/S), floor(c/(a S^2))
  int extra_shift_ = 0;               // keeps exp values within 16 bits so row sums fit
  float out_scale_ = 0.0f;
};

// i-softmax over a row: exp via IExp of (q - max), normalized with floor(2^32 / sum) to 8 bits.
// Output: probabilities p = u / 256, u in [0, 255], stored as int8 u - 128 (zero point -128).
class ISoftmax {
 public:
  explicit ISoftmax(float input_scale) : exp_(input_scale) {}
  // Probabilities of 1.0 (u = 256) are clipped to 255 and counted.
  void run(const int32_t* x, int8_t* out, int64_t n, SaturationStats& sat) const;
  static QuantParams outputQuant();

 private:
  IExp exp_;
};

// i-LayerNorm over a row: integer mean, variance, i-sqrt standard deviation, then
// y = (x - mean) * floor(2^31 / std) / 2 (scale S_y = sqrt(n) / 2^30). gamma and beta are folded
// as I-BERT does: out_c = sgn(gamma_c) y + floor(beta_c / (|gamma_c| S_y)), with per-channel
// scale |gamma_c| S_y (gamma_c = 0 gives beta_c at scale S_y). Independent of the input scale.
class ILayerNorm {
 public:
  ILayerNorm(std::vector<float> gamma, std::vector<float> beta);
  // The same datapath without the mean (RMSNorm: x / sqrt(mean(x^2)) * gamma, eps dropped as
  // I-BERT drops LayerNorm's: it is far below one input step squared).
  static ILayerNorm rms(std::vector<float> gamma);
  void run(const int32_t* x, int32_t* out, int64_t n) const;
  // Per-channel scales along the last axis, zero points 0, int32 range.
  QuantParams outputQuant() const;
  int64_t width() const { return static_cast<int64_t>(gamma_.size()); }

 private:
  std::vector<float> gamma_, beta_;
  float norm_scale_ = 0.0f;        // S_y = sqrt(n) / 2^30
  std::vector<int64_t> bias_int_;  // floor(beta_c / (gamma_c S_y))
  std::vector<int32_t> sign_;      // sgn(gamma_c) (1 when gamma_c = 0)
  bool center_ = true;             // subtract the row mean (LayerNorm) or not (RMSNorm)
};

// Tensor entry points. Inputs: Int32 or Int8 tensors with a per-tensor scale (Int8 values are
// taken relative to their zero point). Row-wise ops work over the last dim.
Tensor iGelu(const Tensor& x);     // -> Int32, scale IGelu::outputScale()
Tensor iSoftmax(const Tensor& x);  // -> Int8 probabilities (see ISoftmax)
Tensor iLayerNorm(const Tensor& x, const std::vector<float>& gamma,
                  const std::vector<float>& beta);  // -> Int32 with per-channel scales

}  // namespace tessel::kernels
