// Shared setup of the executor tests: small workloads, one weight store per process (weights are
// generated once: GPT-2's 50257 x 768 table dominates every test's setup), FP32 reference runs.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernels/validation/validate.h"
#include "models/workload.h"

namespace tessel::kernels::testing {

// Small graphs, built in FP32: gpt2/bert with 1 block and a 16-token sequence, resnet50 at 32x32.
models::Graph smallGraph(const std::string& workload, int64_t seq = 16, int64_t layers = 1,
                         const std::string& phase = "prefill");
// GPT-2 with 1 block and logits at every position (16 rows for top-1 agreement), and
// ResNet-50 at 32x32 with a batch of 4 images.
models::Graph manyRows(const std::string& workload);

// The process-wide store (seed 1).
WeightStore& store();

// The reference run of a graph (cached for the process).
const ReferenceRun& reference(const models::Graph& graph);

// Runs `lowered` and returns every tensor it writes, by name (the graph outputs included).
std::unordered_map<std::string, std::shared_ptr<const Tensor>> runAll(
    const models::Graph& lowered, const ExecutorOptions& options, const ReferenceRun& ref);

// Bitwise equality of two tensors' values (dtype, shape and quantization params too).
::testing::AssertionResult sameBits(const Tensor& a, const Tensor& b);

}  // namespace tessel::kernels::testing
