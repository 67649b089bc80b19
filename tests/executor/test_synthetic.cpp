// Synthetic weights and inputs: deterministic per (seed, name), shared by precision variants, and
// scaled as documented.
#include <gtest/gtest.h>

#include <cmath>

#include "fixtures.h"
#include "kernels/weights/weights.h"

namespace tessel::kernels {
namespace {

using testing::smallGraph;

int tensorId(const models::Graph& g, const std::string& name) {
  for (const models::Tensor& t : g.tensors())
    if (t.name == name) return t.id;
  return -1;
}

double stddev(const Tensor& t, double mean) {
  double s = 0;
  for (int64_t i = 0; i < t.numel(); ++i) s += (t.f32()[i] - mean) * (t.f32()[i] - mean);
  return std::sqrt(s / static_cast<double>(t.numel()));
}

TEST(ExecutorSynthetic, SameNameSameValuesInEveryVariant) {
  const models::Graph g = smallGraph("gpt2");
  const models::Graph low = models::applyPrecision(g, uniformPlan(DType::Int8));
  const SyntheticData d(7);
  const std::string name = "h0.mlp.fc.weight";
  const Tensor a = d.generate(g, tensorId(g, name)), b = d.generate(low, tensorId(low, name));
  EXPECT_TRUE(testing::sameBits(a, b));
  const Tensor c = SyntheticData(8).generate(g, tensorId(g, name));
  EXPECT_FALSE(testing::sameBits(a, c));  // another seed, other values
}

// 768 x 3072 values: the sample std is within 1% of 1/sqrt(fan_in) with overwhelming odds
// (its relative standard error is 1/sqrt(2n) = 0.05%).
TEST(ExecutorSynthetic, WeightScalesFollowFanIn) {
  const models::Graph g = smallGraph("gpt2");
  const SyntheticData d(1);
  EXPECT_NEAR(stddev(d.generate(g, tensorId(g, "h0.mlp.fc.weight")), 0.0), 1 / std::sqrt(768.0),
              0.01 / std::sqrt(768.0));
  EXPECT_NEAR(stddev(d.generate(g, tensorId(g, "h0.mlp.proj.weight")), 0.0), 1 / std::sqrt(3072.0),
              0.01 / std::sqrt(3072.0));
  const Tensor gamma = d.generate(g, tensorId(g, "h0.ln_1.gamma"));
  double mean = 0;
  for (int64_t i = 0; i < gamma.numel(); ++i) mean += gamma.f32()[i] / 768.0;
  EXPECT_NEAR(mean, 1.0, 0.02);  // 1 + N(0, 0.1^2): the mean's standard error is 0.0036
}

TEST(ExecutorSynthetic, IdsPositionsAndDecodeOffset) {
  const models::Graph g = smallGraph("gpt2", 16);
  const SyntheticData d(1);
  const Tensor ids = d.generate(g, tensorId(g, "input_ids"));
  for (int64_t i = 0; i < ids.numel(); ++i) {
    EXPECT_GE(ids.i32()[i], 0);
    EXPECT_LT(ids.i32()[i], 50257);
  }
  const Tensor pos = d.generate(g, tensorId(g, "position_ids"));
  for (int64_t i = 0; i < pos.numel(); ++i) EXPECT_EQ(pos.i32()[i], i);
  // Decode with a cache of L = 9 tokens: the new token sits at position 9.
  const models::Graph dec = smallGraph("gpt2", 9, 1, "decode");
  EXPECT_EQ(d.generate(dec, tensorId(dec, "position_ids")).i32()[0], 9);
}

TEST(ExecutorSynthetic, ActivationsAreNotGenerated) {
  const models::Graph g = smallGraph("gpt2");
  EXPECT_THROW(SyntheticData(1).generate(g, tensorId(g, "h0.ln_1")), Error);
}

}  // namespace
}  // namespace tessel::kernels
