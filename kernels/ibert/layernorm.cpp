// i-LayerNorm and the Tensor entry points of the integer-only ops.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/ibert/ibert.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int32_t clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

}  // namespace

ILayerNorm::ILayerNorm(std::vector<float> gamma, std::vector<float> beta)
    : gamma_(std::move(gamma)), beta_(std::move(beta)) {
  if (gamma_.empty() || gamma_.size() != beta_.size())
    throw Error("ILayerNorm: gamma and beta must be non-empty and of equal length");
  norm_scale_ = static_cast<float>(std::sqrt(static_cast<double>(gamma_.size())) / 0x1p30);
  for (size_t c = 0; c < gamma_.size(); ++c) {
    const double g = gamma_[c] == 0.0f ? 1.0 : std::fabs(gamma_[c]);
    // gamma = 0: the output is beta alone (the normalized value is dropped in run()).
    bias_int_.push_back(static_cast<int64_t>(std::floor(beta_[c] / (g * norm_scale_))));
    sign_.push_back(gamma_[c] < 0.0f ? -1 : (gamma_[c] == 0.0f ? 0 : 1));
  }
}

ILayerNorm ILayerNorm::rms(std::vector<float> gamma) {
  std::vector<float> zeros(gamma.size(), 0.0f);
  ILayerNorm n(std::move(gamma), std::move(zeros));
  n.center_ = false;
  return n;
}

void ILayerNorm::run(const int32_t* x, int32_t* out, int64_t n) const {
  if (n != width())
    throw Error("ILayerNorm: row of " + std::to_string(n) + " values for " +
                std::to_string(width()) + " channels");
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += x[i];
  const int64_t mean = center_ ? floorDiv(2 * sum + n, 2 * n) : 0;  // round(sum / n)
  int64_t max_dev = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t dev = x[i] - mean;
    max_dev = std::max(max_dev, dev < 0 ? -dev : dev);
  }
  // Shift deviations so the variance sum stays within 32 bits, as a 32-bit datapath would.
  const auto limit =
      static_cast<int64_t>(iSqrt(((uint64_t{1} << 32) - 1) / static_cast<uint64_t>(n)));
  int shift = 0;
  while ((max_dev >> shift) > limit) ++shift;
  uint64_t var = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = (x[i] - mean) >> shift;
    var += static_cast<uint64_t>(d * d);
  }
  const int64_t std_int = std::max<int64_t>(static_cast<int64_t>(iSqrt(var)) << shift, 1);
  const int64_t factor = (int64_t{1} << 31) / std_int;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t y = ((x[i] - mean) * factor) >> 1;  // scale sqrt(n) / 2^30
    out[i] = clamp32(sign_[static_cast<size_t>(i)] * y + bias_int_[static_cast<size_t>(i)]);
  }
}

QuantParams ILayerNorm::outputQuant() const {
  QuantParams q;
  q.scale.clear();
  for (float g : gamma_) q.scale.push_back(norm_scale_ * (g == 0.0f ? 1.0f : std::fabs(g)));
  q.zero_point = {0};
  q.axis = -1;
  q.qmin = std::numeric_limits<int32_t>::min();
  q.qmax = std::numeric_limits<int32_t>::max();
  return q;
}

// Int32 values relative to the zero point, and the per-tensor scale.
static std::vector<int32_t> promote(const Tensor& x, float& scale) {
  if (x.quant.perChannel()) throw Error("integer-only ops need a per-tensor input scale");
  scale = x.quant.scale.at(0);
  const int32_t zp = x.quant.zero_point.at(0);
  std::vector<int32_t> v(static_cast<size_t>(x.numel()));
  if (x.dtype() == DType::Int8) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = x.i8()[i] - zp;
  } else if (x.dtype() == DType::Int32) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = x.i32()[i] - zp;
  } else {
    throw Error("integer-only ops need an int8 or int32 tensor");
  }
  return v;
}

Tensor iGelu(const Tensor& x) {
  float s = 0.0f;
  std::vector<int32_t> v = promote(x, s);
  const IGelu g(s);
  SaturationStats sat;
  g.run(v.data(), static_cast<int64_t>(v.size()), sat);
  Tensor out = Tensor::fromInt32(x.shape(), std::move(v),
                                 QuantParams::perTensor(g.outputScale(), 0, INT32_MIN, INT32_MAX));
  out.saturation = sat;
  return out;
}

Tensor iSoftmax(const Tensor& x) {
  float s = 0.0f;
  const std::vector<int32_t> v = promote(x, s);
  const ISoftmax sm(s);
  Tensor out = Tensor::uninitialized(x.shape(), DType::Int8);
  out.quant = ISoftmax::outputQuant();
  for (int64_t r = 0; r < x.rows(); ++r)
    sm.run(v.data() + r * x.cols(), out.i8() + r * x.cols(), x.cols(), out.saturation);
  return out;
}

Tensor iLayerNorm(const Tensor& x, const std::vector<float>& gamma,
                  const std::vector<float>& beta) {
  float s = 0.0f;
  const std::vector<int32_t> v = promote(x, s);
  const ILayerNorm ln(gamma, beta);
  Tensor out = Tensor::uninitialized(x.shape(), DType::Int32);
  out.quant = ln.outputQuant();
  for (int64_t r = 0; r < x.rows(); ++r)
    ln.run(v.data() + r * x.cols(), out.i32() + r * x.cols(), x.cols());
  return out;
}

}  // namespace tessel::kernels
