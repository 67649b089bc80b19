// Elementwise row kernels: one operation, one tight loop.
#include <algorithm>
#include <cmath>

#include "kernels/gemm/isa/dispatch.h"
#include "kernels/numeric/vec_math.h"
#include "kernels/rows/rows.h"

namespace tessel::kernels::detail {

TESSEL_LOOP_BODY void addVecBody(float* x, int64_t n, const float* v) {
  for (int64_t i = 0; i < n; ++i) x[i] += v[i];
}
TESSEL_HOT_LOOP(void, addVec, (float* x, int64_t n, const float* v), (x, n, v))

// Saturating: an int32 residual or bias add must not wrap around.
TESSEL_LOOP_BODY void addVecIntBody(int32_t* x, int64_t n, const int32_t* v) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = static_cast<int64_t>(x[i]) + v[i];
    x[i] = static_cast<int32_t>(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
  }
}
TESSEL_HOT_LOOP(void, addVecInt, (int32_t * x, int64_t n, const int32_t* v), (x, n, v))

TESSEL_LOOP_BODY void mulScalarBody(float* x, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) x[i] *= s;
}
TESSEL_HOT_LOOP(void, mulScalar, (float* x, int64_t n, float s), (x, n, s))

TESSEL_LOOP_BODY void mulVecBody(float* x, int64_t n, const float* s) {
  for (int64_t i = 0; i < n; ++i) x[i] *= s[i];
}
TESSEL_HOT_LOOP(void, mulVec, (float* x, int64_t n, const float* s), (x, n, s))

TESSEL_LOOP_BODY void reluBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
TESSEL_HOT_LOOP(void, relu, (float* x, int64_t n), (x, n))

TESSEL_LOOP_BODY void reluIntBody(int32_t* x, int64_t n, int32_t zero) {
  for (int64_t i = 0; i < n; ++i) x[i] = std::max(x[i], zero);
}
TESSEL_HOT_LOOP(void, reluInt, (int32_t * x, int64_t n, int32_t zero), (x, n, zero))

TESSEL_LOOP_BODY void reluInt8Body(int8_t* x, int64_t n, int8_t zero) {
  for (int64_t i = 0; i < n; ++i) x[i] = std::max(x[i], zero);
}
TESSEL_HOT_LOOP(void, reluInt8, (int8_t * x, int64_t n, int8_t zero), (x, n, zero))

void roundRow(float* x, int64_t n, FloatFormat fmt) { roundInPlace(x, n, fmt); }

// GELU(x) = x/2 * (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), as in GPT-2; evaluated as
// x / (1 + e^{-2u}), the same function with one exp and one division.
TESSEL_LOOP_BODY void geluTanhBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float u2 = -1.5957691216057308f * (v + 0.044715f * v * v * v);
    x[i] = v / (1.0f + expFast(u2));
  }
}
TESSEL_HOT_LOOP(void, geluTanh, (float* x, int64_t n), (x, n))

// GELU(x) = x/2 * (1 + erf(x / sqrt(2))), as in BERT.
TESSEL_LOOP_BODY void geluErfBody(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    x[i] = 0.5f * v * (1.0f + erfFast(v * 0.7071067811865476f));
  }
}
TESSEL_HOT_LOOP(void, geluErf, (float* x, int64_t n), (x, n))

}  // namespace tessel::kernels::detail
