// Branch-free float math the compiler can vectorize (kernels-internal). Accuracy is stated per
// function and checked in tests/kernels/test_elementwise.cpp.
#pragma once

#include <cstdint>
#include <cstring>

namespace tessel::kernels::detail {

// Round to nearest even for |x| < 2^22: adding 1.5*2^23 pushes the fraction out of the mantissa.
inline float rintFast(float x) {
  const float magic = 12582912.0f;
  return (x + magic) - magic;
}

inline float clampf(float x, float lo, float hi) {
  x = x > lo ? x : lo;  // NaN -> lo
  return x < hi ? x : hi;
}

// e^x, relative error < 2e-7 on [-87, 88]; 0 below (incl. -inf), e^88 above (never inf).
inline float expFast(float x_in) {
  const float x = clampf(x_in, -87.0f, 88.0f);
  const float n = rintFast(x * 1.44269504088896341f);
  const float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;  // two-part ln2: exact n*ln2_hi
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t e = (static_cast<int32_t>(n) + 127) << 23;
  float two_n;
  std::memcpy(&two_n, &e, 4);
  return x_in < -87.0f ? 0.0f : p * two_n;
}

// tanh(x) = 1 - 2 / (e^{2x} + 1); absolute error < 3e-7.
inline float tanhFast(float x) { return 1.0f - 2.0f / (expFast(2.0f * x) + 1.0f); }

// erf(x), Abramowitz & Stegun 7.1.26 (1.5e-7): absolute error < 6e-7 in float, the rest being
// cancellation in 1 - p t e^{-x^2} near 0.
inline float erfFast(float x) {
  const float ax = x < 0.0f ? -x : x;
  const float t = 1.0f / (1.0f + 0.3275911f * ax);
  float p = 1.061405429f;
  p = p * t - 1.453152027f;
  p = p * t + 1.421413741f;
  p = p * t - 0.284496736f;
  p = p * t + 0.254829592f;
  const float y = 1.0f - p * t * expFast(-ax * ax);
  return x < 0.0f ? -y : y;
}

// Sum with eight interleaved partial sums: vectorizable, and the same order on every ISA.
inline float sum8(const float* x, int64_t n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) acc[j] += x[i + j];
  for (; i < n; ++i) acc[i & 7] += x[i];
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

}  // namespace tessel::kernels::detail
