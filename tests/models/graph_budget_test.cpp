// Whatever builds a graph, its op list cannot grow past the memory budget: the check runs before
// the list doubles (util/budget.h; the test sets a tiny budget instead of building millions).
#include <gtest/gtest.h>

#include <string>

#include "models/graph.h"
#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"

namespace tessel::models {
namespace {

// Adds a chain of `n` Relu ops to g.
void addRelus(Graph& g, int n) {
  int x = g.addTensor("x0", {4}, DType::FP32, TensorRole::Input);
  for (int i = 0; i < n; ++i) {
    const int y = g.addTensor("x" + std::to_string(i + 1), {4}, DType::FP32, TensorRole::Activation);
    Op op;
    op.name = "relu" + std::to_string(i);
    op.kind = OpKind::Relu;
    op.inputs = {x};
    op.outputs = {y};
    g.addOp(std::move(op));
    x = y;
  }
}

TEST(GraphBudget, AnOpListPastTheBudgetIsRefusedBeforeItGrows) {
  const tessel::testing::ScopedEnv budget("TESSEL_MEMORY_BUDGET", "16 MiB");
  Graph g;
  g.name = "chain";
  const std::string e = tessel::testing::errorOf([&] { addRelus(g, 5000); });
  EXPECT_EQ(e.rfind("workload: 8,192 ops in 'chain' would need about", 0), 0u) << e;
  EXPECT_EQ(g.ops().size(), 4096u);  // stopped at the first doubling past 4096
}

TEST(GraphBudget, AGraphWithinTheBudgetGrows) {
  Graph g;
  addRelus(g, 5000);
  EXPECT_EQ(g.ops().size(), 5000u);
}

}  // namespace
}  // namespace tessel::models
