#include "kernels/numeric/portable_math.h"
#include "kernels/weights/weights.h"

#include <cmath>

#include "util/error.h"

namespace tessel::kernels {

namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finalizer: a bijection with full avalanche
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in (0, 1), never 0 or 1: the normal quantile below stays finite.
double uniformAt(uint64_t key, uint64_t i) {
  return (static_cast<double>(mix(key ^ mix(i)) >> 11) + 0.5) * 0x1p-53;
}

// Inverse normal CDF (Acklam's rational approximation, relative error < 1.2e-9): one uniform per
// value, and no transcendental function outside the 5% tails.
double normalQuantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  if (p < kLow || p > 1.0 - kLow) {
    const double q = std::sqrt(-2.0 * portable::log(p < kLow ? p : 1.0 - p));
    const double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                     ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    return p < kLow ? x : -x;
  }
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

}  // namespace

uint64_t tensorKey(uint64_t seed, std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, then mixed with the seed
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return mix(h ^ mix(seed));
}

void fillNormal(uint64_t key, double mean, double stddev, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = static_cast<float>(mean +
                                stddev * normalQuantile(uniformAt(key, static_cast<uint64_t>(i))));
}

void fillUniformInt(uint64_t key, int32_t lo, int32_t hi, int32_t* out, int64_t n) {
  if (hi <= lo) throw Error("fillUniformInt: empty range");
  const auto span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo);
  for (int64_t i = 0; i < n; ++i)
    out[i] = static_cast<int32_t>(
        lo + static_cast<int64_t>(mix(key ^ mix(static_cast<uint64_t>(i))) % span));
}

Tensor SyntheticData::generate(const models::Graph& g, int id) const {
  const models::Tensor& t = g.tensor(id);
  const Recipe r = recipe(g, id);
  const uint64_t key = tensorKey(seed_, t.name);
  if (r.kind == Recipe::Kind::Normal) {
    Tensor out(t.shape, DType::FP32);
    fillNormal(key, r.mean, r.stddev, out.f32(), out.numel());
    return out;
  }
  std::vector<int32_t> v(static_cast<size_t>(t.elements()));
  if (r.kind == Recipe::Kind::Positions) {
    const int64_t s = t.shape.at(1);
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<int32_t>(r.offset + static_cast<int64_t>(i) % s);
  } else {
    fillUniformInt(key, 0, static_cast<int32_t>(r.rows), v.data(), static_cast<int64_t>(v.size()));
  }
  return Tensor::fromInt32(t.shape, std::move(v));
}

}  // namespace tessel::kernels
