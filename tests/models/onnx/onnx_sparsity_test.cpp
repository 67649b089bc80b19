// --sparsity weights=measured on an ONNX file: each weight's own zeros, read from its
// initializer, make it N:M (the sparsest pattern every group satisfies) or give its density.
#include <gtest/gtest.h>

#include "models/sparsity.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "util/error.h"

namespace tessel::models::onnx::test {
namespace {

// x [1, 8] times w [8, 2]: the reduction (K = 8) runs down each column, so groups of 4 are
// w[0..3][c] and w[4..7][c].
std::vector<float> twoFourColumns() {
  std::vector<float> w(16, 1.0f);
  for (int c = 0; c < 2; ++c) {
    // 2 of every 4 kept per column, not 1 of every 2 ({0, 1} both kept)
    for (int k : {2, 3, 4, 5}) w[size_t(k * 2 + c)] = 0.0f;
  }
  return w;
}

Graph matmulWith(std::vector<float> w, const std::string& spec) {
  ModelBuilder b;
  b.input("x", {1, 8});
  b.init("w", {8, 2}, std::move(w));
  b.node("MatMul", {"x", "w"}, {"y"});
  b.output("y");
  WorkloadOptions o;
  o.sparsity = parseSparsitySpec(spec);
  return build(b.write(), o);  // as `--workload FILE.onnx --sparsity ...`
}

Sparsity weightsOf(const Graph& g) {
  const auto ops = opsOf(g, OpKind::MatMul);
  return g.tensor(ops.at(0)->inputs.at(1)).sparsity;
}

TEST(OnnxSparsity, MeasuredTwoFourWeightsAreTwoFour) {
  EXPECT_EQ(weightsOf(matmulWith(twoFourColumns(), "weights=measured")), Sparsity::nm(2, 4));
}

// Zeros placed so groups of 8 hold 4 but one group of 4 holds 3: not 2:4, but 4:8.
TEST(OnnxSparsity, MeasuredPatternIsTheSparsestEveryGroupSatisfies) {
  std::vector<float> w(16, 1.0f);
  for (int c = 0; c < 2; ++c) {
    for (int k : {0, 4, 5, 6}) w[size_t(k * 2 + c)] = 0.0f;  // groups 0..3: 3 kept, 4..7: 1
  }
  EXPECT_EQ(weightsOf(matmulWith(w, "weights=measured")), Sparsity::nm(4, 8));
  // One zero in sixteen fits no pattern: density 15/16.
  std::vector<float> one(16, 1.0f);
  one[5] = 0.0f;  // K = 8 down, N = 2 across: channel 1 keeps 7 of 8, channel 0 all 8
  const Sparsity measured = weightsOf(matmulWith(one, "weights=measured"));
  EXPECT_DOUBLE_EQ(measured.density, 15.0 / 16);
  ASSERT_TRUE(measured.channels);
  EXPECT_EQ(*measured.channels, (std::vector<double>{1.0, 7.0 / 8}));
  EXPECT_EQ(toString(measured), "0.9375 per channel");
  EXPECT_TRUE(weightsOf(matmulWith(one, "weights=measured")).measured);  // the executor keeps them
  EXPECT_TRUE(weightsOf(matmulWith(std::vector<float>(16, 1.0f), "weights=measured")).dense());
}

// A column-wise 1:4 with every value in the other column: 1:4 only where each column has it.
TEST(OnnxSparsity, MeasureSparsityWalksTheReductionOfEachChannel) {
  const WeightLayout rows = matmulWeightLayout({8, 2}, false);  // K = 8 down, N = 2 across
  std::vector<float> w(16, 0.0f);
  for (int c = 0; c < 2; ++c) w[size_t(0 * 2 + c)] = w[size_t(4 * 2 + c)] = 1.0f;
  EXPECT_EQ(measureSparsity(w, rows), Sparsity::nm(1, 4));
  // The same values read as a transposed [N=8, K=2] weight: channels 0 and 4 keep both of their
  // two values, so no pattern holds (and none longer than K = 2 is tried): 4 of 16 non-zero.
  const Sparsity t = measureSparsity(w, matmulWeightLayout({8, 2}, true));
  EXPECT_DOUBLE_EQ(t.density, 0.25);
  ASSERT_TRUE(t.channels);
  EXPECT_EQ(*t.channels, (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0}));
  // Every channel alike: one density, no per-channel list.
  std::vector<float> even(16, 1.0f);
  even[0] = even[1] = 0.0f;  // row 0 of [K = 8, N = 2]: one zero in each channel
  const Sparsity e = measureSparsity(even, rows);
  EXPECT_EQ(e, Sparsity::uniform(14.0 / 16));
  EXPECT_FALSE(e.channels);
}

TEST(OnnxSparsity, MeasuredNeedsWeightValues) {
  WorkloadOptions o;
  o.sparsity = parseSparsitySpec("weights=measured");
  try {
    build("gemm:M=4,N=4,K=4", o);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(e.message().find("no weight values"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace tessel::models::onnx::test
