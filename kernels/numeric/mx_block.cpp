#include "kernels/numeric/mx_block.h"

#include <algorithm>
#include <cmath>
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
  for (int64_t start = 0; start < n; start += kMxBlock) {
    const int len = static_cast<int>(std::min<int64_t>(kMxBlock, n - start));
    decodeBlock(e, encodeBlock(e, x + start, len), x + start);
  }
}

}  // namespace tessel::kernels
