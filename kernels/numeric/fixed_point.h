// Inline gemmlowp-style fixed-point arithmetic (kernels-internal), shared by the public
// functions in requantize.cpp and the row kernels.
#pragma once

#include <cstdint>
#include <limits>

#include "kernels/numeric/requantize.h"

namespace tessel::kernels::detail {

inline int32_t srdhm(int32_t a, int32_t b) {
  const bool overflow = a == b && a == std::numeric_limits<int32_t>::min();
  const int64_t ab = static_cast<int64_t>(a) * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  const auto high = static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
  return overflow ? std::numeric_limits<int32_t>::max() : high;
}

inline int32_t rdbpot(int32_t x, int exponent) {
  const auto mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

inline int32_t mulFixed(int32_t x, FixedPointMultiplier m) {
  if (m.shift < 0) {
    // real >= 1: gemmlowp shifts x left then high-multiplies, which overflows for large x. The
    // same rounding (half up) on the exact 64-bit product agrees whenever that does not
    // overflow, and saturates correctly when the result itself does not fit.
    const int s = 31 + m.shift;
    const int64_t p = static_cast<int64_t>(x) * m.multiplier;
    const int64_t y = s > 0 ? (p + (int64_t{1} << (s - 1))) >> s : p;
    return static_cast<int32_t>(
        y > std::numeric_limits<int32_t>::max()   ? std::numeric_limits<int32_t>::max()
        : y < std::numeric_limits<int32_t>::min() ? std::numeric_limits<int32_t>::min()
                                                  : y);
  }
  return rdbpot(srdhm(x, m.multiplier), m.shift);
}

}  // namespace tessel::kernels::detail
