// Attention around plain batched matmuls: scale and causal mask folding.
#include <gtest/gtest.h>

#include <limits>

#include "models/passes/recognize.h"
#include "tests/models/passes/decomposed.h"
#include "tests/models/passes/pass_checks.h"

namespace tessel::models::testing {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A causal [s, t] pattern: `kept` where j <= i + t - s, `masked` elsewhere.
std::vector<float> causal(int64_t s, int64_t t, float kept, float masked) {
  std::vector<float> v;
  for (int64_t i = 0; i < s; ++i)
    for (int64_t j = 0; j < t; ++j) v.push_back(j <= i + t - s ? kept : masked);
  return v;
}

enum class Mask { None, AddCausal, WhereFillFirst, WhereFillSecond, AddInput };

struct Attention {
  Decomposed d;
  Graph build(Mask mask, bool scale_by_div, int64_t s = 8, int64_t t = 8) {
    const int q = d.input("q", {2, 4, s, 16});
    const int kt = d.input("kt", {2, 4, 16, t});
    const int v = d.input("v", {2, 4, t, 16});
    int x = d.matmul("h0.score", q, kt);
    x = scale_by_div ? d.elt("h0.div", "div", {x, d.scalar("h0.sqrt_d", 4.0f)})
                     : d.mul("h0.mul", d.scalar("h0.inv_sqrt_d", 0.25f), x);
    if (mask == Mask::AddCausal) {
      x = d.add("h0.mask", x, d.constant("h0.bias", {1, 1, s, t}, causal(s, t, 0, -kInf)));
    } else if (mask == Mask::WhereFillFirst) {  // torch masked_fill(~tril, -inf)
      const int cond = d.constant("h0.cond", {s, t}, causal(s, t, 0, 1));
      x = d.elt("h0.mask", "where", {cond, d.scalar("h0.fill", -kInf), x});
    } else if (mask == Mask::WhereFillSecond) {
      const int cond = d.constant("h0.cond", {s, t}, causal(s, t, 1, 0));
      x = d.elt("h0.mask", "where", {cond, x, d.scalar("h0.fill", -1e9f)});
    } else if (mask == Mask::AddInput) {  // a padding mask the caller supplies
      x = d.add("h0.mask", x, d.input("pad", {2, 1, 1, t}));
    }
    d.matmul("h0.context", d.op("h0.softmax", OpKind::Softmax, {x}), v);
    return std::move(d.g);
  }
};

TEST(AttentionPattern, ScaleAndCausalMaskFold) {
  for (Mask mask : {Mask::AddCausal, Mask::WhereFillFirst, Mask::WhereFillSecond}) {
    for (bool div : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "mask " << static_cast<int>(mask) << " div " << div);
      Attention a;
      const Graph g = a.build(mask, div);
      const Graph r = recognizePatterns(g);
      expectSound(g, r);
      ASSERT_EQ(r.ops().size(), 3u);
      const Op& score = opNamed(r, "h0.score");
      EXPECT_EQ(score.kind, OpKind::BatchMatMul);
      EXPECT_EQ(score.attn.heads, 0);
      EXPECT_FLOAT_EQ(score.attn.scale, 0.25f);
      EXPECT_TRUE(score.attn.causal);
      EXPECT_EQ(opNamed(r, "h0.softmax").inputs[0], score.outputs[0]);
      EXPECT_EQ(opNamed(r, "h0.context").inputs[0], opNamed(r, "h0.softmax").outputs[0]);
    }
  }
}

TEST(AttentionPattern, DecodeMaskOffsetByTheCache) {
  Attention a;
  const Graph g = a.build(Mask::AddCausal, true, 4, 12);  // 4 new queries over 12 keys
  const Graph r = recognizePatterns(g);
  ASSERT_EQ(r.ops().size(), 3u);
  EXPECT_TRUE(opNamed(r, "h0.score").attn.causal);
}

TEST(AttentionPattern, ScaleAloneFolds) {
  Attention a;
  const Graph g = a.build(Mask::None, true);
  const Graph r = recognizePatterns(g);
  expectSound(g, r);
  ASSERT_EQ(r.ops().size(), 3u);
  EXPECT_FLOAT_EQ(opNamed(r, "h0.score").attn.scale, 0.25f);
  EXPECT_FALSE(opNamed(r, "h0.score").attn.causal);
}

TEST(AttentionPattern, AnInputMaskStaysAndTheScaleStillFolds) {
  Attention a;
  const Graph g = a.build(Mask::AddInput, false);
  const Graph r = recognizePatterns(g);
  expectSound(g, r);
  ASSERT_EQ(r.ops().size(), 4u);
  EXPECT_FLOAT_EQ(opNamed(r, "h0.score").attn.scale, 0.25f);
  EXPECT_FALSE(opNamed(r, "h0.score").attn.causal);
  const Op& mask = opNamed(r, "h0.mask");
  EXPECT_EQ(mask.inputs[0], opNamed(r, "h0.score").outputs[0]);
  EXPECT_EQ(opNamed(r, "h0.softmax").inputs[0], mask.outputs[0]);
}

TEST(AttentionPattern, ANonCausalConstantMaskStays) {
  Attention a;
  const Graph g = a.build(Mask::AddCausal, true);
  // Unmask one position above the diagonal: a different (sliding-window-like) mask.
  a.d.consts->values_by_name["h0.bias"][1] = 0.0f;
  const Graph r = recognizePatterns(g);
  ASSERT_EQ(r.ops().size(), 4u);
  EXPECT_FALSE(opNamed(r, "h0.score").attn.causal);
  EXPECT_EQ(opNamed(r, "h0.mask").kind, OpKind::Add);
}

TEST(AttentionPattern, AScaledScoreReadElsewhereIsLeftAlone) {
  Attention a;
  Graph g = a.build(Mask::None, true);
  Op peek;
  peek.name = "peek";
  peek.kind = OpKind::Relu;
  peek.inputs = {g.op(g.findOp("h0.div")).outputs[0]};
  peek.outputs = {g.addTensor("peek", {2, 4, 8, 8}, DType::FP32, TensorRole::Activation)};
  g.addOp(peek);
  EXPECT_EQ(opList(recognizePatterns(g)), opList(g));
}

TEST(AttentionPattern, UnknownScaleKeepsEverything) {
  Attention a;
  Graph g = a.build(Mask::AddCausal, true);
  a.d.consts->values_by_name.erase("h0.sqrt_d");
  const Graph r = recognizePatterns(g);
  EXPECT_EQ(opList(r), opList(g));
  EXPECT_EQ(r.warnings.size(), 1u);
}

}  // namespace
}  // namespace tessel::models::testing
