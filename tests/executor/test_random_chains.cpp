// Randomized fusion check: a MatMul followed by a random chain of elementwise and row-wise ops,
// each op in a random dtype (so Quantize/Dequantize ops join the chain too), on shapes that
// span several blocks. Every tensor the fused run writes must equal the unfused run's bit for bit.
#include <gtest/gtest.h>

#include <random>

#include "fixtures.h"

namespace tessel::kernels {
namespace {

using models::OpKind;

struct Builder {
  models::Graph g;
  int last = -1;
  std::vector<int64_t> shape;

  int weight(const std::string& name, std::vector<int64_t> s) {
    return g.addTensor(name, std::move(s), DType::FP32, models::TensorRole::Weight);
  }
  void emit(models::Op op) {
    op.outputs = {g.addTensor(op.name, shape, DType::FP32, models::TensorRole::Activation)};
    last = op.outputs[0];
    g.addOp(std::move(op));
  }
};

models::Graph randomChain(uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t ms[] = {5, 70, 300}, ns[] = {16, 96, 300}, ks[] = {8, 64, 200};
  const int64_t m = ms[rng() % 3], n = ns[rng() % 3], k = ks[rng() % 3];
  Builder b;
  b.g.name = "chain" + std::to_string(seed);
  b.shape = {1, m, n};
  models::Op mm;
  mm.name = "mm";
  mm.kind = OpKind::MatMul;
  mm.inputs = {b.g.addTensor("x", {1, m, k}, DType::FP32, models::TensorRole::Input),
               b.weight("mm.weight", {k, n}), b.weight("mm.bias", {n})};
  mm.gemm = {1, m, n, k};
  b.emit(mm);
  const OpKind kinds[] = {OpKind::Relu,      OpKind::Gelu,      OpKind::Add,
                          OpKind::BatchNorm, OpKind::LayerNorm, OpKind::Softmax};
  const int length = 1 + static_cast<int>(rng() % 6);
  for (int i = 0; i < length; ++i) {
    models::Op op;
    op.name = "op" + std::to_string(i);
    op.kind = kinds[rng() % 6];
    op.gelu_tanh = rng() % 2;
    op.inputs = {b.last};
    if (op.kind == OpKind::Add)
      op.inputs.push_back(
          b.g.addTensor("r" + std::to_string(i), b.shape, DType::FP32, models::TensorRole::Input));
    if (op.kind == OpKind::BatchNorm || op.kind == OpKind::LayerNorm) {
      op.inputs.push_back(b.weight(op.name + ".a", {n}));
      op.inputs.push_back(b.weight(op.name + ".b", {n}));
    }
    b.emit(op);
  }
  return std::move(b.g);
}

models::PrecisionPlan randomPlan(const models::Graph& g, uint32_t seed) {
  std::mt19937 rng(seed * 7919u);
  const DType dtypes[] = {DType::Int8, DType::Int8, DType::FP32, DType::FP16, DType::BF16};
  models::PrecisionPlan plan = uniformPlan(DType::FP32);
  for (const models::Op& op : g.ops()) plan.set(op.name, dtypes[rng() % 5]);
  return plan;
}

TEST(ExecutorRandomChains, FusedEqualsUnfusedBitForBit) {
  int fused_ops = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const models::Graph g = randomChain(seed);
    const ReferenceRun& ref = testing::reference(g);
    const models::Graph low = lowerGraph(ref.graph, randomPlan(g, seed));
    for (bool integer : {false, true}) {
      ExecutorOptions o;
      o.integer_nonlinear = integer;
      const auto unfused = testing::runAll(low, o, ref);
      o.fuse = true;
      const auto fused = testing::runAll(low, o, ref);
      fused_ops += static_cast<int>(unfused.size() - fused.size());
      for (const auto& [name, t] : fused)
        EXPECT_TRUE(testing::sameBits(*unfused.at(name), *t)) << g.name << " " << name;
    }
  }
  EXPECT_GT(fused_ops, 100);  // the chains really fused
}

// Random per-op dtypes on a GPT-2 block: conversions land inside attention epilogues (score ->
// quantize -> softmax with the causal mask restored), LM-head tied weights get converted, and
// fused still equals unfused.
TEST(ExecutorRandomChains, Gpt2RandomMixedPlans) {
  const models::Graph g = testing::smallGraph("gpt2", 8);
  const ReferenceRun& ref = testing::reference(g);
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const models::Graph low = lowerGraph(ref.graph, randomPlan(g, seed));
    ExecutorOptions o;
    o.integer_nonlinear = seed % 2 == 0;
    const auto unfused = testing::runAll(low, o, ref);
    o.fuse = true;
    for (const auto& [name, t] : testing::runAll(low, o, ref))
      EXPECT_TRUE(testing::sameBits(*unfused.at(name), *t)) << "seed " << seed << " " << name;
    const ValidationReport v = validate(ref, low, testing::store(), o);
    EXPECT_GT(v.output.error.cosine, 0.99) << "seed " << seed;
  }
}

}  // namespace
}  // namespace tessel::kernels
