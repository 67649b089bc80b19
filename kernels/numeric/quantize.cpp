#include "kernels/numeric/quantize.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

QuantParams paramsForRange(float lo, float hi, QuantScheme scheme, int bits) {
  if (bits < 2 || bits > 8) throw Error("paramsForRange: bits must be in [2, 8]");
  if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi))
    throw Error("paramsForRange: invalid range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                "]");
  const int32_t top = (1 << (bits - 1)) - 1;
  if (scheme == QuantScheme::Symmetric) {
    const float amax = std::max(std::fabs(lo), std::fabs(hi));
    // An all-zero range still needs a usable scale: every value quantizes to 0.
    return QuantParams::perTensor(amax > 0.0f ? amax / static_cast<float>(top) : 1.0f, 0, -top,
                                  top);
  }
  lo = std::min(lo, 0.0f);
  hi = std::max(hi, 0.0f);
  const int32_t qmin = -top - 1;
  const float scale = hi > lo ? (hi - lo) / static_cast<float>(top - qmin) : 1.0f;
  const auto zp = static_cast<int32_t>(std::nearbyint(static_cast<float>(qmin) - lo / scale));
  return QuantParams::perTensor(scale, std::clamp(zp, qmin, top), qmin, top);
}

AxisSplit splitAt(const std::vector<int64_t>& shape, int axis) {
  const int r = static_cast<int>(shape.size());
  const int a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) throw Error("channel axis " + std::to_string(axis) + " out of range");
  AxisSplit s;
  for (int i = 0; i < r; ++i) {
    if (i < a) s.outer *= shape[static_cast<size_t>(i)];
    if (i > a) s.inner *= shape[static_cast<size_t>(i)];
  }
  s.channels = shape[static_cast<size_t>(a)];
  return s;
}

static void checkParams(const QuantParams& q, int64_t channels) {
  if (q.scale.empty() || q.zero_point.empty()) throw Error("QuantParams: empty scale/zero point");
  const bool ok_zp = q.zero_point.size() == 1 || q.zero_point.size() == q.scale.size();
  if (!ok_zp) throw Error("QuantParams: zero points do not match scales");
  if (q.perChannel() && static_cast<int64_t>(q.scale.size()) != channels)
    throw Error("QuantParams: " + std::to_string(q.scale.size()) + " scales for " +
                std::to_string(channels) + " channels");
  for (float s : q.scale)
    if (!(s > 0.0f) || !std::isfinite(s)) throw Error("QuantParams: scales must be > 0");
}

Tensor quantize(const Tensor& x, const QuantParams& q) {
  const AxisSplit s = q.perChannel() ? splitAt(x.shape(), q.axis) : AxisSplit{1, 1, x.numel()};
  checkParams(q, s.channels);
  if (q.qmin < -128 || q.qmax > 127 || q.qmin >= q.qmax)
    throw Error("quantize: int8 tensors need -128 <= qmin < qmax <= 127");
  Tensor out = Tensor::uninitialized(x.shape(), DType::Int8);
  out.quant = q;
  const float* in = x.f32();
  int8_t* o = out.i8();
  if (s.inner == 1 && q.perChannel()) {
    // Channels are the last axis: per-column parameters, one row at a time.
    std::vector<int32_t> zp(static_cast<size_t>(s.channels));
    for (int64_t c = 0; c < s.channels; ++c) zp[static_cast<size_t>(c)] = q.zeroPointAt(c);
    for (int64_t r = 0; r < s.outer; ++r)
      detail::quantizeRowPerCol(in + r * s.channels, o + r * s.channels, s.channels, q.scale.data(),
                                zp.data(), q.qmin, q.qmax, out.saturation);
    return out;
  }
  for (int64_t r = 0; r < s.outer; ++r)
    for (int64_t c = 0; c < s.channels; ++c) {
      const int64_t off = (r * s.channels + c) * s.inner;
      detail::quantizeRow(in + off, o + off, s.inner, q.scaleAt(c), q.zeroPointAt(c), q.qmin,
                          q.qmax, out.saturation);
    }
  return out;
}

Tensor dequantize(const Tensor& q) {
  if (q.dtype() != DType::Int8 && q.dtype() != DType::Int32)
    throw Error("dequantize: needs an int8 or int32 tensor");
  const QuantParams& p = q.quant;
  const AxisSplit s = p.perChannel() ? splitAt(q.shape(), p.axis) : AxisSplit{1, 1, q.numel()};
  checkParams(p, s.channels);
  Tensor out = Tensor::uninitialized(q.shape(), DType::FP32);
  float* o = out.f32();
  for (int64_t r = 0; r < s.outer; ++r)
    for (int64_t c = 0; c < s.channels; ++c) {
      const int64_t off = (r * s.channels + c) * s.inner;
      if (q.dtype() == DType::Int8)
        detail::dequantizeRow8(q.i8() + off, o + off, s.inner, p.scaleAt(c), p.zeroPointAt(c));
      else
        detail::dequantizeRow(q.i32() + off, o + off, s.inner, p.scaleAt(c), p.zeroPointAt(c));
    }
  return out;
}

}  // namespace tessel::kernels
