// Integer-only requantization INT32 -> INT8 (gemmlowp / TFLite style): the real multiplier
// acc_scale / out_scale is turned into a 31-bit fixed-point multiplier and a shift once,
// offline; the data path then uses only integer multiplies, adds and shifts.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

// real ~= multiplier * 2^-31 * 2^-shift, multiplier in [2^30, 2^31). shift < 0 is a left shift
// (real >= 1). A real too small to matter (< 2^-32) gives multiplier 0.
struct FixedPointMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

// Throws Error unless real is finite, > 0 and < 2^31.
FixedPointMultiplier toFixedPoint(double real);

// round(a * b / 2^31), ties toward +inf (gemmlowp's nudge); saturates INT32_MIN * INT32_MIN.
int32_t roundingDoublingHighMul(int32_t a, int32_t b);
// round(x / 2^exponent), ties away from zero; exponent in [0, 31].
int32_t roundingDivideByPOT(int32_t x, int exponent);
// x * real using only integer arithmetic (left shift saturates to the int32 range).
int32_t multiplyByFixedPoint(int32_t x, FixedPointMultiplier m);

// Requantization of an accumulator tensor to INT8 with `out` params.
struct Requant {
  std::vector<FixedPointMultiplier> multipliers;  // one, or one per output channel (last dim)
  QuantParams out;                                // per-tensor: scale, zero point, qmin, qmax
};

// Multipliers acc_scale[c] / out.scale for each accumulator scale (one or per channel).
Requant makeRequant(const std::vector<float>& acc_scales, const QuantParams& out);
// Int32 -> Int8: clamp(multiplyByFixedPoint(x, m[c]) + zp, qmin, qmax), clipping counted.
Tensor requantize(const Tensor& acc, const Requant& r);

}  // namespace tessel::kernels
