// Fusion changes speed, not results: every tensor a fused run writes equals the unfused run's,
// bit for bit (the fused epilogue runs the very stages the unfused ops run, on the same values).
#include <gtest/gtest.h>

#include <set>

#include "fixtures.h"

namespace tessel::kernels {
namespace {

using testing::reference;
using testing::smallGraph;

// Runs g in `d` fused and unfused; returns how many tensors the fused run did not write.
size_t expectFusedEqualsUnfused(const models::Graph& g, DType d, bool integer_nonlinear = false) {
  const ReferenceRun& ref = reference(g);
  const models::Graph low = lowerGraph(ref.graph, uniformPlan(d));
  ExecutorOptions o;
  o.integer_nonlinear = integer_nonlinear;
  const auto unfused = testing::runAll(low, o, ref);
  o.fuse = true;
  const auto fused = testing::runAll(low, o, ref);
  EXPECT_EQ(unfused.size(), low.ops().size());
  for (const auto& [name, t] : fused) {
    if (!unfused.count(name)) {
      ADD_FAILURE() << name << " was written only by the fused run";
      continue;
    }
    EXPECT_TRUE(testing::sameBits(*unfused.at(name), *t)) << name << " in " << nameOf(d);
  }
  return unfused.size() - fused.size();
}

TEST(ExecutorFusion, Gpt2BlockInt8) {
  // Fused away: qkv-free groups score->softmax, proj->residual (x2), fc->gelu, plus ln_f.
  EXPECT_GE(expectFusedEqualsUnfused(smallGraph("gpt2"), DType::Int8), 5u);
}

TEST(ExecutorFusion, Gpt2BlockInt8IntegerNonlinear) {
  EXPECT_GE(expectFusedEqualsUnfused(smallGraph("gpt2"), DType::Int8, true), 2u);
}

TEST(ExecutorFusion, Gpt2BlockFloatFormats) {
  for (DType d : {DType::FP32, DType::FP16, DType::BF16})
    EXPECT_GE(expectFusedEqualsUnfused(smallGraph("gpt2"), d), 5u);
}

TEST(ExecutorFusion, BertLayerWithLayerNormEpilogues) {
  EXPECT_GE(expectFusedEqualsUnfused(smallGraph("bert"), DType::Int8), 5u);
  EXPECT_GE(expectFusedEqualsUnfused(smallGraph("bert"), DType::FP32), 5u);
}

// ResNet's bottlenecks: conv -> bn -> relu, and conv3 -> bn3 -> add -> relu whose add the
// projection shortcut's group also reaches (models::fuse lists it in both; it runs once).
TEST(ExecutorFusion, Resnet50Bottlenecks) {
  EXPECT_GE(expectFusedEqualsUnfused(smallGraph("resnet50"), DType::Int8), 100u);
  EXPECT_GE(expectFusedEqualsUnfused(smallGraph("resnet50"), DType::FP32), 100u);
}

TEST(ExecutorFusion, EveryOpRunsExactlyOnce) {
  const models::Graph g = lowerGraph(smallGraph("resnet50"), uniformPlan(DType::Int8));
  ExecutorOptions o;
  o.fuse = true;
  const Executor exec(g, testing::store(), o);
  std::multiset<int> seen;
  int prev_last = -1;
  for (const std::vector<int>& step : exec.steps()) {
    seen.insert(step.begin(), step.end());
    EXPECT_GT(step.back(), prev_last);  // steps run in the order of their last op
    prev_last = step.back();
  }
  EXPECT_EQ(seen.size(), g.ops().size());
  for (const models::Op& op : g.ops()) EXPECT_EQ(seen.count(op.id), 1u) << op.name;
}

}  // namespace
}  // namespace tessel::kernels
