// The portable INT8 path (chunked float on Eigen) and run-time kernel selection.
#include <Eigen/Core>
#include <algorithm>
#include <cstring>

#include "kernels/gemm/isa/ceiling.h"
#include "kernels/gemm/isa/kernels.h"
#include "util/error.h"

namespace tessel::kernels {

std::string_view nameOf(Int8Isa isa) {
  switch (isa) {
    case Int8Isa::Auto:
      return "auto";
    case Int8Isa::Portable:
      return "portable";
    case Int8Isa::Avx2:
      return "avx2";
    case Int8Isa::Avx512Vnni:
      return "avx512vnni";
  }
  return "?";
}

bool isAvailable(Int8Isa isa) {
  if (isa == Int8Isa::Avx2) return detail::cpuHas(IsaLevel::Avx2);
  if (isa == Int8Isa::Avx512Vnni) return detail::cpuHas(IsaLevel::Avx512);
  return true;
}

// The best kernel under the ISA ceiling (TESSEL_ISA lowers it; every kernel gives the same bits).
Int8Isa bestInt8Isa() {
  switch (isaCeiling()) {
    case IsaLevel::Avx512:
      return Int8Isa::Avx512Vnni;
    case IsaLevel::Avx2:
      return Int8Isa::Avx2;
    case IsaLevel::Portable:
      break;
  }
  return Int8Isa::Portable;
}

namespace detail {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
constexpr int64_t kChunk = 1024;  // 1024 * 2^14 = 2^24: every partial sum is an exact float

}  // namespace

const Int8Kernel& portableKernel() {
  static const Int8Kernel k{Int8Isa::Portable, 1, 0, 0, nullptr, nullptr};
  return k;
}

void portableBlock(const int8_t* a, int64_t lda, int64_t rows, const PackedWeights& w, int64_t n0,
                   int64_t cols, int32_t* c, int64_t ldc) {
  const int64_t k = w.k();
  RowMat af(rows, std::min(k, kChunk)), part(rows, cols);
  Eigen::Map<Eigen::Matrix<int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
             Eigen::OuterStride<>>
      cm(c, rows, cols, Eigen::OuterStride<>(ldc));
  cm.setZero();
  for (int64_t k0 = 0; k0 < k; k0 += kChunk) {
    const int64_t kc = std::min(kChunk, k - k0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t i = 0; i < kc; ++i) af(r, i) = a[r * lda + k0 + i];
    const ConstMap bm(w.floatWeights() + k0 * w.n() + n0, kc, cols, Eigen::OuterStride<>(w.n()));
    part.noalias() = af.leftCols(kc) * bm;
    cm += part.cast<int32_t>();
  }
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
