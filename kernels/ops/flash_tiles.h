// The small products inside one FlashAttention block (kernels-internal): C += A·B on tiles of a
// few dozen rows and columns. Each output sums its products in ascending k, starting from C's
// value, and nothing is reassociated: the AVX2 and baseline builds (and any CPU) give the same
// bits, with no dependence on cache sizes (unlike Eigen's blocking). INT8 operands use it on their
// integer values, in chunks short enough for FP32 sums to be exact (flash_attention.cpp).
#pragma once

#include <cstdint>

namespace tessel::kernels::detail {

// c[r * ldc + j] += sum_i a[r * lda + i] * b[i * ldb + j], r < m, j < n, i < k (i ascending).
void addProduct(const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc,
                int64_t m, int64_t n, int64_t k);

}  // namespace tessel::kernels::detail
