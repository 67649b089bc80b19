#include "models/chains.h"

#include <algorithm>

namespace tessel::models {

std::string_view nameOf(ChainKind k) {
  switch (k) {
    case ChainKind::Attention:
      return "attention";
    case ChainKind::Ffn:
      return "ffn";
    case ChainKind::ConvChain:
      return "conv";
  }
  return "?";
}

namespace {

// The only consumer of `tensor`, or -1.
int soleConsumer(const Graph& g, int tensor) {
  const std::vector<int> c = g.consumersOf(tensor);
  return c.size() == 1 ? c[0] : -1;
}

bool isScore(const Op& op) {
  return op.kind == OpKind::BatchMatMul && op.attn.heads > 0 && op.attn.transpose_b;
}

bool isContext(const Op& op) {
  return op.kind == OpKind::BatchMatMul && op.attn.heads > 0 && !op.attn.transpose_b;
}

// A per-element op between a score and its softmax: an exported scale or additive mask, whose
// other operand is a weight or a graph input (never an activation computed elsewhere).
bool isScoreElementwise(const Graph& g, const Op& op, int chain) {
  if (op.kind != OpKind::Mul && op.kind != OpKind::Add && op.kind != OpKind::Elementwise &&
      op.kind != OpKind::Quantize && op.kind != OpKind::Dequantize) {
    return false;
  }
  for (int t : op.inputs) {
    if (t != chain && g.tensor(t).role == TensorRole::Activation) return false;
  }
  return true;
}

bool attentionFrom(const Graph& g, const Op& score, ChainGroup& out) {
  ChainGroup c;
  c.kind = ChainKind::Attention;
  c.score = score.id;
  c.ops.push_back(score.id);
  int tensor = score.outputs.at(0);
  for (;;) {
    const int next = soleConsumer(g, tensor);
    if (next < 0) return false;
    const Op& op = g.op(next);
    if (op.kind == OpKind::Softmax) {
      c.softmax = op.id;
      c.ops.push_back(op.id);
      tensor = op.outputs.at(0);
      break;
    }
    if (!isScoreElementwise(g, op, tensor) || c.ops.size() > 4) return false;
    c.ops.push_back(op.id);
    tensor = op.outputs.at(0);
  }
  // Quantize/dequantize between the softmax and the context (an integer plan) stay in the chain.
  for (;;) {
    const int next = soleConsumer(g, tensor);
    if (next < 0) return false;
    const Op& op = g.op(next);
    if (isContext(op) && op.inputs.at(0) == tensor && op.attn.heads == score.attn.heads) {
      c.context = op.id;
      c.ops.push_back(op.id);
      break;
    }
    if ((op.kind != OpKind::Quantize && op.kind != OpKind::Dequantize) || c.ops.size() > 6)
      return false;
    c.ops.push_back(op.id);
    tensor = op.outputs.at(0);
  }
  out = std::move(c);
  return true;
}

bool isActivation(OpKind k) {
  return k == OpKind::Gelu || k == OpKind::Silu || k == OpKind::Relu || k == OpKind::Sigmoid ||
         k == OpKind::HardSwish;
}

// A plain MatMul projection reading activation `x` with a weight.
bool isProjection(const Graph& g, const Op& op) {
  return op.kind == OpKind::MatMul && op.inputs.size() >= 2 &&
         g.tensor(op.inputs[1]).role == TensorRole::Weight;
}

// An FFN ending in `down`: down reads act(up) or act(gate) * up, the projections reading one
// input, each intermediate read only inside the chain.
bool ffnInto(const Graph& g, const Op& down, ChainGroup& out) {
  if (!isProjection(g, down)) return false;
  const int h = down.inputs[0];
  const int hp = g.producerOf(h);
  if (hp < 0 || soleConsumer(g, h) != down.id) return false;
  ChainGroup c;
  c.kind = ChainKind::Ffn;
  c.down = down.id;
  const Op& hop = g.op(hp);
  int act = -1;
  if (hop.kind == OpKind::Mul && hop.inputs.size() == 2) {
    // act(gate) * up, in either operand order.
    for (int side = 0; side < 2 && act < 0; ++side) {
      const int a = g.producerOf(hop.inputs[static_cast<size_t>(side)]);
      const int u = g.producerOf(hop.inputs[static_cast<size_t>(1 - side)]);
      if (a < 0 || u < 0 || !isActivation(g.op(a).kind) || !isProjection(g, g.op(u))) continue;
      const int gate = g.producerOf(g.op(a).inputs.at(0));
      if (gate < 0 || !isProjection(g, g.op(gate))) continue;
      if (g.op(gate).inputs[0] != g.op(u).inputs[0]) continue;
      if (soleConsumer(g, g.op(gate).outputs.at(0)) != a ||
          soleConsumer(g, g.op(a).outputs.at(0)) != hop.id ||
          soleConsumer(g, g.op(u).outputs.at(0)) != hop.id) {
        continue;
      }
      act = a;
      c.up = {gate, u};
      c.gate_mul = hop.id;
    }
    if (act < 0) return false;
  } else if (isActivation(hop.kind)) {
    const int u = g.producerOf(hop.inputs.at(0));
    if (u < 0 || !isProjection(g, g.op(u)) || soleConsumer(g, g.op(u).outputs.at(0)) != hop.id)
      return false;
    act = hop.id;
    c.up = {u};
  } else {
    return false;
  }
  c.activation = act;
  c.ops = c.up;
  c.ops.push_back(act);
  if (c.gate_mul >= 0) c.ops.push_back(c.gate_mul);
  c.ops.push_back(down.id);
  std::sort(c.ops.begin(), c.ops.end());
  out = std::move(c);
  return true;
}

// A per-element op a conv's output may drain through on its way to the next conv: one
// activation operand (`chain`), the others weights or graph inputs, the shape unchanged.
bool isConvEpilogue(const Graph& g, const Op& op, int chain) {
  switch (op.kind) {
    case OpKind::BatchNorm:
    case OpKind::Relu:
    case OpKind::Quantize:
    case OpKind::Dequantize:
    case OpKind::Sigmoid:
    case OpKind::Silu:
    case OpKind::HardSwish:
    case OpKind::Gelu:
    case OpKind::Elementwise:
    case OpKind::Mul:
    case OpKind::Add:
      break;
    default:
      return false;
  }
  if (op.inputs.empty() || op.inputs[0] != chain || op.outputs.size() != 1) return false;
  if (g.tensor(op.outputs[0]).shape != g.tensor(chain).shape) return false;
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    if (g.tensor(op.inputs[i]).role == TensorRole::Activation) return false;
  }
  return true;
}

// Consecutive convolutions from `first`: each conv's output (through its per-element ops, each
// read once) is the next conv's only reader. The last conv's per-element ops are not members.
bool convChainFrom(const Graph& g, const Op& first, ChainGroup& out) {
  constexpr size_t kMaxLink = 8;  // per-element ops between two convs
  ChainGroup c;
  c.kind = ChainKind::ConvChain;
  c.convs.push_back(first.id);
  c.ops.push_back(first.id);
  std::vector<int> link;
  int tensor = first.outputs.at(0);
  for (;;) {
    const int next = soleConsumer(g, tensor);
    if (next < 0) break;
    const Op& op = g.op(next);
    if (op.kind == OpKind::Conv2d && op.inputs.at(0) == tensor) {
      c.ops.insert(c.ops.end(), link.begin(), link.end());
      c.ops.push_back(op.id);
      c.convs.push_back(op.id);
      link.clear();
    } else if (link.size() < kMaxLink && isConvEpilogue(g, op, tensor)) {
      link.push_back(op.id);
    } else {
      break;
    }
    tensor = op.outputs.at(0);
  }
  if (c.convs.size() < 2) return false;
  std::sort(c.ops.begin(), c.ops.end());
  out = std::move(c);
  return true;
}

}  // namespace

std::vector<ChainGroup> findChains(const Graph& g) {
  std::vector<ChainGroup> chains;
  std::vector<bool> taken(g.ops().size(), false);
  for (const Op& op : g.ops()) {
    ChainGroup c;
    const bool found = (isScore(op) && attentionFrom(g, op, c)) || ffnInto(g, op, c) ||
                       (op.kind == OpKind::Conv2d && !taken[static_cast<size_t>(op.id)] &&
                        convChainFrom(g, op, c));
    if (!found) continue;
    if (std::any_of(c.ops.begin(), c.ops.end(),
                    [&](int id) { return taken[static_cast<size_t>(id)]; })) {
      continue;
    }
    for (int id : c.ops) taken[static_cast<size_t>(id)] = true;
    chains.push_back(std::move(c));
  }
  std::sort(chains.begin(), chains.end(),
            [](const ChainGroup& a, const ChainGroup& b) { return a.first() < b.first(); });
  return chains;
}

ChainGroup gateUpOf(const ChainGroup& ffn) {
  ChainGroup c = ffn;
  c.down = -1;
  c.ops.erase(std::remove(c.ops.begin(), c.ops.end(), ffn.down), c.ops.end());
  return c;
}

}  // namespace tessel::models
