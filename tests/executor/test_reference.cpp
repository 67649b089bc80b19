// The FP32 executor against the naive double-precision executor, op by op.
//
// Tolerance: rel L2 <= 1e-5 and max |error| <= 1e-5 * max |ref| for every op. FP32 rounds at
// u = 2^-24 = 6e-8; a length-K dot product of random-sign terms errs by about sqrt(K) u relative
// (K <= 3072: 3e-6 worst case, ~1e-7 typical), the fast exp/tanh/erf add < 3e-7, and errors
// compound over the ~17 ops of one block. Measured worst: 8.8e-7 (GPT-2), 6.4e-7 (BERT),
// 1.0e-6 max-abs ratio (ResNet-50 at 32x32). 1e-5 leaves a 10x margin, yet any semantic slip
// shows up far above it: the erf vs tanh GELU forms differ by ~1e-3, a wrong causal offset or
// an unscaled score by O(1), FP16 rounding alone by ~1e-3.
#include <gtest/gtest.h>

#include <cmath>

#include "fixtures.h"
#include "kernels/reference/reference.h"

namespace tessel::kernels {
namespace {

constexpr double kTolerance = 1e-5;

void expectMatchesDouble(const models::Graph& graph) {
  const ReferenceRun& run = testing::reference(graph);
  const RefValues exact = runDoubleReference(run.graph, testing::store());
  for (const models::Op& op : run.graph.ops()) {
    const std::string& name = run.graph.tensor(op.outputs.at(0)).name;
    const std::vector<double>& want = exact.at(name);
    const std::shared_ptr<const Tensor> got = run.find(name);
    ASSERT_TRUE(got) << name;
    double ee = 0, rr = 0, max_err = 0, max_ref = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      if (std::isinf(want[i])) {  // masked scores: -inf in both
        EXPECT_TRUE(std::isinf(got->f32()[i]) && got->f32()[i] < 0) << name << " " << i;
        continue;
      }
      const double e = got->f32()[i] - want[i];
      ee += e * e;
      rr += want[i] * want[i];
      max_err = std::max(max_err, std::fabs(e));
      max_ref = std::max(max_ref, std::fabs(want[i]));
    }
    EXPECT_LE(std::sqrt(ee / rr), kTolerance) << name;
    EXPECT_LE(max_err, kTolerance * max_ref) << name;
  }
}

TEST(ExecutorReference, Gpt2OneBlockMatchesDouble) {
  expectMatchesDouble(testing::smallGraph("gpt2", 12));
}

TEST(ExecutorReference, Gpt2DecodeMatchesDouble) {
  expectMatchesDouble(testing::smallGraph("gpt2", 8, 1, "decode"));
}

TEST(ExecutorReference, BertOneLayerMatchesDouble) {
  expectMatchesDouble(testing::smallGraph("bert", 12));
}

TEST(ExecutorReference, Resnet50At32MatchesDouble) {
  expectMatchesDouble(testing::smallGraph("resnet50"));
}

// Batch 2: attention per sequence, and the LM head reading each sequence's last row (or all).
TEST(ExecutorReference, BatchOfTwoLastRowAndAllLogits) {
  models::WorkloadOptions o;
  o.seq = 6;
  o.batch = 2;
  o.layers = 1;
  o.dtype = DType::FP32;
  expectMatchesDouble(models::build("gpt2", o));
  o.all_logits = true;
  expectMatchesDouble(models::build("gpt2", o));
}

}  // namespace
}  // namespace tessel::kernels
