// Blocked INT8 GEMM: pack a row block of A, compute 16-column panels with the micro-kernel into
// an int32 block, correct for zero points, run the epilogue on the block, store it.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/gemm/driver.h"
#include "kernels/gemm/isa/dispatch.h"
#include "kernels/gemm/isa/kernels.h"
#include "util/error.h"

namespace tessel::kernels::detail {

namespace {

constexpr int64_t kBlockBudget = 16384;  // int32 block of 64 KiB: stays in L2 with its epilogue
constexpr int64_t kEigenBudget = 65536;  // the portable path calls Eigen per block: go larger

// c -= colterm[c] (+ zb[c] * rowterm[r]): sum (a - za)(b - zb) from the raw sum of a' * b,
// a' = a + offset. Unsigned arithmetic: wrap-around cancels, the true result fits int32.
TESSEL_LOOP_BODY void correctRowBody(int32_t* c, int64_t n, const int32_t* colterm,
                                     const int32_t* zb, int32_t rowterm) {
  auto* u = reinterpret_cast<uint32_t*>(c);
  for (int64_t j = 0; j < n; ++j)
    u[j] -= static_cast<uint32_t>(colterm[j]) +
            static_cast<uint32_t>(zb[j]) * static_cast<uint32_t>(rowterm);
}
TESSEL_HOT_LOOP(void, correctRow,
                (int32_t * c, int64_t n, const int32_t* colterm, const int32_t* zb,
                 int32_t rowterm),
                (c, n, colterm, zb, rowterm))

// Per column: (za + offset) * colsum(B).
std::vector<int32_t> columnTerms(const PackedWeights& w, int32_t za_eff) {
  std::vector<int32_t> t(static_cast<size_t>(w.n()));
  for (int64_t c = 0; c < w.n(); ++c)
    t[static_cast<size_t>(c)] =
        static_cast<int32_t>(static_cast<uint32_t>(za_eff) * static_cast<uint32_t>(w.colSums()[c]));
  return t;
}

void checkShapes(const ASource& a, const PackedWeights& w, const OpChain& epi) {
  if (a.k != w.k())
    throw Error("int8 matmul: A has " + std::to_string(a.k) +
                " columns, weights have K = " + std::to_string(w.k()));
  if (!epi.acceptsInput(Domain::Int32))
    throw Error("int8 matmul: the epilogue must start from int32 accumulators");
}

}  // namespace

void runInt8Gemm(const ASource& a, const PackedWeights& w, const OpChain& pro, const OpChain& epi,
                 OutView out, SaturationStats& sat) {
  checkShapes(a, w, epi);
  const Int8Kernel& kern = int8Kernel(w.isa());
  const int64_t m = a.m, k = w.k(), n = w.n(), kp = w.kPadded();
  const int32_t za =
      pro.empty() ? a.zero_point
                  : pro.outputQuant(QuantParams::perTensor(1.0f, a.zero_point)).zero_point.at(0);
  const BlockPlan plan =
      planBlocks(m, n, epi.needsWholeRows(), kern.mr, kern.micro ? kBlockBudget : kEigenBudget);
  const int64_t nc_pad = (plan.nc + 15) / 16 * 16;
  std::vector<char> packed(static_cast<size_t>(plan.mc * kp * kern.a_elem_bytes));
  ARows rows_of_a(a, pro, Domain::Int8, plan.mc);
  BlockBuffers buf(plan.mc, nc_pad);
  const std::vector<int32_t> colterm = columnTerms(w, za + kern.a_offset);
  std::vector<int32_t> rowterm(static_cast<size_t>(plan.mc), 0);
  const Domain out_d = epi.outputDomain(Domain::Int32);
  for (int64_t m0 = 0; m0 < m; m0 += plan.mc) {
    const int64_t rows = std::min(plan.mc, m - m0);
    int64_t lda = 0;
    const auto* ar = static_cast<const int8_t*>(rows_of_a.get(m0, rows, lda, sat));
    if (kern.pack_a) kern.pack_a(ar, lda, rows, k, kp, packed.data());
    if (w.hasZeroPoints())  // sum_k (a - za), needed only for weight zero points
      for (int64_t r = 0; r < rows; ++r) {
        int64_t s = 0;
        for (int64_t i = 0; i < k; ++i) s += ar[r * lda + i] - za;
        rowterm[static_cast<size_t>(r)] = static_cast<int32_t>(s);
      }
    for (int64_t n0 = 0; n0 < n; n0 += plan.nc) {
      const int64_t cols = std::min(plan.nc, n - n0);
      Block b = buf.at(m0, n0, rows, cols, n, &sat);
      if (!kern.micro) portableBlock(ar, lda, rows, w, n0, cols, b.i, b.ld);
      for (int64_t p = 0; kern.micro && p < (cols + 15) / 16; ++p)
        for (int64_t r = 0; r < rows; r += kern.mr)
          kern.micro(packed.data() + r * kp * kern.a_elem_bytes, kp, w.panel(n0 / 16 + p),
                     b.i + r * b.ld + 16 * p, b.ld);
      for (int64_t r = 0; r < rows; ++r)
        correctRow(b.i + r * b.ld, cols, colterm.data() + n0, w.zeroPoints() + n0,
                   rowterm[static_cast<size_t>(r)]);
      epi.run(b);
      storeBlock(b, out_d, offsetOf(out.data, out_d, m0, n0, out.ld), out.ld);
    }
  }
}

}  // namespace tessel::kernels::detail
