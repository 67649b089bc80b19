// Naive double-precision references and seeded random data for the kernel tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/numeric/tensor.h"
#include "util/error.h"

namespace tessel::kernels::ref {

inline std::vector<float> randomFloats(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

inline std::vector<int8_t> randomInt8(size_t n, uint32_t seed, int lo = -128, int hi = 127) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

inline Tensor floatTensor(std::vector<int64_t> shape, float lo, float hi, uint32_t seed) {
  return Tensor::fromFloats(shape, randomFloats(static_cast<size_t>(numelOf(shape)), lo, hi, seed));
}

inline Tensor int8Tensor(std::vector<int64_t> shape, uint32_t seed, QuantParams q = {},
                         int lo = -128, int hi = 127) {
  return Tensor::fromInt8(shape, randomInt8(static_cast<size_t>(numelOf(shape)), seed, lo, hi),
                          std::move(q));
}

// C[m][n] = sum_k (A[m][k] - za) * (B[k][n] - zb), exact in int64.
inline std::vector<int64_t> gemmInt(const int8_t* a, const int8_t* b, int64_t m, int64_t n,
                                    int64_t k, int32_t za = 0, int32_t zb = 0) {
  std::vector<int64_t> c(static_cast<size_t>(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const int64_t av = a[i * k + p] - za;
      for (int64_t j = 0; j < n; ++j) c[static_cast<size_t>(i * n + j)] += av * (b[p * n + j] - zb);
    }
  return c;
}

inline std::vector<double> gemm(const float* a, const float* b, int64_t m, int64_t n, int64_t k) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        c[static_cast<size_t>(i * n + j)] += static_cast<double>(a[i * k + p]) * b[p * n + j];
  return c;
}

inline double geluErf(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
inline double geluTanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

inline std::vector<double> softmax(const std::vector<double>& x) {
  double m = -INFINITY, s = 0.0;
  for (double v : x) m = std::max(m, v);
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) s += (y[i] = std::exp(x[i] - m));
  for (double& v : y) v /= s;
  return y;
}

inline std::vector<double> layerNorm(const std::vector<double>& x, const float* gamma,
                                     const float* beta, double eps) {
  double mean = 0.0, var = 0.0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  for (double v : x) var += (v - mean) * (v - mean);
  var /= static_cast<double>(x.size());
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y[i] = (x[i] - mean) / std::sqrt(var + eps) * gamma[i] + beta[i];
  return y;
}

// Exact IEEE rounding of a double to p significand bits, normal exponents >= emin, ties to
// even, written independently of the library (frexp + nearbyint).
inline double roundFormat(double x, int p, int emin, double max_finite) {
  if (!std::isfinite(x) || x == 0.0) return x;
  int e = 0;
  std::frexp(x, &e);
  const int lsb = std::max(e - 1, emin) - (p - 1);
  const double r = std::ldexp(std::nearbyint(std::ldexp(x, -lsb)), lsb);
  return std::fabs(r) > max_finite ? std::copysign(INFINITY, x) : r;
}
inline double roundHalf(double x) { return roundFormat(x, 11, -14, 65504.0); }
inline double roundBf16(double x) { return roundFormat(x, 8, -126, 0x1.fep127); }

}  // namespace tessel::kernels::ref
