// AVX-512 VNNI INT8 micro-kernel: vpdpbusd multiplies unsigned by signed bytes, so A is stored
// as a + 128 (unsigned) and the driver subtracts 128 * colsum(B). Four k per int32 lane, exact:
// |4 * 255 * 128| per step and K <= kMaxInt8GemmK keep every sum below 2^31.
#include <cstring>

#include "kernels/gemm/isa/kernels.h"
#include "util/error.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace tessel::kernels::detail {

namespace {

constexpr int kMr = 8;

void packVnni(const int8_t* a, int64_t lda, int64_t rows, int64_t k, int64_t kp, void* dst) {
  auto* d = static_cast<uint8_t*>(dst);
  const int64_t rows_pad = (rows + kMr - 1) / kMr * kMr;
  std::memset(d, 0x80, static_cast<size_t>(rows_pad * kp));  // 0x80 is a = 0
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < k; ++i) d[r * kp + i] = static_cast<uint8_t>(a[r * lda + i] ^ 0x80);
}

__attribute__((target("avx512f,avx512vnni"))) void microVnni(const void* ap, int64_t kp,
                                                             const void* bp, int32_t* c,
                                                             int64_t ldc) {
  const auto* a = static_cast<const uint8_t*>(ap);
  const auto* b = static_cast<const int8_t*>(bp);
  __m512i acc[kMr];
  for (auto& v : acc) v = _mm512_setzero_si512();
  for (int64_t q = 0; q < kp / 4; ++q) {
    const __m512i bq = _mm512_loadu_si512(b + q * 64);
    for (int r = 0; r < kMr; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * kp + 4 * q, 4);
      acc[r] = _mm512_dpbusd_epi32(acc[r], _mm512_set1_epi32(quad), bq);
    }
  }
  for (int r = 0; r < kMr; ++r) _mm512_storeu_si512(c + r * ldc, acc[r]);
}

}  // namespace

const Int8Kernel& vnniKernel() {
  static const Int8Kernel k{Int8Isa::Avx512Vnni, kMr, 128, 1, packVnni, microVnni};
  return k;
}

}  // namespace tessel::kernels::detail

#else
namespace tessel::kernels::detail {
const Int8Kernel& vnniKernel() { throw Error("the VNNI int8 kernel needs an x86-64 GCC build"); }
}  // namespace tessel::kernels::detail
#endif
