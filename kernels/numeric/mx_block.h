// OCP Microscaling Formats (MX) v1.0 block codec: 32 consecutive elements share one E8M0 scale
// (a power of two, 2^(code - 127); code 0xFF is NaN) and each element is stored in a narrow
// format (narrow_format.h) or, for MXINT8, as an 8-bit two's complement integer with an
// implicit scale of 2^-6 (value = code / 64, range [-2, 127/64]).
//
// Conversion (MX v1.0 section 6.3, in the closed form of Rouhani et al., arXiv:2310.10537,
// algorithm 1):
//   shared_exp = floor(log2(max_i |x_i|)) - emax_elem, clamped to E8M0's [-127, 127];
//   P_i = quantize(x_i / 2^shared_exp): round to nearest even, normals beyond the element's max
//   clamped to +-max (sign kept). emax_elem: E4M3 8, E5M2 15, E3M2 4, E2M3 2, E2M1 2, INT8 0.
// Edge rules chosen here:
//   - any NaN or +-inf in the block: the scale is NaN (0xFF) and the codes are 0; the whole
//     block then decodes to NaN (the spec's special-value rule: a NaN scale makes every element
//     NaN). It is what the formula gives (log2 inf overflows the scale; Microsoft's microxcaling
//     sets overflowing shared exponents to NaN).
//   - a block of zeros: the smallest scale, 0x00 (2^-127); elements keep their sign.
//   - FP32 subnormal inputs are converted exactly (not flushed to zero).
//   - MXINT8 keeps -2 (code 0x80): the spec's element range (section 5.3) is [-2, 1 63/64];
//     it allows, not requires, restricting it to a symmetric [-1 63/64, 1 63/64].
#pragma once

#include <array>
#include <cstdint>

namespace tessel::kernels {

enum class MxElement : uint8_t { FP8_E4M3, FP8_E5M2, FP6_E3M2, FP6_E2M3, FP4_E2M1, INT8 };

constexpr int kMxBlock = 32;

struct MxBlock {
  uint8_t scale = 0;                      // E8M0 (0xFF = NaN)
  std::array<uint8_t, kMxBlock> codes{};  // element codes (INT8 as two's complement bits)
  int n = 0;  // elements used: kMxBlock, or fewer for a row's last block
};

// Throws Error unless 0 <= n <= kMxBlock; codes past n are 0.
MxBlock encodeBlock(MxElement e, const float* x, int n);
// Writes b.n values.
void decodeBlock(MxElement e, const MxBlock& b, float* out);
// 2^(e - 127); NaN for 0xFF.
float decodeScale(uint8_t e8m0);

// Quantize-dequantize a whole row in blocks of 32 along it (the emulation the executor uses);
// the last block may be short.
void roundRowMx(float* x, int64_t n, MxElement e);

int elementBits(MxElement e);  // 8, 8, 6, 6, 4, 8
int elementEmax(MxElement e);  // exponent of the element's largest normal: 8, 15, 4, 2, 2, 0

}  // namespace tessel::kernels
