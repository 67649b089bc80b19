// LayerNorm and RMSNorm recognition: each spelling the pass claims, and near misses it must
// leave alone.
#include <gtest/gtest.h>

#include "models/passes/recognize.h"
#include "tests/models/passes/decomposed.h"
#include "tests/models/passes/pass_checks.h"

namespace tessel::models::testing {
namespace {

// linear -> decomposed LayerNorm -> linear, so the graph has MACs and readers around it.
Graph withLayerNorm(const LayerNormSpec& spec, Decomposed& d) {
  const int x = detail::linear(d.b, "fc1", d.input("x"), 16, true);
  detail::linear(d.b, "fc2", layerNorm(d, "ln", x, spec), 16, true);
  return std::move(d.g);
}

TEST(LayerNormPattern, TorchExportFormBecomesOneOp) {
  Decomposed d;
  d.b.layer = 3;
  const Graph g = withLayerNorm({}, d);
  const Graph r = recognizePatterns(g);
  expectSound(g, r);
  ASSERT_EQ(r.ops().size(), 3u);
  const Op& ln = opNamed(r, "ln.beta");
  EXPECT_EQ(ln.kind, OpKind::LayerNorm);
  EXPECT_FLOAT_EQ(ln.eps, 1e-5f);
  EXPECT_EQ(ln.layer, 3);
  EXPECT_EQ(r.tensor(ln.outputs[0]).name, "ln.beta");  // the pattern's output tensor
  ASSERT_EQ(ln.inputs.size(), 3u);
  EXPECT_EQ(r.tensor(ln.inputs[0]).name, "fc1");
  EXPECT_EQ(r.tensor(ln.inputs[1]).name, "ln.weight");
  EXPECT_EQ(r.tensor(ln.inputs[2]).name, "ln.bias");
  // The output keeps its tensor, so fc2 still reads it.
  EXPECT_EQ(opNamed(r, "fc2").inputs[0], ln.outputs[0]);
  // Every replaced op is listed; the scalar constants are gone, gamma and beta stay.
  for (const char* n : {"ln.mean", "ln.sub", "ln.pow", "ln.var", "ln.add_eps", "ln.sqrt", "ln.div",
                        "ln.gamma", "ln.beta"})
    EXPECT_NE(ln.source.find(std::string("op '") + n + "'"), std::string::npos) << n;
  // The 2 and the eps tensors are gone, but the count is the model's: unchanged.
  EXPECT_EQ(r.parameterCount(), g.parameterCount());
  // Gone: the 2 constants and the outputs of the 8 ops before the last (mean .. gamma).
  EXPECT_EQ(r.tensors().size(), g.tensors().size() - 2 - 8);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(LayerNormPattern, OtherSpellingsAndOperandOrders) {
  for (Divide divide : {Divide::Div, Divide::Reciprocal, Divide::DivOne}) {
    for (bool square_by_mul : {false, true}) {
      for (bool swap : {false, true}) {
        LayerNormSpec spec;
        spec.divide = divide;
        spec.square_by_mul = square_by_mul;
        spec.swap = swap;
        spec.eps = 1e-12f;
        Decomposed d;
        const Graph g = withLayerNorm(spec, d);
        const Graph r = recognizePatterns(g);
        SCOPED_TRACE(::testing::Message() << "divide " << static_cast<int>(divide) << " mul "
                                          << square_by_mul << " swap " << swap);
        expectSound(g, r);
        ASSERT_EQ(r.ops().size(), 3u);
        EXPECT_EQ(opNamed(r, "ln.beta").kind, OpKind::LayerNorm);
        EXPECT_FLOAT_EQ(opNamed(r, "ln.beta").eps, 1e-12f);
      }
    }
  }
}

TEST(LayerNormPattern, NearMissesAreLeftAlone) {
  LayerNormSpec cube;
  cube.exponent = 3.0f;  // mean of cubes is not a variance
  LayerNormSpec wrong_axis;
  wrong_axis.variance_axis = 1;  // variance over the sequence, not the features
  for (const LayerNormSpec& spec : {cube, wrong_axis}) {
    Decomposed d;
    const Graph g = withLayerNorm(spec, d);
    const Graph r = recognizePatterns(g);
    EXPECT_EQ(opList(r), opList(g));
    EXPECT_TRUE(r.warnings.empty());
  }
}

TEST(LayerNormPattern, AnIntermediateWithASecondReaderKeepsTheOps) {
  Decomposed d;
  const int x = d.input("x");
  layerNorm(d, "ln", x);
  // Something else reads the standard deviation: replacing the pattern would orphan it.
  d.elt("other", "exp", {d.g.tensor(d.g.op(d.g.findOp("ln.sqrt")).outputs[0]).id});
  const Graph r = recognizePatterns(d.g);
  EXPECT_EQ(opList(r), opList(d.g));
}

TEST(LayerNormPattern, UnknownConstantsKeepTheOpsAndSaySo) {
  Decomposed d;
  Graph g = withLayerNorm({}, d);
  g.weight_values = nullptr;  // structure matches, but eps and the exponent are unknown
  const Graph r = recognizePatterns(g);
  EXPECT_EQ(opList(r), opList(g));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("LayerNorm"), std::string::npos);
}

Graph withRmsNorm(const RmsNormSpec& spec, Decomposed& d) {
  const int x = detail::linear(d.b, "fc1", d.input("x"), 16, false);
  detail::linear(d.b, "fc2", rmsNorm(d, "rms", x, spec), 16, false);
  return std::move(d.g);
}

TEST(RmsNormPattern, LlamaExportFormBecomesOneOp) {
  Decomposed d;
  const Graph g = withRmsNorm({}, d);
  const Graph r = recognizePatterns(g);
  expectSound(g, r);
  ASSERT_EQ(r.ops().size(), 3u);
  const Op& rms = opNamed(r, "rms.gamma");
  EXPECT_EQ(rms.kind, OpKind::RmsNorm);
  EXPECT_FLOAT_EQ(rms.eps, 1e-6f);
  ASSERT_EQ(rms.inputs.size(), 2u);
  EXPECT_EQ(r.tensor(rms.inputs[0]).name, "fc1");
  EXPECT_EQ(r.tensor(rms.inputs[1]).name, "rms.weight");
}

TEST(RmsNormPattern, OtherSpellings) {
  for (Divide divide : {Divide::Div, Divide::Reciprocal, Divide::DivOne}) {
    for (bool square_by_mul : {false, true}) {
      for (bool swap : {false, true}) {
        RmsNormSpec spec;
        spec.divide = divide;
        spec.square_by_mul = square_by_mul;
        spec.swap = swap;
        Decomposed d;
        const Graph g = withRmsNorm(spec, d);
        const Graph r = recognizePatterns(g);
        expectSound(g, r);
        ASSERT_EQ(r.ops().size(), 3u);
        EXPECT_EQ(opNamed(r, "rms.gamma").kind, OpKind::RmsNorm);
      }
    }
  }
}

TEST(RmsNormPattern, ANonUnitNumeratorIsNotARsqrt) {
  Decomposed d;
  const Graph g = withRmsNorm({}, d);
  d.consts->values_by_name["rms.one"] = {2.0f};  // 2 / sqrt(.) doubles the output
  const Graph r = recognizePatterns(g);
  EXPECT_EQ(opList(r), opList(g));
}

}  // namespace
}  // namespace tessel::models::testing
