#include "kernels/numeric/calibrate.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "util/error.h"

namespace tessel::kernels {

Range minMaxRange(const float* x, int64_t n) {
  Range r;
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) continue;
    r.lo = any ? std::min(r.lo, x[i]) : x[i];
    r.hi = any ? std::max(r.hi, x[i]) : x[i];
    any = true;
  }
  return r;
}

// Nearest-rank percentile (p in [0, 100]) of v; reorders v.
static float nearestRank(std::vector<float>& v, double p) {
  if (v.empty()) return 0.0f;
  auto k = static_cast<int64_t>(std::ceil(p / 100.0 * static_cast<double>(v.size()))) - 1;
  k = std::clamp<int64_t>(k, 0, static_cast<int64_t>(v.size()) - 1);
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[static_cast<size_t>(k)];
}

Range percentileRange(const float* x, int64_t n, double percentile, QuantScheme scheme) {
  if (!(percentile > 50.0 && percentile <= 100.0))
    throw Error("percentileRange: percentile must be in (50, 100]");
  std::vector<float> v;
  v.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    if (!std::isnan(x[i])) v.push_back(scheme == QuantScheme::Symmetric ? std::fabs(x[i]) : x[i]);
  if (scheme == QuantScheme::Symmetric) {
    const float t = nearestRank(v, percentile);
    return {-t, t};
  }
  const float hi = nearestRank(v, percentile);
  return {nearestRank(v, 100.0 - percentile), hi};
}

static Range rangeOf(const float* x, int64_t n, const Calibration& c) {
  return c.method == CalibrationMethod::MinMax ? minMaxRange(x, n)
                                               : percentileRange(x, n, c.percentile, c.scheme);
}

QuantParams calibrate(const Tensor& x, const Calibration& c) {
  const float* data = x.f32();
  if (!c.per_channel) {
    const Range r = rangeOf(data, x.numel(), c);
    return paramsForRange(r.lo, r.hi, c.scheme, c.bits);
  }
  const AxisSplit s = splitAt(x.shape(), c.axis);
  QuantParams q;
  q.axis = c.axis;
  q.scale.clear();
  q.zero_point.clear();
  std::vector<float> channel(static_cast<size_t>(s.outer * s.inner));
  for (int64_t ch = 0; ch < s.channels; ++ch) {
    for (int64_t o = 0; o < s.outer; ++o)
      std::copy_n(data + (o * s.channels + ch) * s.inner, s.inner, channel.begin() + o * s.inner);
    const Range r = rangeOf(channel.data(), static_cast<int64_t>(channel.size()), c);
    const QuantParams p = paramsForRange(r.lo, r.hi, c.scheme, c.bits);
    q.scale.push_back(p.scale[0]);
    q.zero_point.push_back(p.zero_point[0]);
    q.qmin = p.qmin;
    q.qmax = p.qmax;
  }
  return q;
}

}  // namespace tessel::kernels
