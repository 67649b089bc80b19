// Blocked float GEMM: Eigen computes each output block (FP32 accumulation) or an emulated
// low-precision accumulator does; the epilogue then runs on the block and it is stored.
#include <Eigen/Core>
#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/gemm/driver.h"
#include "util/error.h"

namespace tessel::kernels::detail {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;

// Eigen repacks its operands on every call; 128 x 256 blocks keep that within a few percent of
// one whole-matrix product (docs/kernels.md), and the epilogue runs on L1-sized row slices.
constexpr int64_t kBlockBudget = 32768;
constexpr int64_t kBlockCols = 256;

// Eigen splits K into panels sized from the L1/L2/L3 sizes it detects on the CPU at run time, and
// the panel size decides the order of the float sums: a 48 KiB L1 and a 32 KiB one give different
// bits. The executor is the numerical reference, so its sums must not depend on the machine:
// Eigen's blocking is pinned to one assumed cache hierarchy (32 KiB / 1 MiB / 32 MiB, a common
// x86-64 server core) before the first product, whatever the CPU reports. Only speed depends on
// how close that assumption is to the real caches.
constexpr std::ptrdiff_t kAssumedL1 = 32 * 1024, kAssumedL2 = 1024 * 1024,
                         kAssumedL3 = 32 * 1024 * 1024;

void pinEigenBlocking() {
  static std::once_flag pinned;
  std::call_once(pinned, [] { Eigen::setCpuCacheSizes(kAssumedL1, kAssumedL2, kAssumedL3); });
}

void eigenBlock(const float* a, int64_t lda, const FloatB& b, int64_t n0, Block& blk, int64_t k) {
  const ConstMap am(a, blk.rows, k, Eigen::OuterStride<>(lda));
  MutMap cm(blk.f, blk.rows, blk.cols, Eigen::OuterStride<>(blk.ld));
  if (b.transposed) {
    const ConstMap bt(b.data + n0 * b.ld, blk.cols, k, Eigen::OuterStride<>(b.ld));
    cm.noalias() = am * bt.transpose();
  } else {
    const ConstMap bm(b.data + n0, k, blk.cols, Eigen::OuterStride<>(b.ld));
    cm.noalias() = am * bm;
  }
}

// Running sums in the accumulation format, rounded after every add, k in ascending order.
void emulatedBlock(const float* a, int64_t lda, const FloatB& b, int64_t n0, Block& blk, int64_t k,
                   FloatFormat acc_fmt) {
  std::vector<double> bk(static_cast<size_t>(blk.cols));
  for (int64_t r = 0; r < blk.rows; ++r) {
    float* c = blk.f + r * blk.ld;
    std::fill(c, c + blk.cols, 0.0f);
    for (int64_t i = 0; i < k; ++i) {
      const double av = a[r * lda + i];
      for (int64_t j = 0; j < blk.cols; ++j) {
        const float bv = b.transposed ? b.data[(n0 + j) * b.ld + i] : b.data[i * b.ld + n0 + j];
        // Products of FP16/BF16 operands are exact in double; one rounding per add.
        c[j] = roundTo(static_cast<double>(c[j]) + av * bv, acc_fmt);
      }
    }
  }
}

}  // namespace

void runFloatGemm(const ASource& a, const FloatB& b, const FloatGemmConfig& cfg,
                  const OpChain& prologue, const OpChain& epi, OutView out, SaturationStats& sat) {
  if (a.k != b.k)
    throw Error("float matmul: A has " + std::to_string(a.k) +
                " columns, B has K = " + std::to_string(b.k));
  if (!epi.acceptsInput(Domain::Float))
    throw Error("float matmul: the epilogue must start from float values");
  // Operand rounding of A is one more prologue stage.
  OpChain pro = prologue.empty() ? OpChain(a.domain) : prologue;
  if (cfg.operands != FloatFormat::FP32) pro.roundTo(cfg.operands);
  const OpChain& eff = pro.empty() ? prologue : pro;
  const int64_t m = a.m, n = b.n, k = a.k;
  pinEigenBlocking();
  const BlockPlan plan = planBlocks(m, n, epi.needsWholeRows(), 8, kBlockBudget, kBlockCols);
  ARows rows_of_a(a, eff, Domain::Float, plan.mc);
  BlockBuffers buf(plan.mc, plan.nc);
  const Domain out_d = epi.outputDomain(Domain::Float);
  for (int64_t m0 = 0; m0 < m; m0 += plan.mc) {
    const int64_t rows = std::min(plan.mc, m - m0);
    int64_t lda = 0;
    const auto* ar = static_cast<const float*>(rows_of_a.get(m0, rows, lda, sat));
    for (int64_t n0 = 0; n0 < n; n0 += plan.nc) {
      Block blk = buf.at(m0, n0, rows, std::min(plan.nc, n - n0), n, &sat);
      if (cfg.accumulate == FloatFormat::FP32)
        eigenBlock(ar, lda, b, n0, blk, k);
      else
        emulatedBlock(ar, lda, b, n0, blk, k, cfg.accumulate);
      epi.run(blk);
      storeBlock(blk, out_d, offsetOf(out.data, out_d, m0, n0, out.ld), out.ld);
    }
  }
}

}  // namespace tessel::kernels::detail
