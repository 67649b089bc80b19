// Row kernels (kernels-internal): one tight loop per operation over a contiguous span of n
// values. The standalone ops run them over whole tensors; fused chains run them over one
// cache-sized block, so fused and unfused results come from the very same code.
// Per-column parameters are passed already offset to the span's first column.
#pragma once

#include <cstdint>

#include "kernels/numeric/float_format.h"
#include "kernels/numeric/requantize.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels::detail {

// Arithmetic (arith.cpp).
void addVec(float* x, int64_t n, const float* v);         // x += v (bias or residual row)
void addVecInt(int32_t* x, int64_t n, const int32_t* v);  // saturating
void mulScalar(float* x, int64_t n, float s);
void mulVec(float* x, int64_t n, const float* s);
void relu(float* x, int64_t n);
void reluInt(int32_t* x, int64_t n, int32_t zero);
void reluInt8(int8_t* x, int64_t n, int8_t zero);
void roundRow(float* x, int64_t n, FloatFormat fmt);
void geluTanh(float* x, int64_t n);
void geluErf(float* x, int64_t n);

// Activations and RMSNorm of today's decoders (activation.cpp).
void sigmoidRow(float* x, int64_t n);
void siluRow(float* x, int64_t n);
void hardSwishRow(float* x, int64_t n);
void rmsNormRow(float* x, int64_t n, const float* gamma, float eps);

// Conversions (quant.cpp). *PerCol variants take one scale / zero point per column.
void quantizeRow(const float* x, int8_t* q, int64_t n, float scale, int32_t zp, int32_t qmin,
                 int32_t qmax, SaturationStats& sat);
void quantizeRowPerCol(const float* x, int8_t* q, int64_t n, const float* scale, const int32_t* zp,
                       int32_t qmin, int32_t qmax, SaturationStats& sat);
void dequantizeRow(const int32_t* q, float* x, int64_t n, float scale, int32_t zp);
void dequantizeRowPerCol(const int32_t* q, float* x, int64_t n, const float* scale,
                         const int32_t* zp);
void dequantizeRow8(const int8_t* q, float* x, int64_t n, float scale, int32_t zp);
void dequantizeRow8PerCol(const int8_t* q, float* x, int64_t n, const float* scale,
                          const int32_t* zp);
void requantizeRow(const int32_t* acc, int8_t* q, int64_t n, FixedPointMultiplier m, int32_t zp,
                   int32_t qmin, int32_t qmax, SaturationStats& sat);
void requantizeRowPerCol(const int32_t* acc, int8_t* q, int64_t n, const FixedPointMultiplier* m,
                         int32_t zp, int32_t qmin, int32_t qmax, SaturationStats& sat);

// Row-wise normalizations over the whole row (norm.cpp).
void softmaxRow(float* x, int64_t n);
void layerNormRow(float* x, int64_t n, const float* gamma, const float* beta, float eps);

}  // namespace tessel::kernels::detail
