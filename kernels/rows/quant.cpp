// Conversion row kernels: quantize and dequantize. Saturation is counted per row.
#include "kernels/gemm/isa/dispatch.h"
#include "kernels/numeric/vec_math.h"
#include "kernels/rows/rows.h"

namespace tessel::kernels::detail {

TESSEL_LOOP_BODY void quantizeRowBody(const float* x, int8_t* q, int64_t n, float scale, int32_t zp,
                                      int32_t qmin, int32_t qmax, SaturationStats& sat) {
  const auto lo = static_cast<float>(qmin - zp);
  const auto hi = static_cast<float>(qmax - zp);
  int64_t low = 0, high = 0;
  for (int64_t i = 0; i < n; ++i) {
    // Clamp to one step outside the range first so rounding stays exact and NaN counts as low.
    const float r = rintFast(clampf(x[i] / scale, lo - 1.0f, hi + 1.0f));
    low += r < lo;
    high += r > hi;
    q[i] = static_cast<int8_t>(static_cast<int32_t>(clampf(r, lo, hi)) + zp);
  }
  sat.total += n;
  sat.low += low;
  sat.high += high;
}
TESSEL_HOT_LOOP(void, quantizeRow,
                (const float* x, int8_t* q, int64_t n, float scale, int32_t zp, int32_t qmin,
                 int32_t qmax, SaturationStats& sat),
                (x, q, n, scale, zp, qmin, qmax, sat))

TESSEL_LOOP_BODY void quantizeRowPerColBody(const float* x, int8_t* q, int64_t n,
                                            const float* scale, const int32_t* zp, int32_t qmin,
                                            int32_t qmax, SaturationStats& sat) {
  int64_t low = 0, high = 0;
  for (int64_t i = 0; i < n; ++i) {
    const auto lo = static_cast<float>(qmin - zp[i]);
    const auto hi = static_cast<float>(qmax - zp[i]);
    const float r = rintFast(clampf(x[i] / scale[i], lo - 1.0f, hi + 1.0f));
    low += r < lo;
    high += r > hi;
    q[i] = static_cast<int8_t>(static_cast<int32_t>(clampf(r, lo, hi)) + zp[i]);
  }
  sat.total += n;
  sat.low += low;
  sat.high += high;
}
TESSEL_HOT_LOOP(void, quantizeRowPerCol,
                (const float* x, int8_t* q, int64_t n, const float* scale, const int32_t* zp,
                 int32_t qmin, int32_t qmax, SaturationStats& sat),
                (x, q, n, scale, zp, qmin, qmax, sat))

TESSEL_LOOP_BODY void dequantizeRowBody(const int32_t* q, float* x, int64_t n, float scale,
                                        int32_t zp) {
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(q[i] - zp) * scale;
}
TESSEL_HOT_LOOP(void, dequantizeRow,
                (const int32_t* q, float* x, int64_t n, float scale, int32_t zp),
                (q, x, n, scale, zp))

TESSEL_LOOP_BODY void dequantizeRowPerColBody(const int32_t* q, float* x, int64_t n,
                                              const float* scale, const int32_t* zp) {
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(q[i] - zp[i]) * scale[i];
}
TESSEL_HOT_LOOP(void, dequantizeRowPerCol,
                (const int32_t* q, float* x, int64_t n, const float* scale, const int32_t* zp),
                (q, x, n, scale, zp))

TESSEL_LOOP_BODY void dequantizeRow8Body(const int8_t* q, float* x, int64_t n, float scale,
                                         int32_t zp) {
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(q[i] - zp) * scale;
}
TESSEL_HOT_LOOP(void, dequantizeRow8,
                (const int8_t* q, float* x, int64_t n, float scale, int32_t zp),
                (q, x, n, scale, zp))

TESSEL_LOOP_BODY void dequantizeRow8PerColBody(const int8_t* q, float* x, int64_t n,
                                               const float* scale, const int32_t* zp) {
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(q[i] - zp[i]) * scale[i];
}
TESSEL_HOT_LOOP(void, dequantizeRow8PerCol,
                (const int8_t* q, float* x, int64_t n, const float* scale, const int32_t* zp),
                (q, x, n, scale, zp))

}  // namespace tessel::kernels::detail
