// Narrow floats (OCP OFP8 E4M3/E5M2, OCP MX FP6 E3M2/E2M3 and FP4 E2M1) and 4-bit integers:
// bit-exact encoders (round to nearest, ties to even, on the exact value) and decoders, so the
// executor can run a kernel "in" one of these formats by rounding FP32 values.
//
// Codes sit in the low `bits` bits of a uint8_t, the sign in the top one of those
// (E2M1: 0bS.EE.M). Special values (OCP OFP8 v1.0 table 1; OCP MX v1.0 section 5.3):
//   E4M3: no infinities; NaN is S.1111.111 only; max 448 (S.1111.110).
//   E5M2: IEEE-like: inf is S.11111.00, NaN is S.11111.{01,10,11}; max 57344.
//   E3M2, E2M3, E2M1: every code is finite (no inf, no NaN).
// Conversion rules chosen here:
//   - NaN encodes as 0x7F | sign for both FP8 formats (the one E4M3 NaN; for E5M2 the
//     S.11111.11 member of the NaN family), and as +0 (code 0) for FP6/FP4, which have no NaN
//     (as Arm's MX reference does for formats without one).
//   - Overflow::Saturate (the OFP8 spec's saturating conversion): a value whose rounded
//     magnitude exceeds the max normal, and +-inf, become +-max.
//     Overflow::Infinity (the non-saturating conversion): such values become +-inf in E5M2 and
//     NaN in E4M3 (it has no inf). FP6/FP4 always saturate.
//   - Rounding is decided on the unbounded-exponent result, as IEEE 754 does: E5M2's
//     57344 + 4096 is a tie that rounds (even) up to 2^16, i.e. overflows; E4M3's 464 is a tie
//     that rounds (even) down to 448.
//   - -0 encodes as sign | 0; values below half the smallest subnormal round to signed zero.
#pragma once

#include <cstdint>
#include <cstring>

namespace tessel::kernels {

enum class NarrowFloat : uint8_t { E4M3, E5M2, E3M2, E2M3, E2M1 };

struct NarrowFloatSpec {
  int exponent_bits, mantissa_bits, bias;
  bool has_inf;
  bool has_nan;
  float max_finite;     // largest finite magnitude
  float min_subnormal;  // smallest non-zero magnitude, 2^(1 - bias - mantissa_bits)
  int emax;             // exponent of the largest normal (E4M3 8, E5M2 15, E3M2 4, E2M3 2, E2M1 2)
  int bits;             // code width: 8, 6 or 4
};

NarrowFloatSpec specOf(NarrowFloat f);

// Infinity: overflow -> inf (E5M2) or NaN (E4M3, which has no inf); formats with neither inf nor
// NaN (FP6, FP4) always saturate.
enum class Overflow : uint8_t { Saturate, Infinity };

// Code in the low `bits` bits, sign in the top bit of those.
uint8_t encode(NarrowFloat f, float x, Overflow mode = Overflow::Saturate);
// Bits of `code` above the format's width are ignored. NaN codes decode to a quiet NaN with the
// code's sign.
float decode(NarrowFloat f, uint8_t code);
// Same encoder for a double (exact: no rounding through float first). The MX block codec uses
// it on x / 2^shared_exp, which need not be a float.
uint8_t encodeExact(NarrowFloat f, double x, Overflow mode = Overflow::Saturate);

float roundTo(float x, NarrowFloat f, Overflow mode = Overflow::Saturate);  // decode(encode(x))
void roundInPlace(float* x, int64_t n, NarrowFloat f, Overflow mode = Overflow::Saturate);

// roundTo() on the float's bits for one format and mode, inline so that the loops using it
// (roundInPlace, roundRowMx) vectorize; equal to decode(encode(x, mode)) for every float.
// Normal range: round the mantissa to M bits, ties to even, by an integer add and mask (a carry
// into the exponent is right). Below 2^emin the step is fixed, 2^(emin - M): adding and then
// subtracting 2^(emin - M + 23) rounds |x| to it (default rounding mode). Then overflow.
struct NarrowRounder {
  uint32_t drop;           // float mantissa bits below the format's: 23 - M
  uint32_t half_minus_1;   // 2^(drop - 1) - 1; plus the kept lsb, it rounds ties to even
  uint32_t keep;           // mask of the bits that remain
  uint32_t min_normal;     // bits of 2^emin, where the fixed subnormal step ends
  float magic;             // 2^(emin - M + 23)
  uint32_t max_bits;       // bits of the largest finite magnitude
  uint32_t overflow_bits;  // magnitude bits beyond it: the max, inf or a NaN
  uint32_t nan_bits;       // result of a NaN: quiet NaN (FP8) or +0 (FP6/FP4, no NaN)
  uint32_t nan_sign;       // sign mask a NaN result keeps: FP8's NaN keeps it, +0 does not

  uint32_t roundBits(uint32_t u) const {
    const uint32_t sign = u & 0x80000000u, a = u & 0x7fffffffu;
    const uint32_t normal = (a + half_minus_1 + ((a >> drop) & 1u)) & keep;
    float af;
    std::memcpy(&af, &a, 4);
    const float sub = (af + magic) - magic;
    uint32_t r;
    std::memcpy(&r, &sub, 4);
    r = a < min_normal ? r : normal;
    r = r > max_bits ? overflow_bits : r;
    return a > 0x7f800000u ? nan_bits | (sign & nan_sign) : r | sign;
  }
  float round(float x) const {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    u = roundBits(u);
    std::memcpy(&x, &u, 4);
    return x;
  }
};

const NarrowRounder& rounderOf(NarrowFloat f, Overflow mode = Overflow::Saturate);

// 4-bit integers: round half to even, saturate to [-8, 7] / [0, 15]; NaN -> 0.
int8_t encodeInt4(float x);
uint8_t encodeUint4(float x);

}  // namespace tessel::kernels
