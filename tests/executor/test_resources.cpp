// What long runs need and say: the memory estimate made before any work covers what a run really
// holds, and progress is reported op by op to the end.
#include <gtest/gtest.h>

#include "kernels/validation/memory_estimate.h"
#include "tests/executor/fixtures.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

TEST(ExecutorMemoryEstimate, CoversWhatTheReferenceRunKeeps) {
  for (const char* w : {"gpt2-small", "bert-base", "resnet50"}) {
    const models::Graph g = testing::smallGraph(w);
    const ReferenceRun& ref = testing::reference(g);
    int64_t held = 0;
    for (const auto& [name, t] : ref.activations) held += t->numel() * 4;
    int64_t weights = 0;
    for (const auto& t : g.tensors()) {
      if (t.role == models::TensorRole::Weight) weights += t.elements() * 4;
    }
    // The reference keeps every activation; the weights are held at least once in FP32.
    EXPECT_GE(estimateMemoryBytes(g), held + weights) << w;
  }
}

TEST(ExecutorMemoryEstimate, ASquareGemmOf1e5IsHundredsOfGigabytes) {
  // gemm 1e5 x 1e5 x 1e5: input, weight and output are 1e10 elements each; x 2 for the
  // activation (output), x 2 for the weight, once for the input: 5e10 elements x 4 B = 200 GB.
  models::WorkloadOptions o;
  o.dtype = DType::FP32;
  const models::Graph g = models::build("gemm:M=100000,K=100000,N=100000", o);
  EXPECT_EQ(estimateMemoryBytes(g), int64_t{200000000000});
}

TEST(ExecutorProgress, EveryOpIsReportedUpToTheTotal) {
  const models::Graph g = testing::smallGraph("gpt2-small");
  int64_t calls = 0, last_done = 0, last_total = -1;
  WeightStore& w = testing::store();
  const ReferenceRun ref =
      runReference(g, w, {}, [&](const char* phase, int64_t done, int64_t total) {
        EXPECT_STREQ(phase, "reference");
        EXPECT_GT(done, last_done);  // monotone
        ++calls, last_done = done, last_total = total;
      });
  EXPECT_EQ(last_total, static_cast<int64_t>(ref.graph.ops().size()));
  EXPECT_EQ(last_done, last_total);
  EXPECT_EQ(calls, last_total);  // unfused: one call per op
}

}  // namespace
}  // namespace tessel::kernels
