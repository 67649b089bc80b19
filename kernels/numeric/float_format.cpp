#include "kernels/numeric/float_format.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

#include "kernels/gemm/isa/dispatch.h"
#include "kernels/numeric/narrow_format.h"
#include "util/error.h"
#include "kernels/numeric/float_bits.h"

namespace tessel::kernels {

namespace {

// Generic RNE to a binary format with `p` significand bits and normal exponents >= emin.
double roundBinary(double x, int p, int emin, double max_finite) {
  if (!std::isfinite(x) || x == 0.0) return x;
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  const int lsb = std::max(e - 1, emin) - (p - 1);
  const double r = std::ldexp(std::nearbyint(std::ldexp(x, -lsb)), lsb);
  if (std::fabs(r) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

// Same rounding on the bit pattern: add half an ulp of the target (minus one unless the kept
// lsb is odd: ties to even) and clear the dropped bits; carries move into the exponent.
double roundBinaryBits(double x, int p, int emin, double max_finite) {
  uint64_t u;
  std::memcpy(&u, &x, 8);
  const uint64_t sign = u & (uint64_t{1} << 63);
  uint64_t au = u & ~sign;
  if (au >= 0x7ff0000000000000ull || au == 0) return x;
  const int e = static_cast<int>(au >> 52) - 1023;
  const int shift = 52 - (p - 1) + (e < emin ? emin - e : 0);
  if (shift > 52) return roundBinary(x, p, emin, max_finite);  // below half the smallest step
  const uint64_t half = (uint64_t{1} << (shift - 1)) - 1 + ((au >> shift) & 1);
  au = (au + half) & ~((uint64_t{1} << shift) - 1);
  u = sign | au;
  double r;
  std::memcpy(&r, &u, 8);
  if (std::fabs(r) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

// The narrow codec of a narrow format; nullopt for FP32/FP16/BF16.
std::optional<NarrowFloat> narrowOf(FloatFormat f) {
  switch (f) {
    case FloatFormat::FP8_E4M3:
      return NarrowFloat::E4M3;
    case FloatFormat::FP8_E5M2:
      return NarrowFloat::E5M2;
    case FloatFormat::FP6_E3M2:
      return NarrowFloat::E3M2;
    case FloatFormat::FP6_E2M3:
      return NarrowFloat::E2M3;
    case FloatFormat::FP4_E2M1:
      return NarrowFloat::E2M1;
    default:
      return std::nullopt;
  }
}

// Plain float dtypes and their formats, in FloatFormat order.
constexpr DType kFormatDTypes[] = {DType::FP32,     DType::FP16,     DType::BF16,
                                   DType::FP8_E4M3, DType::FP8_E5M2, DType::FP6_E3M2,
                                   DType::FP6_E2M3, DType::FP4_E2M1};

}  // namespace

FloatFormat formatOf(DType t) {
  for (size_t i = 0; i < std::size(kFormatDTypes); ++i)
    if (kFormatDTypes[i] == t) return static_cast<FloatFormat>(i);
  if (isBlockScaled(t)) return FloatFormat::FP32;
  throw Error("formatOf: " + std::string(nameOf(t)) + " is not a float dtype");
}

DType dtypeOf(FloatFormat f) {
  const auto i = static_cast<size_t>(f);
  return i < std::size(kFormatDTypes) ? kFormatDTypes[i] : DType::FP32;
}

float maxFinite(FloatFormat f) {
  if (const auto n = narrowOf(f)) return specOf(*n).max_finite;
  if (f == FloatFormat::FP16) return 65504.0f;
  if (f == FloatFormat::BF16) return 0x1.fep127f;
  return std::numeric_limits<float>::max();
}

uint16_t floatToHalfBits(float f) {
  const uint32_t x = bitsOf(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
  // 65520 = 65504 + half an ulp: the tie rounds to even, i.e. up to infinity.
  if (ax >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (ax < 0x38800000u) {
    // Below 2^-14: adding 0.5 makes the FPU round |f| to a multiple of 2^-24 (RNE).
    const uint32_t m = bitsOf(floatOf(ax) + 0.5f) - 0x3f000000u;
    return static_cast<uint16_t>(sign | m);
  }
  // Rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest even.
  const uint32_t odd = (ax >> 13) & 1u;
  return static_cast<uint16_t>(sign | ((ax + 0xc8000fffu + odd) >> 13));
}

float halfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  const uint32_t m = h & 0x3ffu;
  if (e == 0x1f) return floatOf(sign | 0x7f800000u | (m << 13));
  if (e == 0) return floatOf(sign) + (sign ? -1.0f : 1.0f) * static_cast<float>(m) * 0x1p-24f;
  return floatOf(sign | ((e + 112u) << 23) | (m << 13));
}

uint16_t floatToBf16Bits(float f) {
  const uint32_t x = bitsOf(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  const uint32_t odd = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7fffu + odd) >> 16);
}

float bf16BitsToFloat(uint16_t b) { return floatOf(static_cast<uint32_t>(b) << 16); }

float roundTo(float x, FloatFormat fmt) {
  if (const auto n = narrowOf(fmt)) return roundTo(x, *n, Overflow::Saturate);
  if (fmt == FloatFormat::FP16) return halfBitsToFloat(floatToHalfBits(x));
  if (fmt == FloatFormat::BF16) return bf16BitsToFloat(floatToBf16Bits(x));
  return x;
}

float roundTo(double x, FloatFormat fmt) {
  if (const auto n = narrowOf(fmt)) return decode(*n, encodeExact(*n, x, Overflow::Saturate));
  if (fmt == FloatFormat::FP16) return static_cast<float>(roundBinaryBits(x, 11, -14, 65504.0));
  if (fmt == FloatFormat::BF16) return static_cast<float>(roundBinaryBits(x, 8, -126, 0x1.fep127));
  return static_cast<float>(x);
}

// Branch-free twins of roundTo(float) for whole arrays: selects only, so GCC vectorizes them.
// Same values as the bit conversions above (NaN payloads aside).
static inline float roundHalfValue(float f) {
  const uint32_t x = bitsOf(f), ax = x & 0x7fffffffu;
  const uint32_t odd = (ax >> 13) & 1u;
  const uint32_t normal = (ax + 0xfffu + odd) & ~0x1fffu;    // 11 significant bits, float exponent
  const uint32_t sub = bitsOf((floatOf(ax) + 0.5f) - 0.5f);  // a multiple of 2^-24, by the FPU
  uint32_t r = ax < 0x38800000u ? sub : normal;
  r = r > 0x477fe000u ? 0x7f800000u : r;          // beyond 65504: infinity
  r = ax > 0x7f800000u ? (ax | 0x00400000u) : r;  // NaN stays (quiet) NaN
  return floatOf(r | (x & 0x80000000u));
}

static inline float roundBf16Value(float f) {
  const uint32_t x = bitsOf(f);
  const uint32_t r = (x + 0x7fffu + ((x >> 16) & 1u)) & 0xffff0000u;
  return floatOf((x & 0x7fffffffu) > 0x7f800000u ? (x | 0x00400000u) : r);
}

namespace {

TESSEL_LOOP_BODY void roundHalfArrayBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] = roundHalfValue(x[i]);
}
TESSEL_HOT_LOOP(void, roundHalfArray, (float* x, int64_t n), (x, n))

TESSEL_LOOP_BODY void roundBf16ArrayBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] = roundBf16Value(x[i]);
}
TESSEL_HOT_LOOP(void, roundBf16Array, (float* x, int64_t n), (x, n))

}  // namespace

void roundInPlace(float* x, int64_t n, FloatFormat fmt) {
  if (fmt == FloatFormat::FP16) roundHalfArray(x, n);
  if (fmt == FloatFormat::BF16) roundBf16Array(x, n);
  if (const auto nf = narrowOf(fmt)) roundInPlace(x, n, *nf, Overflow::Saturate);
}

}  // namespace tessel::kernels
