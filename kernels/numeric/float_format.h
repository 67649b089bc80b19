// FP16 / BF16 / FP8 / FP6 / FP4 emulation: bit-exact round-to-nearest-even conversions, so any
// FP32 kernel can be run "in" a lower precision by rounding its operands, outputs or running sums.
// The narrow floats (OCP FP8 E4M3/E5M2, MX FP6/FP4) saturate (narrow_format.h); they are operand
// and output formats only: GEMMs accumulate in FP32 (or FP16/BF16 when asked), never in them.
#pragma once

#include <cstdint>

#include "util/dtype.h"

namespace tessel::kernels {

enum class FloatFormat : uint8_t {
  FP32,
  FP16,
  BF16,
  FP8_E4M3,
  FP8_E5M2,
  FP6_E3M2,
  FP6_E2M3,
  FP4_E2M1
};

// The format a value of dtype t is rounded to on its own: the plain floats for themselves, and
// FP32 for block-scaled types, whose rounding needs the whole block (block_round.h: callers that
// see whole rows apply it). Throws Error for integer dtypes.
FloatFormat formatOf(DType t);
DType dtypeOf(FloatFormat f);
// Largest finite value: 65504 for FP16, 448 for FP8_E4M3, 6 for FP4_E2M1 ...
float maxFinite(FloatFormat f);
// FP16 and BF16: the low-precision formats a GEMM may also accumulate in.
inline bool canAccumulateIn(FloatFormat f) {
  return f == FloatFormat::FP16 || f == FloatFormat::BF16;
}

// IEEE binary16: RNE, overflow to +-inf, gradual underflow (subnormals), NaN stays NaN.
uint16_t floatToHalfBits(float f);
float halfBitsToFloat(uint16_t h);
// bfloat16 (the top half of an FP32): RNE, overflow to +-inf, NaN stays NaN.
uint16_t floatToBf16Bits(float f);
float bf16BitsToFloat(uint16_t b);

// Nearest value representable in `fmt` (identity for FP32; the narrow floats saturate).
float roundTo(float x, FloatFormat fmt);
// Same, from a double with a single rounding: used by the low-precision accumulators so a
// running sum is rounded once per add, as an FP16/BF16 adder would.
float roundTo(double x, FloatFormat fmt);
void roundInPlace(float* x, int64_t n, FloatFormat fmt);

}  // namespace tessel::kernels
