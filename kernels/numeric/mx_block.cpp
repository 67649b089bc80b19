#include "kernels/numeric/mx_block.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "kernels/numeric/narrow_format.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

constexpr int kScaleNaN = 0xff;
constexpr int kScaleBias = 127;

NarrowFloat narrowOf(MxElement e) {
  switch (e) {
    case MxElement::FP8_E4M3:
      return NarrowFloat::E4M3;
    case MxElement::FP8_E5M2:
      return NarrowFloat::E5M2;
    case MxElement::FP6_E3M2:
      return NarrowFloat::E3M2;
    case MxElement::FP6_E2M3:
      return NarrowFloat::E2M3;
    case MxElement::FP4_E2M1:
    case MxElement::INT8:
      break;
  }
  return NarrowFloat::E2M1;
}

// MXINT8 element: round(v x 64) to nearest even, saturated to the int8 range [-128, 127].
uint8_t encodeInt8Element(double v) {
  const double q = std::clamp(std::nearbyint(v * 64.0), -128.0, 127.0);
  return static_cast<uint8_t>(static_cast<int8_t>(q));
}

// Element of v = x / 2^shared_exp.
uint8_t encodeElement(MxElement e, double v) {
  if (e == MxElement::INT8) return encodeInt8Element(v);
  return encodeExact(narrowOf(e), v, Overflow::Saturate);
}

float elementValue(MxElement e, uint8_t code) {
  if (e == MxElement::INT8) return static_cast<float>(static_cast<int8_t>(code)) / 64.0f;
  return decode(narrowOf(e), code);
}

// floor(log2(max |x_i|)) - emax_elem clamped to [-127, 127]; NaN (0xFF) for a NaN or inf.
uint8_t sharedScale(MxElement e, const float* x, int n) {
  float max_abs = 0.0f;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return kScaleNaN;
    max_abs = std::max(max_abs, std::fabs(x[i]));
  }
  if (max_abs == 0.0f) return 0;
  const int shared = std::clamp(std::ilogb(max_abs) - elementEmax(e), -kScaleBias, kScaleBias);
  return static_cast<uint8_t>(shared + kScaleBias);
}

// 2^e for e in [-149, 127], built from its bits (below -126 a subnormal; all exact).
float pow2(int e) {
  const uint32_t u = e >= -126 ? static_cast<uint32_t>(e + 127) << 23 : 1u << (e + 149);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// sharedScale()'s exponent from the bits, or kScaleNaN with a NaN or inf (all ones exponent).
// floor(log2 |x|) of a normal float is its unbiased exponent; a zero or subnormal maximum (field
// 0) has floor(log2) <= -127, so it clamps to -127 as field 0 - 127 - emax does. Never above 127.
int sharedExponent(const float* x, int n, int emax) {
  uint32_t max_abs = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, x + i, 4);
    max_abs = std::max(max_abs, u & 0x7fffffffu);
  }
  if (max_abs >= 0x7f800000u) return kScaleNaN;
  return std::max(static_cast<int>(max_abs >> 23) - kScaleBias - emax, -kScaleBias);
}

// decodeBlock(encodeBlock(x)) for a finite block: the same float ops on the same values. x times
// 2^-shared is exact in float unless it falls below 2^-126, and there every element rounds to a
// zero of the same sign either way (half the smallest step of any element is >= 2^-17).
void roundFloatBlock(const NarrowRounder& r, float* x, int n, float down, float up) {
  for (int i = 0; i < n; ++i) x[i] = r.round(x[i] * down) * up;
}

// MXINT8: round(v x 64) to nearest even by adding and subtracting 1.5 x 2^23 (|v x 64| < 2^8),
// which also gives +0 for every zero, as the two's complement code does.
void roundInt8Block(float* x, int n, float down, float up) {
  constexpr float kMagic = 0x1.8p23f;
  for (int i = 0; i < n; ++i) {
    const float q = ((x[i] * down) * 64.0f + kMagic) - kMagic;
    x[i] = (std::min(std::max(q, -128.0f), 127.0f) * 0.015625f) * up;
  }
}

// decodeBlock(encodeBlock(e, x, n)) in place.
inline void roundBlock(const NarrowRounder& r, MxElement e, int emax, float* x, int n) {
  const int shared = sharedExponent(x, n, emax);
  if (shared == kScaleNaN) {
    std::fill(x, x + n, std::numeric_limits<float>::quiet_NaN());  // 0 x NaN scale
  } else if (e == MxElement::INT8) {
    roundInt8Block(x, n, pow2(-shared), pow2(shared));
  } else {
    roundFloatBlock(r, x, n, pow2(-shared), pow2(shared));
  }
}

}  // namespace

int elementBits(MxElement e) {
  if (e == MxElement::INT8) return 8;
  return specOf(narrowOf(e)).bits;
}

int elementEmax(MxElement e) {
  if (e == MxElement::INT8) return 0;  // largest value 127/64 < 2^1
  return specOf(narrowOf(e)).emax;
}

float decodeScale(uint8_t e8m0) {
  if (e8m0 == kScaleNaN) return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, e8m0 - kScaleBias);
}

MxBlock encodeBlock(MxElement e, const float* x, int n) {
  if (n < 0 || n > kMxBlock)
    throw Error("encodeBlock: " + std::to_string(n) + " elements, a block holds 0 to 32");
  MxBlock b;
  b.n = n;
  b.scale = sharedScale(e, x, n);
  if (b.scale == kScaleNaN) return b;
  // x / 2^shared_exp as x times a power of two: exact in double (every float times a power of
  // two in [2^-127, 2^127] is a double).
  const double inv_scale = std::ldexp(1.0, kScaleBias - b.scale);
  for (int i = 0; i < n; ++i) {
    b.codes[static_cast<size_t>(i)] = encodeElement(e, static_cast<double>(x[i]) * inv_scale);
  }
  return b;
}

void decodeBlock(MxElement e, const MxBlock& b, float* out) {
  if (b.n < 0 || b.n > kMxBlock)
    throw Error("decodeBlock: " + std::to_string(b.n) + " elements, a block holds 0 to 32");
  // Exact in float: element values are short binary fractions and the product is at least
  // 2^-143 (E5M2's smallest subnormal times 2^-127), above FP32's smallest subnormal.
  const float scale = decodeScale(b.scale);
  for (int i = 0; i < b.n; ++i) out[i] = elementValue(e, b.codes[static_cast<size_t>(i)]) * scale;
}

void roundRowMx(float* x, int64_t n, MxElement e) {
  const int emax = elementEmax(e);
  const NarrowRounder r = rounderOf(narrowOf(e));  // a local copy: x cannot alias it
  int64_t start = 0;
  // Full blocks apart: with the length a constant, GCC unrolls the block's loops.
  for (; start + kMxBlock <= n; start += kMxBlock) roundBlock(r, e, emax, x + start, kMxBlock);
  if (start < n) roundBlock(r, e, emax, x + start, static_cast<int>(n - start));
}

}  // namespace tessel::kernels
