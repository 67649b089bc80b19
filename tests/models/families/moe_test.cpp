// Mixtral's routed tokens per expert: uniform and given loads, largest remainder, idle experts.
#include <gtest/gtest.h>

#include "family_checks.h"

namespace tessel::models {
namespace {

// Rows each expert's dispatch Gather hands its MLP in layer 0 (0 = no ops for that expert).
std::vector<int64_t> dispatched(const Graph& g) {
  std::vector<int64_t> rows;
  for (int e = 0; e < 8; ++e) {
    const int id = g.findOp("layers.0.moe.experts." + std::to_string(e) + ".dispatch");
    rows.push_back(id < 0 ? 0 : g.tensor(g.op(id).outputs[0]).shape[0]);
  }
  return rows;
}

// 10 tokens x top-2 = 20 routed over 8 experts: 2.5 each -> 2 each + the 4 left over to the
// first four (equal remainders break ties by index).
TEST(FamiliesMoe, UniformLargestRemainder) {
  const Graph g = build("mixtral-8x7b", opts(10));
  EXPECT_EQ(dispatched(g), (std::vector<int64_t>{3, 3, 3, 3, 2, 2, 2, 2}));
  const Op& d = opNamed(g, "layers.0.moe.experts.0.dispatch");
  EXPECT_EQ(d.kind, OpKind::Gather);
  EXPECT_EQ(d.moe.expert, 0);
  EXPECT_TRUE(d.layout.on_accelerator);
  // Each expert's MLP runs on its own rows: m = T_e.
  EXPECT_EQ(opNamed(g, "layers.0.moe.experts.5.gate_proj").gemm.m, 2);
  EXPECT_EQ(opNamed(g, "layers.0.moe.experts.5.gate_proj").macs, 2LL * 4096 * 14336);
  // Router [T, d] x [d, E], then MoeRoute, then a combine of the gates and all 8 outputs.
  EXPECT_EQ(opNamed(g, "layers.0.moe.router").gemm.n, 8);
  EXPECT_EQ(opNamed(g, "layers.0.moe.route").moe.top_k, 2);
  const Op& combine = opNamed(g, "layers.0.moe.combine");
  EXPECT_EQ(combine.elt.fn, "moe_combine");
  EXPECT_EQ(combine.inputs.size(), 9u);
  EXPECT_EQ(g.tensor(combine.outputs[0]).shape, (std::vector<int64_t>{1, 10, 4096}));
}

// A given load: three equally loaded experts take 20/3 = 6.67 each -> 6, 6, 6 + 2 left over.
TEST(FamiliesMoe, GivenLoad) {
  WorkloadOptions o = opts(10);
  o.expert_load = {1, 1, 1, 0, 0, 0, 0, 0};
  const Graph g = build("mixtral-8x7b", o);
  EXPECT_EQ(dispatched(g), (std::vector<int64_t>{7, 7, 6, 0, 0, 0, 0, 0}));
  EXPECT_EQ(opNamed(g, "layers.0.moe.combine").inputs.size(), 4u);  // gates + 3 experts
  // Decode: B = 4 tokens, 8 routed, two experts at the 1/top_k limit take 4 each.
  WorkloadOptions d = opts(100, 4, "decode");
  d.expert_load = {0, 0, 5, 0, 0, 0, 0, 5};
  EXPECT_EQ(dispatched(build("mixtral-8x7b", d)), (std::vector<int64_t>{0, 0, 4, 0, 0, 0, 0, 4}));
}

// MACs of a MoE layer: the experts' MLPs run sum T_e = T * top_k rows.
TEST(FamiliesMoe, LayerMacsFollowRoutedTokens) {
  const Graph g = build("mixtral-8x7b", opts(64));
  int64_t experts = 0;
  for (const Op& op : g.ops()) {
    if (op.layer == 0 && op.name.find(".experts.") != std::string::npos) experts += op.macs;
  }
  EXPECT_EQ(experts, 64LL * 2 * 3 * 4096 * 14336);
}

}  // namespace
}  // namespace tessel::models
