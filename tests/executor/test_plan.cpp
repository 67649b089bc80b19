// Execution planning (fusion groups, lifetimes) and the --layers prefix of the builders.
#include <gtest/gtest.h>

#include <memory>

#include "fixtures.h"
#include "kernels/executor/plan.h"

namespace tessel::kernels {
namespace {

using testing::smallGraph;

// With integer_nonlinear the I-BERT ops need an INT32 widening no chain stage provides: they run
// alone, and the GEMMs before them keep only their own epilogue.
TEST(ExecutorPlan, IbertOpsRunAlone) {
  const models::Graph g = lowerGraph(smallGraph("gpt2"), uniformPlan(DType::Int8));
  ExecutorOptions o;
  o.fuse = true;
  o.integer_nonlinear = true;
  const ExecPlan plan = planExecution(g, o);
  for (const Step& s : plan.steps)
    for (size_t k = 1; k < s.ops.size(); ++k) {
      const models::OpKind kind = g.op(s.ops[k]).kind;
      EXPECT_TRUE(kind != models::OpKind::Gelu && kind != models::OpKind::Softmax &&
                  kind != models::OpKind::LayerNorm)
          << g.op(s.ops[k]).name;
    }
}

// Tensors die after their last reader: a GPT-2 block never holds more than a handful of
// activations at once (the residual stream, qkv, the scores or probabilities, and the tensor
// being written), however long the model.
TEST(ExecutorPlan, TensorsAreFreedAfterTheirLastReader) {
  const models::Graph g = smallGraph("gpt2", 16, 2);
  const ReferenceRun& ref = testing::reference(g);
  std::vector<std::weak_ptr<const Tensor>> seen;
  size_t peak = 0;
  Executor exec(ref.graph, testing::store());
  exec.run([&](const models::Op&, const std::shared_ptr<const Tensor>& t) {
    seen.push_back(t);
    size_t alive = 0;
    for (const auto& w : seen) alive += !w.expired();
    peak = std::max(peak, alive);
  });
  EXPECT_LE(peak, 5u);
  EXPECT_GT(seen.size(), 25u);
}

TEST(ExecutorLayers, PrefixKeepsTheHead) {
  const models::Graph g = smallGraph("gpt2", 8, 2);
  EXPECT_GE(g.findOp("h1.mlp.residual"), 0);
  EXPECT_LT(g.findOp("h2.ln_1"), 0);
  EXPECT_GE(g.findOp("ln_f"), 0);
  EXPECT_GE(g.findOp("lm_head"), 0);
  EXPECT_NE(g.name.find("layers=2"), std::string::npos);
  const models::Graph b = smallGraph("bert", 8, 3);
  EXPECT_GE(b.findOp("layer2.ffn.ln"), 0);
  EXPECT_LT(b.findOp("layer3.attn.qkv"), 0);
  models::WorkloadOptions all;
  all.seq = 8;
  EXPECT_EQ(models::build("gpt2", all).ops().size(), smallGraph("gpt2", 8, 12).ops().size());
}

TEST(ExecutorLayers, BadPrefixesAreConfigErrors) {
  models::WorkloadOptions o;
  o.seq = 8;
  o.layers = 13;
  EXPECT_THROW(models::build("gpt2", o), ConfigError);
  o.layers = -1;
  EXPECT_THROW(models::build("bert", o), ConfigError);
  o.layers = 2;
  EXPECT_THROW(models::build("resnet50", o), ConfigError);
  EXPECT_THROW(models::build("gemm:M=4,K=4,N=4", o), ConfigError);
}

}  // namespace
}  // namespace tessel::kernels
