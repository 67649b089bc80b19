// Grouped-query attention (8 query heads on 2 K/V heads) in the executor, against a naive loop
// written here from the definition, for prefill (causal, S = T) and decode (one query reading a
// cache of T keys), unfused and with softmax fused into the score GEMM.
//
// Tolerance 1e-5 relative to the output's max: a score is a head_dim = 8 dot product, softmax's
// fast exp errs < 2e-7, and a context value sums T <= 7 probability-weighted values, so the FP32
// result is within ~1e-6 of the double one; reading the wrong K/V head (h % kv_heads instead of
// h / group) or dropping the causal offset moves outputs by O(0.1).
#include <gtest/gtest.h>

#include <cmath>

#include "ops_fixture.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using testing::Builder;
using testing::emitOp;

constexpr int64_t kHeads = 8, kKv = 2, kHd = 8, kB = 2;

models::Graph gqaGraph(int64_t s, int64_t t) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int q = b.input("q", {kB, s, kHeads * kHd}, DType::FP32);
  const int k = b.input("k", {kB, t, kKv * kHd}, DType::FP32);
  const int v = b.input("v", {kB, t, kKv * kHd}, DType::FP32);
  auto attn = [&](models::Op& op, bool score) {
    op.attn.heads = kHeads;
    op.attn.kv_heads = kKv;
    op.attn.head_dim = kHd;
    op.attn.transpose_b = score;
    op.attn.causal = score;
    op.attn.scale = score ? 1.0f / std::sqrt(static_cast<float>(kHd)) : 1.0f;
    op.gemm = {kB * kKv, (kHeads / kKv) * s, score ? t : kHd, score ? kHd : t};
  };
  const int sc = emitOp(b, "score", OpKind::BatchMatMul, {q, k}, {kB, kHeads, s, t},
                        [&](models::Op& op) { attn(op, true); });
  const int p = emitOp(b, "probs", OpKind::Softmax, {sc}, {kB, kHeads, s, t});
  emitOp(b, "context", OpKind::BatchMatMul, {p, v}, {kB, s, kHeads * kHd},
         [&](models::Op& op) { attn(op, false); });
  return g;
}

// Attention output [B, S, heads * head_dim] straight from the definition, in double.
std::vector<double> naiveGqa(const models::Graph& g, int64_t s, int64_t t) {
  const Tensor& q = *testing::opsStore().raw(g, 0);  // tensors 0, 1, 2: q, k, v
  const Tensor& k = *testing::opsStore().raw(g, 1);
  const Tensor& v = *testing::opsStore().raw(g, 2);
  std::vector<double> out(static_cast<size_t>(kB * s * kHeads * kHd), 0.0);
  const int64_t group = kHeads / kKv, wq = kHeads * kHd, wk = kKv * kHd;
  for (int64_t b = 0; b < kB; ++b)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t i = 0; i < s; ++i) {
        std::vector<double> w(static_cast<size_t>(t), 0.0);
        double mx = -1e300, sum = 0.0;
        const int64_t visible = i + (t - s);  // keys 0..visible
        for (int64_t j = 0; j <= visible; ++j) {
          double d = 0.0;
          for (int64_t e = 0; e < kHd; ++e)
            d += q.f32()[(b * s + i) * wq + h * kHd + e] *
                 static_cast<double>(k.f32()[(b * t + j) * wk + (h / group) * kHd + e]);
          w[static_cast<size_t>(j)] = d / std::sqrt(static_cast<double>(kHd));
          mx = std::max(mx, w[static_cast<size_t>(j)]);
        }
        for (int64_t j = 0; j <= visible; ++j) sum += std::exp(w[static_cast<size_t>(j)] - mx);
        for (int64_t e = 0; e < kHd; ++e) {
          double acc = 0.0;
          for (int64_t j = 0; j <= visible; ++j)
            acc += std::exp(w[static_cast<size_t>(j)] - mx) / sum *
                   v.f32()[(b * t + j) * wk + (h / group) * kHd + e];
          out[static_cast<size_t>((b * s + i) * wq + h * kHd + e)] = acc;
        }
      }
  return out;
}

void expectGqa(int64_t s, int64_t t, bool fuse) {
  const models::Graph g = gqaGraph(s, t);
  const std::vector<double> want = naiveGqa(g, s, t);
  ExecutorOptions o;
  o.fuse = fuse;
  Executor exec(g, testing::opsStore(), o);
  if (fuse) {
    ASSERT_EQ(exec.steps().size(), 2u);  // score + softmax fused, then context
  }
  const RunResult r = exec.run();
  const Tensor& got = *r.outputs.at("context");
  double max_ref = 0, max_err = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    max_ref = std::max(max_ref, std::fabs(want[i]));
    max_err = std::max(max_err, std::fabs(got.f32()[i] - want[i]));
  }
  EXPECT_LE(max_err, 1e-5 * max_ref);
  testing::expectMatchesDouble(g, 1e-5, fuse);
}

TEST(Gqa, PrefillMatchesNaiveLoop) { expectGqa(5, 5, false); }
TEST(Gqa, PrefillFusedMatchesNaiveLoop) { expectGqa(5, 5, true); }
TEST(Gqa, DecodeWithCacheMatchesNaiveLoop) { expectGqa(1, 7, false); }
TEST(Gqa, DecodeFusedMatchesNaiveLoop) { expectGqa(1, 7, true); }

}  // namespace
}  // namespace tessel::kernels
