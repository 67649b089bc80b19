// The portable INT8 micro-kernel and run-time kernel selection.
#include <cstring>

#include "kernels/detail/int8_kernels.h"
#include "util/error.h"

namespace tessel::kernels {

std::string_view nameOf(Int8Isa isa) {
  switch (isa) {
    case Int8Isa::Auto: return "auto";
    case Int8Isa::Portable: return "portable";
    case Int8Isa::Avx2: return "avx2";
    case Int8Isa::Avx512Vnni: return "avx512vnni";
  }
  return "?";
}

bool isAvailable(Int8Isa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (isa == Int8Isa::Avx2) return __builtin_cpu_supports("avx2");
  if (isa == Int8Isa::Avx512Vnni)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
#else
  if (isa == Int8Isa::Avx2 || isa == Int8Isa::Avx512Vnni) return false;
#endif
  return true;
}

Int8Isa bestInt8Isa() {
  static const Int8Isa best = isAvailable(Int8Isa::Avx512Vnni) ? Int8Isa::Avx512Vnni
                              : isAvailable(Int8Isa::Avx2)     ? Int8Isa::Avx2
                                                               : Int8Isa::Portable;
  return best;
}

namespace detail {

namespace {

constexpr int kPortableMr = 4;

void packPortable(const int8_t* a, int64_t lda, int64_t rows, int64_t k, int64_t kp, void* dst) {
  auto* d = static_cast<int8_t*>(dst);
  const int64_t rows_pad = (rows + kPortableMr - 1) / kPortableMr * kPortableMr;
  std::memset(d, 0, static_cast<size_t>(rows_pad * kp));
  for (int64_t r = 0; r < rows; ++r) std::memcpy(d + r * kp, a + r * lda, static_cast<size_t>(k));
}

void microPortable(const void* ap, int64_t kp, const int8_t* b, int32_t* c, int64_t ldc) {
  const auto* a = static_cast<const int8_t*>(ap);
  int32_t acc[kPortableMr][16] = {};
  for (int64_t q = 0; q < kp / 4; ++q) {
    const int8_t* bq = b + q * 64;
    for (int r = 0; r < kPortableMr; ++r) {
      const int8_t* ar = a + r * kp + 4 * q;
      for (int n = 0; n < 16; ++n)
        acc[r][n] += ar[0] * bq[4 * n] + ar[1] * bq[4 * n + 1] + ar[2] * bq[4 * n + 2] +
                     ar[3] * bq[4 * n + 3];
    }
  }
  for (int r = 0; r < kPortableMr; ++r) std::memcpy(c + r * ldc, acc[r], sizeof(acc[r]));
}

}  // namespace

const Int8Kernel& portableKernel() {
  static const Int8Kernel k{Int8Isa::Portable, kPortableMr, 0, 1, packPortable, microPortable};
  return k;
}

const Int8Kernel& int8Kernel(Int8Isa isa) {
  if (isa == Int8Isa::Auto) isa = bestInt8Isa();
  if (!isAvailable(isa))
    throw Error("int8 kernel '" + std::string(nameOf(isa)) + "' is not supported by this CPU");
  if (isa == Int8Isa::Avx512Vnni) return vnniKernel();
  if (isa == Int8Isa::Avx2) return avx2Kernel();
  return portableKernel();
}

}  // namespace detail
}  // namespace tessel::kernels
