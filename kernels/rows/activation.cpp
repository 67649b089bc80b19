// Row kernels of today's decoder activations and RMSNorm: one operation, one tight loop.
#include <cmath>

#include "kernels/gemm/isa/dispatch.h"
#include "kernels/numeric/vec_math.h"
#include "kernels/rows/rows.h"

namespace tessel::kernels::detail {

// sigmoid(x) = 1 / (1 + e^-x); expFast saturates instead of overflowing, so no NaN at +-inf.
TESSEL_LOOP_BODY void sigmoidRowBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] = 1.0f / (1.0f + expFast(-x[i]));
}
TESSEL_HOT_LOOP(void, sigmoidRow, (float* x, int64_t n), (x, n))

TESSEL_LOOP_BODY void siluRowBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] = x[i] / (1.0f + expFast(-x[i]));
}
TESSEL_HOT_LOOP(void, siluRow, (float* x, int64_t n), (x, n))

// x * relu6(x + 3) / 6 (MobileNetV3).
TESSEL_LOOP_BODY void hardSwishRowBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] = x[i] * clampf(x[i] + 3.0f, 0.0f, 6.0f) / 6.0f;
}
TESSEL_HOT_LOOP(void, hardSwishRow, (float* x, int64_t n), (x, n))

// y = x / sqrt(mean(x^2) + eps) * gamma (Llama's RMSNorm; no mean subtraction, no beta).
TESSEL_LOOP_BODY void rmsNormRowBody(float* x, int64_t n, const float* gamma, float eps) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) acc[j] += x[i + j] * x[i + j];
  for (; i < n; ++i) acc[i & 7] += x[i] * x[i];
  const float ms =
      (((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))) /
      static_cast<float>(n);
  const float inv = 1.0f / std::sqrt(ms + eps);
  for (int64_t k = 0; k < n; ++k) x[k] = x[k] * inv * gamma[k];
}
TESSEL_HOT_LOOP(void, rmsNormRow, (float* x, int64_t n, const float* gamma, float eps),
                (x, n, gamma, eps))

}  // namespace tessel::kernels::detail
