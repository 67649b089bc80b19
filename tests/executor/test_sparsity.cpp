// Weight sparsity in the executor and `tessel validate`: pruned weights against the dense FP32
// reference, quantization after pruning, the measured input zeros, and the CLI's report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fixtures.h"
#include "kernels/validation/sparsity_stats.h"
#include "kernels/weights/prune.h"
#include "models/sparsity.h"
#include "tests/cli_runner.h"

namespace tessel::kernels {
namespace {

using testing::sameBits;
using testing::smallGraph;
using testing::store;

models::Graph withSparsity(const models::Graph& g, const std::string& spec) {
  models::Graph s = g;
  models::applySparsity(s, models::parseSparsitySpec(spec));
  return s;
}

// GPT-2, 1 block, FP32 with 2:4 weights: the two smaller of four N(0, 1) magnitudes carry 13% of
// the energy (E[sum of the two smallest squares] / E[sum of four], 0.132 by a 10^6-group Monte
// Carlo), so each pruned weight matrix is off by sqrt(0.132) = 0.36 in relative L2 and so is a
// matmul on random activations; the first one (qkv) and the logits must show at least 0.2.
TEST(ExecutorSparsity, Fp32TwoFourAgainstTheDenseReference) {
  const models::Graph dense = smallGraph("gpt2");
  const models::Graph sparse = withSparsity(dense, "weights=2:4");
  const ReferenceRun ref = runReference(sparse, store());
  // The reference ran the dense weights: its logits are the dense graph's, bit for bit.
  const ReferenceRun& dense_ref = testing::reference(dense);
  ASSERT_EQ(ref.output, dense_ref.output);
  EXPECT_TRUE(sameBits(*ref.find(ref.output), *dense_ref.find(ref.output)));
  const models::Graph low = lowerGraph(ref.graph, uniformPlan(DType::FP32));
  const ValidationReport rep = validate(ref, low, store(), {});
  EXPECT_GT(rep.output.error.rel_l2, 0.2);
  const OpReport& qkv = rep.ops.at(static_cast<size_t>(low.findOp("h0.attn.qkv")));
  ASSERT_TRUE(qkv.compared);
  EXPECT_GT(qkv.error.rel_l2, 0.2);
  // The same graph without sparsity compares FP32 with itself: exact.
  const ValidationReport same =
      validate(dense_ref, lowerGraph(dense_ref.graph, uniformPlan(DType::FP32)), store(), {});
  EXPECT_EQ(same.output.error.max_abs, 0.0);
}

// A dense spec (weights=1:1 parses as dense) leaves the graph, and so the INT8 run, as it was.
TEST(ExecutorSparsity, DenseSpecIsTheRunWithout) {
  const models::Graph g = smallGraph("gpt2");
  const models::Graph d = withSparsity(g, "weights=1:1,inputs=1");
  const ReferenceRun& ref = testing::reference(g);
  const ExecutorOptions opt;
  const auto a = testing::runAll(lowerGraph(g, uniformPlan(DType::Int8)), opt, ref);
  const auto b = testing::runAll(lowerGraph(d, uniformPlan(DType::Int8)), opt, ref);
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, t] : a) EXPECT_TRUE(sameBits(*t, *b.at(name))) << name;
}

// INT8 and MXFP4 weights are made from the pruned values: a pruned zero stays 0 and the
// per-channel (per-block) scales are those of the pruned tensor.
TEST(ExecutorSparsity, QuantizedAfterPruning) {
  const models::Graph sparse = withSparsity(smallGraph("gpt2"), "weights=2:4");
  const models::Graph low = lowerGraph(sparse, uniformPlan(DType::Int8));
  int checked = 0;
  for (const models::Tensor& t : low.tensors()) {
    if (t.role != models::TensorRole::Weight || t.sparsity.dense()) continue;
    ASSERT_TRUE(pruneLayout(low, t.id)) << t.name;
    const std::shared_ptr<const Tensor> raw = store().raw(low, t.id);
    // Every fan-in here (768, 3072) is a multiple of 4: exactly half the values are zero.
    EXPECT_EQ(countZeros(*raw).zeros * 2, raw->numel()) << t.name;
    const std::shared_ptr<const Tensor> q = store().weight(low, t.id, DType::Int8);
    EXPECT_TRUE(sameBits(*q, quantizeWeight(*raw, weightAxis(low, t.id)))) << t.name;
    const std::shared_ptr<const Tensor> mx = store().weight(low, t.id, *parseDType("mxfp4"));
    for (int64_t i = 0; i < raw->numel(); ++i) {
      if (raw->f32()[i] != 0.0f) continue;
      ASSERT_EQ(q->i8()[i], 0) << t.name << " " << i;
      ASSERT_EQ(mx->f32()[i], 0.0f) << t.name << " " << i;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 5);  // wte (tied lm_head), qkv, attn.proj, mlp.fc, mlp.proj
  const ReferenceRun ref = runReference(sparse, store());
  EXPECT_GT(validate(ref, low, store(), {}).output.error.rel_l2, 0.2);  // as in FP32 above
}

// Measured zeros (weights=measured) are the values' own: the store does not prune them again,
// here a synthetic Gaussian weight marked 50 % dense keeps every value.
TEST(ExecutorSparsity, MeasuredWeightsAreNotPrunedAgain) {
  models::Graph g = smallGraph("gpt2");
  int marked = -1;
  for (const models::Tensor& t : g.tensors()) {
    if (t.role == models::TensorRole::Weight && pruneLayout(g, t.id) && t.name != "wte") marked = t.id;
  }
  ASSERT_GE(marked, 0);
  g.tensor(marked).sparsity = Sparsity::uniform(0.5);
  g.tensor(marked).sparsity.measured = true;
  EXPECT_EQ(countZeros(*store().raw(g, marked)).zeros, 0) << g.tensor(marked).name;
}

// ResNet-50's convs read ReLU outputs: the zeros validate counts are those of the reference's
// tensors (the FP32 run computes the same bits), summed once per reading MatMul/Conv2d.
TEST(ExecutorSparsity, InputZerosCountedPerReadingOp) {
  const models::Graph g = smallGraph("resnet50");
  const ReferenceRun& ref = testing::reference(g);
  const models::Graph low = lowerGraph(ref.graph, uniformPlan(DType::FP32));
  const ValidationReport rep = validate(ref, low, store(), {});
  ZeroCount want;
  for (const models::Op& op : low.ops()) {
    if (op.kind != models::OpKind::MatMul && op.kind != models::OpKind::Conv2d) continue;
    want += countZeros(*ref.find(low.tensor(op.inputs.at(0)).name));
  }
  EXPECT_EQ(rep.gemm_input_zeros.values, want.values);
  EXPECT_EQ(rep.gemm_input_zeros.zeros, want.zeros);
  EXPECT_EQ(rep.gemm_input_zeros.tensors, want.tensors);
  EXPECT_GT(want.zeros, 0);  // ReLU zeros every negative pre-activation
}

using tessel::testing::runTessel;
const std::string kGemm = "validate --workload gemm:M=16,K=64,N=32";

// One 64 x 32 weight of N(0, 1/64) values (no zeros), K = 16 groups of 4: 2:4 keeps exactly half.
TEST(ExecutorSparsityCli, JsonAndTableReportTheSparsity) {
  const auto r = runTessel(kGemm + " --precision fp32 --sparsity weights=2:4 --json -");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("sparsity")) << r.out;
  EXPECT_EQ(j["sparsity"]["weights"], "2:4");
  EXPECT_EQ(j["sparsity"]["inputs"], "dense");
  EXPECT_EQ(j["sparsity"]["weights_density"], 0.5);
  EXPECT_EQ(j["sparsity"]["pruned_tensors"], 1);
  EXPECT_EQ(j["sparsity"]["input_zeros"], 0.0);  // the input is N(0, 1): no exact zeros
  EXPECT_GT(j["output"]["error"]["rel_l2"].get<double>(), 0.2);  // sqrt(0.132), as above
  const auto t = runTessel(kGemm + " --sparsity weights=2:4");
  ASSERT_EQ(t.code, 0) << t.out;
  EXPECT_NE(t.out.find("sparsity: weights 2:4 (magnitude-pruned per output channel: density "
                       "0.5000 over 1 tensor"),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("matmul/conv input activations: 0.00% zeros"), std::string::npos) << t.out;
}

// Without --sparsity nothing is added; a dense --sparsity adds the field and changes nothing else.
TEST(ExecutorSparsityCli, DenseOrAbsentLeavesTheReport) {
  const auto plain = runTessel(kGemm + " --json -");
  ASSERT_EQ(plain.code, 0) << plain.out;
  auto a = nlohmann::json::parse(plain.out);
  EXPECT_FALSE(a.contains("sparsity"));
  const auto dense = runTessel(kGemm + " --sparsity weights=1:1 --json -");
  ASSERT_EQ(dense.code, 0) << dense.out;
  auto b = nlohmann::json::parse(dense.out);
  ASSERT_TRUE(b.contains("sparsity"));
  EXPECT_TRUE(b["sparsity"]["weights_density"].is_null());  // nothing was pruned
  b.erase("sparsity");
  EXPECT_EQ(a, b);
  EXPECT_EQ(runTessel(kGemm).out.find("sparsity"), std::string::npos);
}

TEST(ExecutorSparsityCli, BadPatternExitsTwo) {
  const auto r = runTessel(kGemm + " --sparsity weights=3:2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--sparsity: weights: the pattern 3:2 keeps more values (N) than each "
                       "group has (M); expected N <= M"),
            std::string::npos)
      << r.out;
  for (const char* bad : {"weights=2:4,weights=1:4", "bias=2:4", "weights=0", "weights=2:x",
                          "weights=2:4,", "''", "weights=2:4,,inputs=0.5"}) {
    const auto b = runTessel(kGemm + " --sparsity " + bad);
    EXPECT_EQ(b.code, 2) << bad << "\n" << b.out;
  }
}

// The precision search ranks dtypes of a dense model: asked with a sparsity, it says where to go.
TEST(ExecutorSparsityCli, PrecisionSendsSparsityToValidate) {
  const auto r = runTessel("precision --workload gemm:M=16,K=32,N=16 --tolerance 0.01 --sparsity weights=2:4");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("tessel validate --sparsity"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tessel::kernels
