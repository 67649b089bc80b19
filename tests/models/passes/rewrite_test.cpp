// applyRewrite: the copy-with-remap every pass builds on; and several patterns in one graph.
#include "models/passes/rewrite.h"

#include <gtest/gtest.h>

#include "models/passes/recognize.h"
#include "tests/models/passes/decomposed.h"
#include "tests/models/passes/pass_checks.h"
#include "util/error.h"

namespace tessel::models::testing {
namespace {

TEST(ApplyRewrite, DropsAndReplacesInPlaceKeepingInputs) {
  Decomposed d;
  const int x = d.input("x");
  const int unused = d.input("unused");
  const int e = d.elt("e", "exp", {x});
  const int m = d.mul("m", e, d.scalar("c", 3.0f));
  d.op("r", OpKind::Relu, {m});
  Rewrite rw;
  rw.dropped = {0};
  Op neg = d.g.op(1);
  neg.kind = OpKind::Elementwise;
  neg.elt.fn = "neg";
  neg.inputs = {x};
  rw.replaced.emplace(1, neg);
  const Graph r = applyRewrite(d.g, rw);
  ASSERT_EQ(r.ops().size(), 2u);
  EXPECT_EQ(r.op(0).name, "m");
  EXPECT_EQ(r.op(0).elt.fn, "neg");
  EXPECT_EQ(r.op(1).inputs[0], r.op(0).outputs[0]);
  // "e" and the constant went with their ops; graph inputs stay, even unread.
  EXPECT_EQ(r.tensors().size(), d.g.tensors().size() - 2);
  EXPECT_EQ(r.tensor(1).name, d.g.tensor(unused).name);
  EXPECT_EQ(r.weight_values, d.g.weight_values);
}

TEST(ApplyRewrite, ReadingADroppedOutputIsAnError) {
  Decomposed d;
  const int x = d.input("x");
  d.op("r", OpKind::Relu, {d.elt("e", "exp", {x})});
  Rewrite rw;
  rw.dropped = {0};
  EXPECT_THROW(applyRewrite(d.g, rw), Error);
}

// A GPT-style MLP and attention spelled out: every pattern at once, each op replaced once.
TEST(RecognizePatterns, ABlockWithEveryPattern) {
  Decomposed d;
  const int x = d.input("x", {1, 8, 16});
  const int h = layerNorm(d, "ln", x);
  const int q = detail::linear(d.b, "q", h, 16, true);
  const int kt = d.input("kt", {1, 16, 8});
  const int s = d.elt("div", "div", {d.matmul("score", q, kt), d.scalar("sqrt_d", 4.0f)});
  const int cond = d.constant("cond", {8, 8}, [] {
    std::vector<float> v;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) v.push_back(j > i ? 1.0f : 0.0f);
    return v;
  }());
  const int masked = d.elt("where", "where", {cond, d.scalar("fill", -1e30f), s});
  const int ctx =
      d.matmul("context", d.op("softmax", OpKind::Softmax, {masked}), d.input("v", {1, 8, 16}));
  const int up = detail::linear(d.b, "fc", rmsNorm(d, "rms", ctx), 64, true);
  const int act = geluErf(d, "gelu", up, Assoc::XBracketThenHalf, false);
  const int sig = d.op("sig", OpKind::Sigmoid, {act});
  detail::linear(d.b, "out", d.mul("silu", act, sig), 16, true);
  const Graph r = recognizePatterns(d.g);
  expectSound(d.g, r);
  EXPECT_EQ(countKind(r, OpKind::LayerNorm), 1);
  EXPECT_EQ(countKind(r, OpKind::RmsNorm), 1);
  EXPECT_EQ(countKind(r, OpKind::Gelu), 1);
  EXPECT_EQ(countKind(r, OpKind::Silu), 1);
  EXPECT_EQ(countKind(r, OpKind::Elementwise), 0);
  EXPECT_EQ(countKind(r, OpKind::Mul), 0);
  EXPECT_TRUE(opNamed(r, "score").attn.causal);
  // ln, q, score, softmax, context, rms, fc, gelu, silu, out
  EXPECT_EQ(r.ops().size(), 10u);
  EXPECT_TRUE(r.warnings.empty());
  // Idempotent: nothing left to recognize.
  EXPECT_EQ(opList(recognizePatterns(r)), opList(r));
}

}  // namespace
}  // namespace tessel::models::testing
