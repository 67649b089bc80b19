// One fusion pass for both worlds: the functional executor runs a group as one kernel and the
// timing engines charge no intermediate DRAM round trip inside a group.
//
// A group is an anchor (a GEMM-like op) plus the chain of ops that follow it through their
// single-consumer outputs (the epilogue): elementwise ops (bias-free add with a side input,
// relu, gelu, batch norm, quantize, dequantize) and, when allowed, row-wise ops (softmax,
// layer norm) whose rows the anchor's tile must then hold whole.
#pragma once

#include <vector>

#include "models/graph.h"

namespace tessel::models {

struct FuseRules {
  // Which ops may join an epilogue; row-wise kinds (softmax, layer norm) listed here make the
  // anchor keep whole output rows.
  std::vector<OpKind> epilogue_kinds;
  int max_epilogue = 8;  // longest chain
};

struct FusionGroup {
  int anchor = -1;
  std::vector<int> epilogue;  // op ids in execution order
  bool needs_whole_rows = false;
};

struct Fusion {
  std::vector<FusionGroup> groups;
  std::vector<int> group_of;  // op id -> index into groups, -1 when the op runs alone

  bool isFusedMember(int op_id) const;  // in a group but not its anchor
  const FusionGroup* groupOf(int op_id) const;
};

bool isRowwise(OpKind k);
bool isElementwise(OpKind k);

Fusion fuse(const Graph& graph, const FuseRules& rules);

}  // namespace tessel::models
