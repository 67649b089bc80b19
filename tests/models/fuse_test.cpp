// The fusion pass: chains follow single consumers, each op joins at most one group, and side
// inputs must exist before the anchor runs.
#include "models/fuse.h"

#include <gtest/gtest.h>

#include <set>

#include "models/workload.h"

namespace tessel::models {
namespace {

FuseRules everything() {
  FuseRules r;
  r.epilogue_kinds = {OpKind::BatchNorm, OpKind::Relu,      OpKind::Add,      OpKind::Gelu,
                      OpKind::Softmax,   OpKind::LayerNorm, OpKind::Quantize, OpKind::Dequantize};
  return r;
}

TEST(ModelsFuse, EveryOpJoinsAtMostOneGroup) {
  for (const char* w : {"resnet50", "gpt2-small", "bert-base"}) {
    WorkloadOptions o;
    o.seq = 32;
    o.image = 64;
    const Graph g = build(w, o);
    const Fusion f = fuse(g, everything());
    std::multiset<int> seen;
    for (const auto& group : f.groups) {
      seen.insert(group.anchor);
      for (int m : group.epilogue) seen.insert(m);
    }
    for (int id : seen) EXPECT_EQ(seen.count(id), 1u) << w << " op " << g.op(id).name;
    for (size_t gi = 0; gi < f.groups.size(); ++gi) {
      for (int m : f.groups[gi].epilogue)
        EXPECT_EQ(f.group_of[static_cast<size_t>(m)], static_cast<int>(gi));
    }
  }
}

TEST(ModelsFuse, SideInputsAreProducedBeforeTheAnchor) {
  WorkloadOptions o;
  o.image = 64;
  const Graph g = build("resnet50", o);
  const Fusion f = fuse(g, everything());
  int adds = 0;
  for (const auto& group : f.groups) {
    for (int m : group.epilogue) {
      for (int t : g.op(m).inputs) {
        const int producer = g.producerOf(t);
        const bool in_chain = producer == group.anchor ||
                              std::find(group.epilogue.begin(), group.epilogue.end(), producer) !=
                                  group.epilogue.end();
        if (!in_chain) {
          EXPECT_LT(producer, group.anchor) << g.op(m).name;
        }
      }
      adds += g.op(m).kind == OpKind::Add;
    }
  }
  // 16 bottlenecks, each with one residual add that some conv chain can absorb.
  EXPECT_EQ(adds, 16);
}

TEST(ModelsFuse, ConvBatchNormReluChain) {
  WorkloadOptions o;
  o.image = 64;
  const Graph g = build("resnet50", o);
  const Fusion f = fuse(g, everything());
  const FusionGroup* stem = f.groupOf(g.findOp("conv1"));
  ASSERT_NE(stem, nullptr);
  ASSERT_EQ(stem->epilogue.size(), 2u);  // bn1, relu (the maxpool is not elementwise)
  EXPECT_EQ(g.op(stem->epilogue[0]).kind, OpKind::BatchNorm);
  EXPECT_EQ(g.op(stem->epilogue[1]).kind, OpKind::Relu);
  EXPECT_TRUE(f.isFusedMember(stem->epilogue[1]));
  EXPECT_FALSE(f.isFusedMember(stem->anchor));
}

}  // namespace
}  // namespace tessel::models
