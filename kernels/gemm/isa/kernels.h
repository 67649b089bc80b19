// INT8 micro-kernels (kernels-internal). B panels: 16 columns, k in groups of 4: byte
// (q, n, j) of a panel is w[4q + j][n]. A is packed per kernel: rows padded to mr, K to kp.
#pragma once

#include <cstdint>

#include "kernels/gemm/int8.h"

namespace tessel::kernels::detail {

struct Int8Kernel {
  Int8Isa isa;
  int mr;            // rows per micro-tile
  int a_offset;      // the kernel multiplies a + a_offset (VNNI: 128, so A is unsigned)
  int a_elem_bytes;  // bytes per packed A element
  // Packs `rows` rows (row stride lda, k values) into dst: [round_up(rows, mr)][kp].
  void (*pack_a)(const int8_t* a, int64_t lda, int64_t rows, int64_t k, int64_t kp, void* dst);
  // c[r][n] = sum_k A[r][k] * B[k][n] for r < mr, n < 16 (overwrites c; ldc in elements).
  void (*micro)(const void* a, int64_t kp, const void* b, int32_t* c, int64_t ldc);
};

// The portable path has no micro-kernel (micro == nullptr): it computes a whole block as
// chunked float products on Eigen, exact while each chunk's |sum| <= 2^24 (1024 terms of at most
// 2^14). c[r][j] = sum_k a[r][k] * w[k][n0 + j] for r < rows, j < cols.
void portableBlock(const int8_t* a, int64_t lda, int64_t rows, const PackedWeights& w, int64_t n0,
                   int64_t cols, int32_t* c, int64_t ldc);

const Int8Kernel& int8Kernel(Int8Isa isa);  // throws Error if unavailable on this CPU

const Int8Kernel& portableKernel();
const Int8Kernel& avx2Kernel();
const Int8Kernel& vnniKernel();

}  // namespace tessel::kernels::detail
