// The executor's memory estimate, made before any work, covers what a run really holds.
#include <gtest/gtest.h>

#include "kernels/memory_estimate.h"
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

}  // namespace
}  // namespace tessel::kernels
