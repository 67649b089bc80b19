// FP16 / BF16 emulation: bit-exact IEEE round-to-nearest-even conversions, so any FP32 kernel
// can be run "in" a lower precision by rounding its operands, outputs or running sums.
#pragma once

#include <cstdint>

#include "util/dtype.h"

namespace tessel::kernels {

enum class FloatFormat : uint8_t { FP32, FP16, BF16 };

// FP32 for fp32; FP16/BF16 for those; throws Error for integer dtypes.
FloatFormat formatOf(DType t);
DType dtypeOf(FloatFormat f);

// IEEE binary16: RNE, overflow to +-inf, gradual underflow (subnormals), NaN stays NaN.
uint16_t floatToHalfBits(float f);
float halfBitsToFloat(uint16_t h);
// bfloat16 (the top half of an FP32): RNE, overflow to +-inf, NaN stays NaN.
uint16_t floatToBf16Bits(float f);
float bf16BitsToFloat(uint16_t b);

// Nearest value representable in `fmt` (identity for FP32).
float roundTo(float x, FloatFormat fmt);
// Same, from a double with a single rounding: used by the low-precision accumulators so a
// running sum is rounded once per add, as an FP16/BF16 adder would.
float roundTo(double x, FloatFormat fmt);
void roundInPlace(float* x, int64_t n, FloatFormat fmt);

}  // namespace tessel::kernels
