// i-GELU and i-sqrt.
#include <cmath>
#include <limits>
#include <string>

#include "kernels/ibert/ibert.h"
#include "util/error.h"

namespace tessel::kernels {

uint64_t iSqrt(uint64_t n, int* iterations) {
  int steps = 0;
  uint64_t x = 0;
  if (n > 0) {
    int bits = 0;
    for (uint64_t v = n; v; v >>= 1) ++bits;
    x = uint64_t{1} << ((bits + 1) / 2);  // 2^ceil(bits/2) >= sqrt(n)
    for (;;) {
      const uint64_t next = (x + n / x) / 2;
      ++steps;
      if (next >= x) break;
      x = next;
    }
  }
  if (iterations) *iterations = steps;
  return x;
}

namespace {
constexpr double kA = -0.2888;
constexpr double kB = -1.769;
}  // namespace

IGelu::IGelu(float input_scale) {
  if (!(input_scale > 0.0f) || !std::isfinite(input_scale))
    throw Error("IGelu: input scale must be > 0");
  const double s = input_scale / std::sqrt(2.0);  // scale of x / sqrt2
  qb_ = static_cast<int64_t>(std::floor(kB / s));
  qc_ = static_cast<int64_t>(std::floor(1.0 / (kA * s * s)));
  if (-qb_ > (int64_t{1} << 30)) throw Error("IGelu: input scale too small for int64 math");
  // Shift L right until one unit of it is >= 2^-11: 11-bit precision for 1 + L, so the GELU
  // product stays within int32 for any |q| < 2^19 (|x| < 2^19 S).
  double l_scale = kA * s * s;
  while (std::fabs(l_scale) < 0x1p-11) {
    l_scale *= 2.0;
    ++shift_;
  }
  one_ = static_cast<int64_t>(std::floor(1.0 / l_scale));
  // GELU = q S / 2 * (L + 1/S_L) S_L; S_L < 0, so negate to keep the output scale positive.
  out_scale_ = static_cast<float>(-static_cast<double>(input_scale) * l_scale / 2.0);
}

void IGelu::run(int32_t* x, int64_t n, SaturationStats& sat) const {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  int64_t low = 0, high = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t q = x[i];
    const int64_t mag = std::min(q < 0 ? -q : q, -qb_) + qb_;
    const int64_t sgn = (q > 0) - (q < 0);
    const int64_t l = (sgn * (mag * mag + qc_)) >> shift_;  // arithmetic shift = floor
    const int64_t y = -q * (l + one_);
    low += y < kMin;
    high += y > kMax;
    x[i] = static_cast<int32_t>(y < kMin ? kMin : (y > kMax ? kMax : y));
  }
  sat.total += n;
  sat.low += low;
  sat.high += high;
}

}  // namespace tessel::kernels
