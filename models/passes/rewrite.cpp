#include "models/passes/rewrite.h"

#include <utility>
#include <vector>

namespace tessel::models {

namespace {

// The ops the new graph will contain, in source order, with source tensor ids.
std::vector<Op> emittedOps(const Graph& g, const Rewrite& rewrite) {
  std::vector<Op> ops;
  for (const Op& op : g.ops()) {
    if (rewrite.dropped.count(op.id)) continue;
    auto it = rewrite.replaced.find(op.id);
    ops.push_back(it == rewrite.replaced.end() ? op : it->second);
  }
  return ops;
}

}  // namespace

Graph applyRewrite(const Graph& g, const Rewrite& rewrite) {
  const std::vector<Op> ops = emittedOps(g, rewrite);
  const size_t n = g.tensors().size();
  std::vector<char> touched(n, 0), used(n, 0);
  for (const Op& op : g.ops()) {
    for (int t : op.inputs) touched[static_cast<size_t>(t)] = 1;
    for (int t : op.outputs) touched[static_cast<size_t>(t)] = 1;
  }
  for (const Op& op : ops) {
    for (int t : op.inputs) used[static_cast<size_t>(t)] = 1;
    for (int t : op.outputs) used[static_cast<size_t>(t)] = 1;
  }

  Graph out;
  out.name = g.name;
  out.warnings = g.warnings;
  out.weight_values = g.weight_values;
  out.folded_parameters = g.folded_parameters;
  std::vector<int> remap(n, -1);
  for (const Tensor& t : g.tensors()) {
    const size_t i = static_cast<size_t>(t.id);
    // A parameter no op reads any more (a folded causal mask) still counts: the parameter count
    // is the model file's, whatever the passes recognize.
    const bool keep = used[i] || !touched[i] || t.role == TensorRole::Input;
    if (!keep && t.role == TensorRole::Weight && t.parameter)
      out.folded_parameters += t.elements();
    if (keep)
    {
      remap[i] = out.addTensor(t.name, t.shape, t.dtype, t.role);
      out.tensor(remap[i]).parameter = t.parameter;
    }
  }
  for (Op op : ops) {
    op.id = -1;
    // A tensor whose producer was dropped survives unproduced; addOp then rejects the reader.
    for (int& t : op.inputs) t = remap[static_cast<size_t>(t)];
    for (int& t : op.outputs) t = remap[static_cast<size_t>(t)];
    out.addOp(std::move(op));
  }
  return out;
}

}  // namespace tessel::models
