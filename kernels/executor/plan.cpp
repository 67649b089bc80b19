#include "kernels/executor/plan.h"

#include <algorithm>

#include "kernels/executor/fused_attention.h"
#include "kernels/executor/support.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

bool isIbertKind(OpKind k) {
  return k == OpKind::Gelu || k == OpKind::Softmax || k == OpKind::LayerNorm ||
         k == OpKind::RmsNorm;
}

// Each models::fuse group, cut at the first member the kernels cannot chain onto its anchor.
// (models::fuse keeps groups disjoint, so no op runs twice.)
std::vector<std::vector<int>> groupChains(const models::Graph& g, const ExecutorOptions& o) {
  std::vector<std::vector<int>> chains;
  if (!o.fuse) return chains;
  models::FuseRules rules = executorFuseRules();
  if (!o.fuse_kinds.empty()) {
    auto& k = rules.epilogue_kinds;
    k.erase(std::remove_if(k.begin(), k.end(),
                           [&](OpKind x) {
                             return std::find(o.fuse_kinds.begin(), o.fuse_kinds.end(), x) ==
                                    o.fuse_kinds.end();
                           }),
            k.end());
  }
  for (const models::FusionGroup& grp : models::fuse(g, rules).groups) {
    std::vector<int> chain{grp.anchor};
    int tensor = g.op(grp.anchor).outputs.at(0);
    for (int m : grp.epilogue) {
      if (!canChain(g, g.op(grp.anchor), g.op(m), tensor, o)) break;
      chain.push_back(m);
      tensor = g.op(m).outputs.at(0);
    }
    if (chain.size() > 1) chains.push_back(std::move(chain));
  }
  return chains;
}

}  // namespace

models::FuseRules executorFuseRules() {
  models::FuseRules r;
  r.epilogue_kinds = {OpKind::Add,      OpKind::Relu,       OpKind::Gelu,    OpKind::BatchNorm,
                      OpKind::Quantize, OpKind::Dequantize, OpKind::Softmax, OpKind::LayerNorm,
                      OpKind::Mul,      OpKind::Sigmoid,    OpKind::Silu,    OpKind::HardSwish,
                      OpKind::RmsNorm};
  return r;
}

bool canChain(const models::Graph& g, const models::Op& anchor, const models::Op& member,
              int chain_tensor, const ExecutorOptions& o) {
  const DType d = g.tensor(member.outputs.at(0)).dtype;
  if (o.integer_nonlinear && d == DType::Int8 && isIbertKind(member.kind)) return false;
  // Block-scaled values are rounded over whole rows once a step is done (executor.cpp), which an
  // epilogue's cache-sized blocks cannot do.
  if (isBlockScaled(d) || isBlockScaled(g.tensor(anchor.outputs.at(0)).dtype)) return false;
  if (!isBlockedAnchor(anchor) || runsInFloat(g, member)) return false;
  if (member.kind == OpKind::Add || member.kind == OpKind::Mul) {
    const int side =
        member.inputs.at(0) == chain_tensor ? member.inputs.at(1) : member.inputs.at(0);
    if (side == chain_tensor) return false;  // x + x: the side input is never written out
  }
  if (anchor.kind != OpKind::BatchMatMul) return true;
  switch (member.kind) {
    case OpKind::Relu:
    case OpKind::Gelu:
    case OpKind::Sigmoid:
    case OpKind::Silu:
    case OpKind::HardSwish:
    case OpKind::Quantize:
    case OpKind::Dequantize:
      return true;
    case OpKind::Softmax:
      return anchor.attn.transpose_b;  // a score head's rows are whole
    default:
      return false;
  }
}

namespace {

// The fused attention chains, then the epilogue groups that share no op with them.
std::vector<Step> fusedSteps(const models::Graph& g, const ExecutorOptions& o) {
  std::vector<Step> steps;
  std::vector<bool> taken(g.ops().size(), false);
  for (std::vector<int>& ops : fusedAttentionChains(g, o)) {
    for (int op : ops) taken[static_cast<size_t>(op)] = true;
    const int last = ops.back();
    steps.push_back({std::move(ops), last, true});
  }
  for (std::vector<int>& ops : groupChains(g, o)) {
    if (std::any_of(ops.begin(), ops.end(), [&](int op) { return taken[static_cast<size_t>(op)]; }))
      continue;
    const int last = ops.back();
    steps.push_back({std::move(ops), last, false});
  }
  return steps;
}

}  // namespace

ExecPlan planExecution(const models::Graph& g, const ExecutorOptions& o) {
  for (const models::Op& op : g.ops()) checkRunnable(g, op);
  ExecPlan plan;
  std::vector<int> group_of(g.ops().size(), -1);
  const std::vector<Step> fused = fusedSteps(g, o);
  for (size_t i = 0; i < fused.size(); ++i)
    for (int op : fused[i].ops) group_of[static_cast<size_t>(op)] = static_cast<int>(i);
  for (const models::Op& op : g.ops()) {
    const int grp = group_of[static_cast<size_t>(op.id)];
    if (grp < 0)
      plan.steps.push_back({{op.id}, op.id});
    else if (fused[static_cast<size_t>(grp)].ops.front() == op.id)
      plan.steps.push_back(fused[static_cast<size_t>(grp)]);
  }
  // A group runs when its last member's turn comes: its side inputs all exist by then.
  std::stable_sort(plan.steps.begin(), plan.steps.end(),
                   [](const Step& a, const Step& b) { return a.position < b.position; });
  plan.last_use.assign(g.tensors().size(), -1);
  plan.step_of.assign(g.ops().size(), -1);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Step& step = plan.steps[s];
    plan.step_ops.push_back(step.ops);
    for (size_t k = 0; k < step.ops.size(); ++k) {
      const models::Op& op = g.op(step.ops[k]);
      plan.step_of[static_cast<size_t>(op.id)] = static_cast<int>(s);
      const int chained = k == 0 ? -1 : g.op(step.ops[k - 1]).outputs.at(0);
      for (int t : op.inputs)
        if (t != chained) plan.last_use[static_cast<size_t>(t)] = static_cast<int>(s);
    }
  }
  return plan;
}

}  // namespace tessel::kernels
