#include "models/fuse.h"

#include <algorithm>

namespace tessel::models {

bool isRowwise(OpKind k) {
  return k == OpKind::Softmax || k == OpKind::LayerNorm || k == OpKind::RmsNorm;
}

bool isElementwise(OpKind k) {
  switch (k) {
    case OpKind::Add:
    case OpKind::Relu:
    case OpKind::Gelu:
    case OpKind::BatchNorm:
    case OpKind::Quantize:
    case OpKind::Dequantize:
    case OpKind::Mul:
    case OpKind::Sigmoid:
    case OpKind::Silu:
    case OpKind::HardSwish:
      return true;
    default:
      return false;
  }
}

bool Fusion::isFusedMember(int op_id) const {
  const FusionGroup* g = groupOf(op_id);
  return g != nullptr && g->anchor != op_id;
}

const FusionGroup* Fusion::groupOf(int op_id) const {
  if (op_id < 0 || static_cast<size_t>(op_id) >= group_of.size()) return nullptr;
  const int g = group_of[static_cast<size_t>(op_id)];
  return g < 0 ? nullptr : &groups[static_cast<size_t>(g)];
}

namespace {

bool allowed(const FuseRules& rules, OpKind k) {
  return std::find(rules.epilogue_kinds.begin(), rules.epilogue_kinds.end(), k) !=
         rules.epilogue_kinds.end();
}

// Side inputs (a residual) must exist before the anchor runs: the epilogue reads them as each
// tile drains, so an activation produced after the anchor cannot join.
bool sideInputsReady(const Graph& g, const Op& next, int tensor, int anchor) {
  for (int t : next.inputs) {
    if (t == tensor) continue;
    const int producer = g.producerOf(t);
    if (producer >= anchor) return false;
  }
  return true;
}

// The next op of a chain ending in `tensor`: its only consumer, if that op continues the chain
// through its first input (a side input such as a residual is read, the chain is not) and no
// other group has claimed it.
int nextInChain(const Graph& g, int tensor, const FuseRules& rules, int anchor,
                const std::vector<int>& group_of) {
  const std::vector<int> consumers = g.consumersOf(tensor);
  if (consumers.size() != 1) return -1;
  const Op& next = g.op(consumers[0]);
  if (!allowed(rules, next.kind) || group_of[static_cast<size_t>(next.id)] >= 0) return -1;
  if (next.host_side) return -1;  // a deployment's conversion runs on the host
  if (next.inputs.empty() || next.inputs[0] != tensor) {
    // Add and Mul are commutative: the chain may arrive on either operand.
    const bool commutative = next.kind == OpKind::Add || next.kind == OpKind::Mul;
    if (!(commutative && next.inputs.size() == 2 && next.inputs[1] == tensor)) {
      return -1;
    }
  }
  return sideInputsReady(g, next, tensor, anchor) ? next.id : -1;
}

}  // namespace

Fusion fuse(const Graph& graph, const FuseRules& rules) {
  Fusion f;
  f.group_of.assign(graph.ops().size(), -1);
  for (const Op& op : graph.ops()) {
    if (!op.isGemmLike()) continue;
    FusionGroup group;
    group.anchor = op.id;
    int tensor = op.outputs.at(0);
    while (static_cast<int>(group.epilogue.size()) < rules.max_epilogue) {
      const int next = nextInChain(graph, tensor, rules, op.id, f.group_of);
      if (next < 0) break;
      group.epilogue.push_back(next);
      group.needs_whole_rows = group.needs_whole_rows || isRowwise(graph.op(next).kind);
      tensor = graph.op(next).outputs.at(0);
    }
    if (group.epilogue.empty()) continue;
    const int index = static_cast<int>(f.groups.size());
    f.group_of[static_cast<size_t>(op.id)] = index;
    for (int member : group.epilogue) f.group_of[static_cast<size_t>(member)] = index;
    f.groups.push_back(std::move(group));
  }
  return f;
}

}  // namespace tessel::models
