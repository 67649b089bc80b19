// Rounding FP32 values to any float-like dtype, block-scaled ones included: the quantize-dequantize
// the executor runs a tensor "in" a dtype with. Block-scaled types quantize each run of `block`
// consecutive values of a row with one scale (the last block of a row may be short):
//   - e8m0 scale with a fp8/fp6/fp4 element, or int8 (the OCP MX formats and their relatives):
//     the MX rule, shared_exp = floor(log2 amax) - emax_elem (mx_block.h; blocks of 32 run on its
//     codec). Integer elements take emax = bits - 2 (mxint8: values q x 2^-6, q in [-128, 127]).
//   - an fp8_e4m3/fp16/bf16/fp32 scale with an integer element of b bits (int4_g128_fp16):
//     symmetric, scale = amax / (2^(b-1) - 1) rounded to the scale dtype, elements round half to
//     even and saturate to [-2^(b-1), 2^(b-1) - 1] (uint4: scale = amax / 15, [0, 15]).
//   - the same scales with a float element (nvfp4 = fp4_e2m1_g16_fp8_e4m3): scale = amax / the
//     element's max, rounded to the scale dtype, elements rounded (saturating) to the element.
// A block holding a NaN or an infinity becomes all NaN (as MX's NaN scale does); an all-zero
// block stays zero.
#pragma once

#include <cstdint>

#include "util/dtype.h"

namespace tessel::kernels {

// Quantize-dequantize one row of n values in blocks of s.block.
void roundBlocks(float* x, int64_t n, const BlockScaling& s);

// Every value of a row-major [rows, cols] array rounded to dtype t: value by value for the plain
// floats (fp32 leaves them), in blocks along each row for block-scaled types. Throws Error for
// integer dtypes (they quantize with a zero point and scale: quantize.h).
void roundRows(float* x, int64_t rows, int64_t cols, DType t);

}  // namespace tessel::kernels
