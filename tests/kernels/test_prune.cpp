// Magnitude pruning (kernels/weights/prune.h): N:M and unstructured density, per output channel
// along the reduction axis, for MatMul ([K, N] and transposed [N, K]) and Conv2d (HWIO and
// channels-first) weights. Each channel's reduction list is read here by explicit index
// arithmetic, independently of the layout code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "kernels/weights/prune.h"
#include "kernels/weights/weights.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

// Normal values (no exact zeros: checked) so that every kept count is exactly the pattern's.
Tensor randomWeights(std::vector<int64_t> shape, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(numelOf(shape)));
  fillNormal(seed, 0.0, 1.0, v.data(), static_cast<int64_t>(v.size()));
  for (float x : v) EXPECT_NE(x, 0.0f);
  return Tensor::fromFloats(std::move(shape), std::move(v));
}

// The reduction list of channel c: element i is at index(i, c) of the flat tensor.
using Index = std::function<int64_t(int64_t i, int64_t c)>;
std::vector<float> channel(const Tensor& t, int64_t fan_in, int64_t c, const Index& at) {
  std::vector<float> v;
  for (int64_t i = 0; i < fan_in; ++i) v.push_back(t.f32()[at(i, c)]);
  return v;
}

// In [lo, hi): `keep` values are kept unchanged, the rest are 0, and no dropped value is larger
// in magnitude than a kept one (equal only when it comes later: ties keep the lower index).
void expectKeptLargest(const std::vector<float>& orig, const std::vector<float>& pruned, int64_t lo,
                       int64_t hi, int64_t keep, const std::string& where) {
  int64_t kept = 0;
  for (int64_t i = lo; i < hi; ++i) {
    if (pruned[i] == 0.0f) continue;
    ++kept;
    EXPECT_EQ(pruned[i], orig[i]) << where << " i=" << i;
    for (int64_t j = lo; j < hi; ++j) {
      if (pruned[j] != 0.0f) continue;
      const float a = std::fabs(orig[i]), b = std::fabs(orig[j]);
      EXPECT_TRUE(a > b || (a == b && i < j)) << where << " kept " << i << ", dropped " << j;
    }
  }
  EXPECT_EQ(kept, keep) << where << " [" << lo << ", " << hi << ")";
}

void expectNm(const Tensor& orig, const Tensor& pruned, int64_t fan_in, int64_t channels,
              const Index& at, int n, int m) {
  for (int64_t c = 0; c < channels; ++c) {
    const std::vector<float> a = channel(orig, fan_in, c, at), b = channel(pruned, fan_in, c, at);
    for (int64_t g = 0; g < fan_in; g += m) {
      const int64_t size = std::min<int64_t>(m, fan_in - g);  // the last group may be partial
      expectKeptLargest(
          a, b, g, g + size, std::min<int64_t>(n, size),
          std::to_string(n) + ":" + std::to_string(m) + " channel " + std::to_string(c));
    }
  }
}

struct Pattern {
  int n, m;
};
// 2:4 (sparse tensor cores), 1:4 and 4:8. K = 64 divides into every group size; K = 18 = 4 x 4 + 2
// = 2 x 8 + 2 leaves a last group of 2, which keeps min(N, 2): 2 for 2:4 and 4:8, 1 for 1:4.
const Pattern kPatterns[] = {{2, 4}, {1, 4}, {4, 8}};
const int64_t kFanIns[] = {64, 18};

TEST(KernelsPrune, MatMulWeightsAreExactlyNm) {
  for (const Pattern p : kPatterns) {
    for (const int64_t k : kFanIns) {
      const int64_t n = 5;
      const Tensor w = randomWeights({k, n}, 11);  // [K, N]: channel c is column c
      const Tensor pr = pruneWeight(w, matmulLayout(w.shape(), false), Sparsity::nm(p.n, p.m));
      const Index column = [&](int64_t i, int64_t c) { return i * n + c; };
      expectNm(w, pr, k, n, column, p.n, p.m);
      const Tensor wt = randomWeights({n, k}, 12);  // transposed [N, K]: channel c is row c
      const Tensor pt = pruneWeight(wt, matmulLayout(wt.shape(), true), Sparsity::nm(p.n, p.m));
      const Index row = [&](int64_t i, int64_t c) { return c * k + i; };
      expectNm(wt, pt, k, n, row, p.n, p.m);
    }
  }
}

// R = S = 3, C = 5: a fan-in of 45, which no M here divides (partial groups of 1 and 5).
TEST(KernelsPrune, ConvWeightsAreExactlyNmAlongRsc) {
  const int64_t r = 3, s = 3, c = 5, k = 4, fan_in = r * s * c;
  for (const Pattern p : kPatterns) {
    const Tensor hwio = randomWeights({r, s, c, k}, 21);  // the GEMM reads it as [R*S*C, K]
    const Tensor ph = pruneWeight(hwio, convLayout(hwio.shape(), false), Sparsity::nm(p.n, p.m));
    const Index column = [&](int64_t i, int64_t o) { return i * k + o; };
    expectNm(hwio, ph, fan_in, k, column, p.n, p.m);
    const Tensor kcrs = randomWeights({k, c, r, s}, 22);  // channels first: one row per output
    const Tensor pk = pruneWeight(kcrs, convLayout(kcrs.shape(), true), Sparsity::nm(p.n, p.m));
    const Index row = [&](int64_t i, int64_t o) { return o * fan_in + i; };
    expectNm(kcrs, pk, fan_in, k, row, p.n, p.m);
  }
}

// Every count is round(d * fan_in), half away from zero, and at least 1:
//   0.5 of 64 -> 32; 0.3 of 45 -> 13.5 -> 14; 0.5 of 7 -> 3.5 -> 4; 0.01 of 16 -> 0.16 -> 0 -> 1.
TEST(KernelsPrune, UnstructuredDensityPerChannel) {
  struct Case {
    double d;
    int64_t fan_in, keep;
  };
  for (const Case& cs : {Case{0.5, 64, 32}, Case{0.3, 45, 14}, Case{0.5, 7, 4}, Case{0.01, 16, 1},
                         Case{1.0, 9, 9}}) {
    const int64_t n = 6;
    const Tensor w = randomWeights({cs.fan_in, n}, 31);
    const Tensor pr = pruneWeight(w, matmulLayout(w.shape(), false), Sparsity::uniform(cs.d));
    for (int64_t c = 0; c < n; ++c) {
      const Index at = [&](int64_t i, int64_t ch) { return i * n + ch; };
      expectKeptLargest(channel(w, cs.fan_in, c, at), channel(pr, cs.fan_in, c, at), 0, cs.fan_in,
                        cs.keep, "density " + std::to_string(cs.d));
    }
  }
}

// Equal magnitudes keep the lower index: of {1, -1, 1, -1} 2:4 keeps the first two.
TEST(KernelsPrune, TiesKeepTheLowerIndex) {
  std::vector<float> v = {1.0f, -1.0f, 1.0f, -1.0f, 0.5f, -2.0f, 2.0f, 0.25f};
  pruneRun(v.data(), 8, Sparsity::nm(2, 4));
  EXPECT_EQ(v, (std::vector<float>{1.0f, -1.0f, 0.0f, 0.0f, 0.0f, -2.0f, 2.0f, 0.0f}));
}

// Batched MatMul weights [B, K, N] prune each batch's channels apart: 2 batches x 3 channels,
// each column of each batch exactly 2:4.
TEST(KernelsPrune, BatchedMatMulWeightsPerBatch) {
  const int64_t b = 2, k = 8, n = 3;
  const Tensor w = randomWeights({b, k, n}, 41);
  const Tensor pr = pruneWeight(w, matmulLayout(w.shape(), false), Sparsity::nm(2, 4));
  for (int64_t bi = 0; bi < b; ++bi) {
    const Index at = [&](int64_t i, int64_t c) { return (bi * k + i) * n + c; };
    expectNm(w, pr, k, n, at, 2, 4);
  }
}

TEST(KernelsPrune, DenseIsUnchangedAndBadLayoutThrows) {
  const Tensor w = randomWeights({8, 4}, 51);
  const Tensor same = pruneWeight(w, matmulLayout(w.shape(), false), Sparsity());
  for (int64_t i = 0; i < w.numel(); ++i) EXPECT_EQ(same.f32()[i], w.f32()[i]);
  PruneLayout wrong;
  wrong.reduction = 3;
  EXPECT_THROW(pruneWeight(w, wrong, Sparsity::nm(2, 4)), Error);
}

}  // namespace
}  // namespace tessel::kernels
