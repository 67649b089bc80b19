#include "kernels/numeric/block_round.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "kernels/numeric/float_format.h"
#include "kernels/numeric/mx_block.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

std::optional<MxElement> mxElementOf(DType e) {
  switch (e) {
    case DType::FP8_E4M3:
      return MxElement::FP8_E4M3;
    case DType::FP8_E5M2:
      return MxElement::FP8_E5M2;
    case DType::FP6_E3M2:
      return MxElement::FP6_E3M2;
    case DType::FP6_E2M3:
      return MxElement::FP6_E2M3;
    case DType::FP4_E2M1:
      return MxElement::FP4_E2M1;
    case DType::Int8:
      return MxElement::INT8;
    default:
      return std::nullopt;
  }
}

// An element type's integer range (integers) or largest finite value and format (floats).
struct Element {
  bool integer = false;
  double lo = 0.0, hi = 0.0;  // integers: the code range; floats: -max, max
  int emax = 0;               // exponent of the largest power of two in range
  FloatFormat format = FloatFormat::FP32;
};

Element elementOf(DType e) {
  Element el;
  if (isInteger(e)) {
    const int bits = elementBits(e);
    el.integer = true;
    el.lo = e == DType::UInt4 ? 0.0 : -std::ldexp(1.0, bits - 1);
    el.hi = e == DType::UInt4 ? 15.0 : std::ldexp(1.0, bits - 1) - 1.0;
    el.emax = e == DType::UInt4 ? bits - 1 : bits - 2;
    return el;
  }
  el.format = formatOf(e);
  const double max = maxFinite(el.format);
  el.lo = -max;
  el.hi = max;
  el.emax = std::ilogb(max);
  return el;
}

double roundElement(double v, const Element& el) {
  const double r = el.integer ? std::nearbyint(v) : roundTo(v, el.format);
  return std::clamp(r, el.lo, el.hi);
}

// amax / element max rounded to the scale dtype; an overflowing scale saturates to its max.
double roundedScale(double amax, const Element& el, DType scale) {
  const Element s = elementOf(scale);
  const double v = amax / el.hi;
  return std::min(static_cast<double>(roundTo(v, s.format)), s.hi);
}

void roundBlock(float* x, int64_t n, const Element& el, DType scale_type) {
  double amax = 0.0;
  for (int64_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs(static_cast<double>(x[i])));
  if (!std::isfinite(amax)) {  // an infinity (NaN blocks never get here)
    std::fill(x, x + n, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  if (amax == 0.0) return;
  const double scale = scale_type == DType::E8M0
                           ? std::ldexp(1.0, std::clamp(std::ilogb(amax) - el.emax, -127, 127))
                           : roundedScale(amax, el, scale_type);
  for (int64_t i = 0; i < n; ++i)
    x[i] = scale > 0.0 ? static_cast<float>(roundElement(x[i] / scale, el) * scale)
                       : std::copysign(0.0f, x[i]);
}

bool hasNaN(const float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (std::isnan(x[i])) return true;
  return false;
}

}  // namespace

void roundBlocks(float* x, int64_t n, const BlockScaling& s) {
  if (s.block <= 0) throw Error("roundBlocks: block must be positive");
  const std::optional<MxElement> mx = mxElementOf(s.element);
  if (s.scale == DType::E8M0 && s.block == kMxBlock && mx) return roundRowMx(x, n, *mx);
  const Element el = elementOf(s.element);
  for (int64_t start = 0; start < n; start += s.block) {
    const int64_t len = std::min<int64_t>(s.block, n - start);
    if (hasNaN(x + start, len))
      std::fill(x + start, x + start + len, std::numeric_limits<float>::quiet_NaN());
    else
      roundBlock(x + start, len, el, s.scale);
  }
}

void roundRows(float* x, int64_t rows, int64_t cols, DType t) {
  if (const std::optional<BlockScaling> s = blockScalingOf(t)) {
    for (int64_t r = 0; r < rows; ++r) roundBlocks(x + r * cols, cols, *s);
    return;
  }
  if (isInteger(t))
    throw Error("roundRows: " + std::string(nameOf(t)) + " is an integer dtype, not a float");
  roundInPlace(x, rows * cols, formatOf(t));
}

}  // namespace tessel::kernels
