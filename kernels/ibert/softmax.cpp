// i-exp and i-softmax.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/ibert/ibert.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {
constexpr double kLn2 = 0.6931;
constexpr double kA = 0.3585;
constexpr double kB = 1.353;
constexpr double kC = 0.344;
constexpr int kMaxZ = 30;
constexpr int kExpBits = 16;  // exp values kept below 2^16: sums of 2^15 of them fit 2^32
}  // namespace

IExp::IExp(float input_scale) {
  if (!(input_scale > 0.0f) || !std::isfinite(input_scale))
    throw Error("IExp: input scale must be > 0");
  const double s = input_scale;
  x0_ = static_cast<int64_t>(std::floor(-kLn2 / s));
  if (s > kLn2 / 2) throw Error("IExp: input scale above ln2 / 2 leaves no room for p");
  qb_ = static_cast<int64_t>(std::floor(kB / s));
  qc_ = static_cast<int64_t>(std::floor(kC / (kA * s * s)));
  if (qb_ > (int64_t{1} << 30)) throw Error("IExp: input scale too small for int64 math");
  // exp(0) = qb^2 + qc in units of a S^2: shift so it uses at most kExpBits bits.
  const int64_t top = qb_ * qb_ + qc_;
  while ((top >> extra_shift_) >= (int64_t{1} << kExpBits)) ++extra_shift_;
  out_scale_ = static_cast<float>(kA * s * s * std::ldexp(1.0, extra_shift_));
}

int64_t IExp::operator()(int64_t q) const {
  q = std::max(q, kMaxZ * x0_);   // z <= 30
  const int64_t z = q / x0_;      // both <= 0: truncation is floor
  const int64_t p = q - z * x0_;  // in (x0, 0]
  const int64_t poly = (p + qb_) * (p + qb_) + qc_;
  return poly >> (z + extra_shift_);
}

QuantParams ISoftmax::outputQuant() { return QuantParams::perTensor(1.0f / 256.0f, -128); }

void ISoftmax::run(const int32_t* x, int8_t* out, int64_t n, SaturationStats& sat) const {
  if (n <= 0) return;
  const int32_t m = *std::max_element(x, x + n);
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += exp_(static_cast<int64_t>(x[i]) - m);
  const int64_t factor = (int64_t{1} << 32) / std::max<int64_t>(sum, 1);
  int64_t high = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t u = (exp_(static_cast<int64_t>(x[i]) - m) * factor) >> 24;  // 8-bit output
    high += u > 255;
    out[i] = static_cast<int8_t>(std::min<int64_t>(u, 255) - 128);
  }
  sat.total += n;
  sat.high += high;
}

}  // namespace tessel::kernels
