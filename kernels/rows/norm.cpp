// Row-wise normalizations: softmax and layer norm over the last dimension.
#include <cmath>
#include <limits>

#include "kernels/gemm/isa/dispatch.h"
#include "kernels/numeric/vec_math.h"
#include "kernels/rows/rows.h"

namespace tessel::kernels::detail {

static float rowMax(const float* x, int64_t n) {
  float m[8];
  for (float& v : m) v = -std::numeric_limits<float>::infinity();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) m[j] = x[i + j] > m[j] ? x[i + j] : m[j];
  for (; i < n; ++i) m[i & 7] = x[i] > m[i & 7] ? x[i] : m[i & 7];
  float r = m[0];
  for (float v : m) r = v > r ? v : r;
  return r;
}

// Stable softmax: exp(x - max) / sum. Masked (-inf) entries become exactly 0.
TESSEL_LOOP_BODY void softmaxRowBody(float* x, int64_t n) {
  const float m = rowMax(x, n);
  for (int64_t i = 0; i < n; ++i) x[i] = expFast(x[i] - m);
  const float inv = 1.0f / sum8(x, n);
  for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}
TESSEL_HOT_LOOP(void, softmaxRow, (float* x, int64_t n), (x, n))

// y = (x - mean) / sqrt(var + eps) * gamma + beta; two-pass variance for accuracy.
TESSEL_LOOP_BODY void layerNormRowBody(float* x, int64_t n, const float* gamma, const float* beta,
                                       float eps) {
  const float mean = sum8(x, n) / static_cast<float>(n);
  for (int64_t i = 0; i < n; ++i) x[i] -= mean;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) acc[j] += x[i + j] * x[i + j];
  for (; i < n; ++i) acc[i & 7] += x[i] * x[i];
  const float var =
      (((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))) /
      static_cast<float>(n);
  const float inv = 1.0f / std::sqrt(var + eps);
  if (gamma && beta) {
    for (int64_t k = 0; k < n; ++k) x[k] = x[k] * inv * gamma[k] + beta[k];
  } else {
    for (int64_t k = 0; k < n; ++k) x[k] *= inv;
  }
}
TESSEL_HOT_LOOP(void, layerNormRow,
                (float* x, int64_t n, const float* gamma, const float* beta, float eps),
                (x, n, gamma, beta, eps))

}  // namespace tessel::kernels::detail
