// A tiny Llama-style decoder block (RMSNorm, q/k/v projections, RoPE on q and k, GQA causal
// attention, o_proj, residual, RMSNorm, SwiGLU FFN with up_proj emitted before gate_proj,
// residual), in prefill and in decode with a KV cache: FP32 against the double reference, fused
// against unfused, and its INT8/FP16/BF16 plans.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/validation/precision_search.h"
#include "kernels/validation/validate.h"
#include "ops_fixture.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using testing::Builder;
using testing::emitOp;

constexpr int64_t kD = 64, kHeads = 8, kKv = 2, kHd = 8, kFfn = 96;

int rmsNorm(Builder& b, const std::string& name, int x) {
  return emitOp(b, name, OpKind::RmsNorm, {x, b.weight(name + ".weight", {kD})}, b.shape(x),
                [](models::Op& op) { op.eps = 1e-5f; });
}

int rope(Builder& b, const std::string& name, int x, int64_t heads, int64_t pos) {
  return emitOp(b, name, OpKind::Rope, {x}, b.shape(x),
                [&](models::Op& op) { op.rope = {heads, kHd, kHd, 0, pos, 10000.0, false}; });
}

int attention(Builder& b, int q, int k, int v, int64_t s, int64_t t) {
  auto set = [&](models::Op& op, bool score) {
    op.attn.heads = kHeads;
    op.attn.kv_heads = kKv;
    op.attn.head_dim = kHd;
    op.attn.transpose_b = score;
    op.attn.causal = score;
    op.attn.scale = score ? 1.0f / std::sqrt(static_cast<float>(kHd)) : 1.0f;
    op.gemm = {kKv, (kHeads / kKv) * s, score ? t : kHd, score ? kHd : t};
  };
  const int sc = emitOp(b, "attn.score", OpKind::BatchMatMul, {q, k}, {1, kHeads, s, t},
                        [&](models::Op& op) { set(op, true); });
  const int p = emitOp(b, "attn.softmax", OpKind::Softmax, {sc}, {1, kHeads, s, t});
  return emitOp(b, "attn.context", OpKind::BatchMatMul, {p, v}, {1, s, kD},
                [&](models::Op& op) { set(op, false); });
}

// s new tokens after a cache of `cached` (0: prefill, no cache inputs).
models::Graph llamaBlock(int64_t s, int64_t cached) {
  models::Graph g;
  g.name = "llama-block";
  Builder b{g, DType::FP32};
  const int x = b.input("hidden", {1, s, kD}, DType::FP32);
  const int n1 = rmsNorm(b, "input_layernorm", x);
  const int q = models::detail::linear(b, "q_proj", n1, kD, false);
  const int k = models::detail::linear(b, "k_proj", n1, kKv * kHd, false);
  const int v = models::detail::linear(b, "v_proj", n1, kKv * kHd, false);
  const int qr = rope(b, "q_rope", q, kHeads, cached);
  int kr = rope(b, "k_rope", k, kKv, cached), vv = v;
  if (cached > 0) {  // the cache holds keys already rotated, as HF's DynamicCache does
    auto cat = [&](const std::string& name, int cache, int fresh) {
      return emitOp(b, name, OpKind::Concat, {cache, fresh}, {1, cached + s, kKv * kHd},
                    [](models::Op& op) { op.layout.axis = 1; });
    };
    kr = cat("k_concat", b.input("k_cache", {1, cached, kKv * kHd}, DType::FP32), kr);
    vv = cat("v_concat", b.input("v_cache", {1, cached, kKv * kHd}, DType::FP32), v);
  }
  const int ctx = attention(b, qr, kr, vv, s, cached + s);
  const int o = models::detail::linear(b, "o_proj", ctx, kD, false);
  const int h = models::detail::add(b, "attn_residual", x, o);
  const int n2 = rmsNorm(b, "post_attention_layernorm", h);
  const int up = models::detail::linear(b, "up_proj", n2, kFfn, false);
  const int gate = models::detail::linear(b, "gate_proj", n2, kFfn, false);
  const int act = models::detail::unary(b, "act", OpKind::Silu, gate);
  const int prod = emitOp(b, "gate_mul", OpKind::Mul, {act, up}, {1, s, kFfn});
  const int down = models::detail::linear(b, "down_proj", prod, kD, false);
  models::detail::add(b, "mlp_residual", h, down);
  return g;
}

// Tolerance 1e-5: as test_reference.cpp's GPT-2 block (the same op mix: K <= 96 dot products,
// fast exp in softmax and SiLU, row norms of 64), each op's FP32 error is ~1e-7 to 1e-6.
TEST(LlamaBlock, PrefillMatchesDouble) { testing::expectMatchesDouble(llamaBlock(6, 0), 1e-5); }
TEST(LlamaBlock, DecodeWithCacheMatchesDouble) {
  testing::expectMatchesDouble(llamaBlock(1, 5), 1e-5);
}

// Fused steps: score + softmax, o_proj + residual, gate_proj + SiLU + Mul(up), down + residual.
TEST(LlamaBlock, FusedEqualsUnfusedBitForBit) {
  const models::Graph g = llamaBlock(6, 0);
  ExecutorOptions fused;
  fused.fuse = true;
  Executor a(g, testing::opsStore()), f(g, testing::opsStore(), fused);
  const auto has = [&](const std::vector<int>& ops) {
    return std::find(f.steps().begin(), f.steps().end(), ops) != f.steps().end();
  };
  EXPECT_TRUE(has({g.findOp("gate_proj"), g.findOp("act"), g.findOp("gate_mul")}));
  EXPECT_TRUE(has({g.findOp("o_proj"), g.findOp("attn_residual")}));
  EXPECT_TRUE(has({g.findOp("attn.score"), g.findOp("attn.softmax")}));
  const RunResult ra = a.run(), rf = f.run();
  const Tensor& x = *ra.outputs.at("mlp_residual");
  const Tensor& y = *rf.outputs.at("mlp_residual");
  ASSERT_EQ(x.numel(), y.numel());
  for (int64_t i = 0; i < x.numel(); ++i) ASSERT_EQ(x.f32()[i], y.f32()[i]) << i;
  testing::expectMatchesDouble(g, 1e-5, true);
}

ValidationReport lowered(const models::Graph& g, DType d, bool fuse) {
  const ReferenceRun ref = runReference(g, testing::opsStore());
  ExecutorOptions o;
  o.fuse = fuse;
  return validate(ref, lowerGraph(g, uniformPlan(d)), testing::opsStore(), o);
}

void expectFinite(const ValidationReport& r, const std::string& label) {
  for (const OpReport& o : r.ops) {
    if (!o.compared) continue;
    EXPECT_EQ(o.error.nonfinite, 0) << o.name;
    EXPECT_TRUE(std::isfinite(o.error.rel_l2)) << o.name;
  }
  EXPECT_TRUE(std::isfinite(r.output.error.rel_l2));
  ::testing::Test::RecordProperty(label + "_rel_l2", std::to_string(r.output.error.rel_l2));
}

// INT8 bound 0.05 on the block output. A symmetric per-tensor INT8 tensor of roughly Gaussian
// values with max ~4 sigma has step 4 sigma / 127 and rounding noise step / sqrt(12): ~0.9%
// relative. About a dozen such roundings lie on the output's path (each GEMM's input and output,
// the nonlinear ops' float-path outputs); independent noises add in quadrature to ~3%, and the
// residual stream (the block input, quantized once) carries most of the output's energy. 5%
// allows for the softmax's and RMSNorm's amplification of their inputs' noise, yet a mis-scaled
// tensor (wrong calibration name, a lost zero point) gives >= 50%.
TEST(LlamaBlock, Int8PlanRunsWithBoundedError) {
  for (bool fuse : {false, true}) {
    const ValidationReport r = lowered(llamaBlock(6, 0), DType::Int8, fuse);
    expectFinite(r, fuse ? "prefill_fused" : "prefill");
    EXPECT_LE(r.output.error.rel_l2, 0.05) << "fuse " << fuse;
    EXPECT_GT(r.output.error.cosine, 0.99);
  }
  const ValidationReport d = lowered(llamaBlock(1, 5), DType::Int8, true);
  expectFinite(d, "decode");
  EXPECT_LE(d.output.error.rel_l2, 0.05);
}

// I-BERT integer-only softmax and RMSNorm (integer_nonlinear) replace the float host path; the
// block output's error stays within the same INT8 bound (their own errors, see test_ibert.cpp,
// are below one INT8 output step).
TEST(LlamaBlock, Int8IntegerOnlyNonlinearRuns) {
  const models::Graph g = llamaBlock(6, 0);
  const ReferenceRun ref = runReference(g, testing::opsStore());
  ExecutorOptions o;
  o.integer_nonlinear = true;
  const ValidationReport r =
      validate(ref, lowerGraph(g, uniformPlan(DType::Int8)), testing::opsStore(), o);
  expectFinite(r, "ibert");
  EXPECT_LE(r.output.error.rel_l2, 0.05);
}

// FP16 keeps 11 significant bits (u = 4.9e-4), BF16 8 (3.9e-3); a dozen roundings in quadrature
// give ~2e-3 and ~1.4e-2: bounds 1e-2 and 5e-2.
TEST(LlamaBlock, HalfPrecisionPlansRun) {
  const ValidationReport h = lowered(llamaBlock(6, 0), DType::FP16, true);
  expectFinite(h, "fp16");
  EXPECT_LE(h.output.error.rel_l2, 1e-2);
  const ValidationReport bf = lowered(llamaBlock(6, 0), DType::BF16, true);
  expectFinite(bf, "bf16");
  EXPECT_LE(bf.output.error.rel_l2, 5e-2);
}

// The mixed-precision search probes every candidate (GEMMs, RMSNorm, SiLU, softmax) of the block
// and its plan meets the tolerance it was given.
TEST(LlamaBlock, PrecisionSearchLowersWithinTolerance) {
  const ReferenceRun ref = runReference(llamaBlock(6, 0), testing::opsStore());
  SearchOptions o;
  o.tolerance = 0.02;
  const SearchResult r = searchPrecision(ref, testing::opsStore(), o);
  EXPECT_EQ(r.ops.size(), 13u);  // 7 projections, score, context, softmax, 2 RMSNorms, SiLU
  EXPECT_LE(r.error, 0.02);
  EXPECT_FALSE(r.plan.ops.empty());
}

}  // namespace
}  // namespace tessel::kernels
