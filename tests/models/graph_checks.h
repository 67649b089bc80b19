// Structural invariants every built graph must satisfy, shared by the builder tests.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "models/graph.h"

namespace tessel::models {

inline void expectWellFormed(const Graph& g) {
  std::set<std::string> names;
  for (const Op& op : g.ops()) {
    EXPECT_TRUE(names.insert(op.name).second) << "duplicate op name " << op.name;
    for (int t : op.inputs) {
      // Topological order: an activation is produced by an earlier op.
      if (g.tensor(t).role == TensorRole::Activation) {
        EXPECT_GE(g.producerOf(t), 0) << op.name;
        EXPECT_LT(g.producerOf(t), op.id) << op.name;
      } else {
        EXPECT_EQ(g.producerOf(t), -1) << op.name;
      }
    }
    ASSERT_EQ(op.outputs.size(), 1u) << op.name;
    EXPECT_EQ(g.producerOf(op.outputs[0]), op.id) << op.name;
    if (op.isGemmLike()) {
      EXPECT_GT(op.macs, 0) << op.name;
      EXPECT_EQ(op.macs, op.gemm.macs()) << op.name;
    } else {
      EXPECT_EQ(op.macs, 0) << op.name;
    }
  }
  for (const Tensor& t : g.tensors()) {
    // No dead weights or inputs: everything built is read or is a graph output. An expert no
    // token reaches (fewer routed tokens than experts) keeps its weights: they are in DRAM.
    const bool idle_expert = t.role == TensorRole::Weight && t.name.find(".experts.") != std::string::npos;
    if (t.role != TensorRole::Activation && !idle_expert) {
      EXPECT_FALSE(g.consumersOf(t.id).empty()) << t.name;
    }
    for (int64_t d : t.shape) EXPECT_GT(d, 0) << t.name;
  }
}

inline const Op& opNamed(const Graph& g, const std::string& name) {
  int id = g.findOp(name);
  EXPECT_GE(id, 0) << "no op " << name;
  return g.op(id < 0 ? 0 : id);
}

inline int countKind(const Graph& g, OpKind kind) {
  int n = 0;
  for (const Op& op : g.ops()) n += op.kind == kind;
  return n;
}

}  // namespace tessel::models
