// AVX2 INT8 micro-kernel: A sign-extended to int16 and broadcast 4 k at a time; each 16-byte
// group of a B panel (4 columns x 4 k) is sign-extended and multiplied with vpmaddwd, which
// sums adjacent pairs into int32 exactly (|2 * 128 * 128| < 2^31). Pairs are reduced at the end.
#include <cstring>

#include "kernels/gemm/isa/kernels.h"
#include "util/error.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace tessel::kernels::detail {

namespace {

constexpr int kMr = 3;  // 12 accumulators + 3 A + 1 B = the 16 ymm registers

void packAvx2(const int8_t* a, int64_t lda, int64_t rows, int64_t k, int64_t kp, void* dst) {
  auto* d = static_cast<int16_t*>(dst);
  const int64_t rows_pad = (rows + kMr - 1) / kMr * kMr;
  std::memset(d, 0, static_cast<size_t>(rows_pad * kp) * sizeof(int16_t));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < k; ++i)
      d[r * kp + i] = static_cast<int16_t>(a[r * lda + i]);  // sign-extend
}

__attribute__((target("avx2"))) void microAvx2(const void* ap, int64_t kp, const void* bp,
                                               int32_t* c, int64_t ldc) {
  const auto* a = static_cast<const int16_t*>(ap);
  const auto* b = static_cast<const int8_t*>(bp);
  __m256i acc[kMr][4];
  for (auto& row : acc)
    for (auto& v : row) v = _mm256_setzero_si256();
  for (int64_t q = 0; q < kp / 4; ++q) {
    __m256i av[kMr];
    for (int r = 0; r < kMr; ++r) {
      int64_t quad;
      std::memcpy(&quad, a + r * kp + 4 * q, 8);
      av[r] = _mm256_set1_epi64x(quad);
    }
    for (int j = 0; j < 4; ++j) {
      const __m256i bj = _mm256_cvtepi8_epi16(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + q * 64 + 16 * j)));
      for (int r = 0; r < kMr; ++r)
        acc[r][j] = _mm256_add_epi32(acc[r][j], _mm256_madd_epi16(av[r], bj));
    }
  }
  for (int r = 0; r < kMr; ++r) {
    // Lanes hold (column, half) pairs: add the halves and restore column order.
    const __m256i lo = _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[r][0], acc[r][1]), 0xD8);
    const __m256i hi = _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[r][2], acc[r][3]), 0xD8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * ldc), lo);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * ldc + 8), hi);
  }
}

}  // namespace

const Int8Kernel& avx2Kernel() {
  static const Int8Kernel k{Int8Isa::Avx2, kMr, 0, 2, packAvx2, microAvx2};
  return k;
}

}  // namespace tessel::kernels::detail

#else
namespace tessel::kernels::detail {
const Int8Kernel& avx2Kernel() { throw Error("the AVX2 int8 kernel needs an x86-64 GCC build"); }
}  // namespace tessel::kernels::detail
#endif
