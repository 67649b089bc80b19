// LayerNorm and RMSNorm spelled out in primitive ops (ONNX opset < 17, Llama's RMSNorm).
#include "models/passes/patterns.h"

namespace tessel::models::passes {

namespace {

// What both norms share: square(t) -> mean over the last axis -> + eps -> sqrt -> t / sqrt
// (Div, or t * Reciprocal(sqrt) / t * Div(1, sqrt)).
struct NormTail {
  std::vector<int> ops;
  int eps = -1;         // the eps constant
  int normalized = -1;  // t / sqrt(mean(t^2) + eps)
};

// The reciprocal of s: Reciprocal(s) or Div(1, s), read by exactly one op.
const Op* reciprocalOf(const Matcher& m, int s, ConstCheck& check) {
  const std::vector<int> readers = m.graph().consumersOf(s);
  if (readers.size() != 1) return nullptr;
  const Op& r = m.graph().op(readers[0]);
  if (r.kind != OpKind::Elementwise || r.inputs.back() != s) return nullptr;
  if (r.elt.fn == "reciprocal" && r.inputs.size() == 1) return &r;
  if (r.elt.fn == "div" && r.inputs.size() == 2) {
    check.expect(r.inputs[0], 1.0);
    return &r;
  }
  return nullptr;
}

std::optional<NormTail> matchTail(const Matcher& m, const Op& square, int t, ConstCheck& check) {
  NormTail tail;
  if (!m.isSquareOf(square, t, check)) return std::nullopt;
  const Op* mean = m.soleConsumer(square.outputs[0], OpKind::Reduce);
  if (!mean || !m.isLastAxisMean(*mean)) return std::nullopt;
  const Op* add = m.soleConsumer(mean->outputs[0], OpKind::Add);
  if (!add) return std::nullopt;
  tail.eps = otherInput(*add, mean->outputs[0]);
  const Op* sqrt = m.soleConsumer(add->outputs[0], OpKind::Elementwise, "sqrt");
  if (tail.eps < 0 || !sqrt) return std::nullopt;
  tail.ops = {square.id, mean->id, add->id, sqrt->id};
  const int s = sqrt->outputs[0];
  const Op* last = m.soleConsumer(s, OpKind::Elementwise, "div");
  if (last && last->inputs.size() == 2 && last->inputs[0] == t && last->inputs[1] == s) {
    tail.ops.push_back(last->id);
  } else if (const Op* rec = reciprocalOf(m, s, check)) {
    last = m.soleConsumer(rec->outputs[0], OpKind::Mul);
    if (!last || otherInput(*last, rec->outputs[0]) != t) return std::nullopt;
    tail.ops.push_back(rec->id);
    tail.ops.push_back(last->id);
  } else {
    return std::nullopt;
  }
  check.read(tail.eps);
  tail.normalized = last->outputs[0];
  return tail;
}

// Mul(t, gamma) or Mul(gamma, t) with gamma a Weight of the last axis's size; the gamma, or -1.
int affineOperand(const Matcher& m, const Op* op, int t, int64_t d) {
  if (!op) return -1;
  const int w = otherInput(*op, t);
  if (w < 0 || w == t || !m.isWeight(w)) return -1;
  const auto& shape = m.graph().tensor(w).shape;
  const bool fits = !shape.empty() && shape.back() == d && m.graph().tensor(w).elements() == d;
  return fits ? w : -1;
}

Match finish(const Matcher& m, const char* pattern, std::vector<int> ops, OpKind kind,
             std::vector<int> inputs, int eps, const ConstCheck& check) {
  Match match;
  match.pattern = pattern;
  match.ops = std::move(ops);
  match.unverified = check.unknown();
  Op op = replacementOp(m.graph(), match.ops, kind, std::move(inputs));
  if (match.unverified.empty()) op.eps = *m.scalar(eps).value;
  match.replaced.emplace(lastOp(match.ops), std::move(op));
  return match;
}

}  // namespace

std::optional<Match> findLayerNorm(const Matcher& m, const Op& sub) {
  if (sub.kind != OpKind::Elementwise || sub.elt.fn != "sub" || sub.inputs.size() != 2)
    return std::nullopt;
  const int x = sub.inputs[0];
  const Op* mean = m.producer(sub.inputs[1], OpKind::Reduce);
  if (!mean || !m.isLastAxisMean(*mean) || mean->inputs[0] != x) return std::nullopt;
  const int d = sub.outputs[0];
  ConstCheck check(m);
  std::optional<NormTail> tail;
  for (int reader : m.graph().consumersOf(d)) {
    tail = matchTail(m, m.graph().op(reader), d, check);
    if (tail) break;
  }
  if (!tail || check.failed()) return std::nullopt;
  const int64_t dim = m.graph().tensor(x).shape.back();
  const Op* scale = m.soleConsumer(tail->normalized, OpKind::Mul);
  const int gamma = affineOperand(m, scale, tail->normalized, dim);
  if (gamma < 0) return std::nullopt;
  const Op* shift = m.soleConsumer(scale->outputs[0], OpKind::Add);
  const int beta = affineOperand(m, shift, scale->outputs[0], dim);
  if (beta < 0) return std::nullopt;
  std::vector<int> ops = {mean->id, sub.id};
  ops.insert(ops.end(), tail->ops.begin(), tail->ops.end());
  ops.push_back(scale->id);
  ops.push_back(shift->id);
  return finish(m, "LayerNorm", std::move(ops), OpKind::LayerNorm, {x, gamma, beta}, tail->eps,
                check);
}

std::optional<Match> findRmsNorm(const Matcher& m, const Op& square) {
  if (square.inputs.empty() || m.rank(square.inputs[0]) == 0) return std::nullopt;
  const int x = square.inputs[0];
  ConstCheck check(m);
  std::optional<NormTail> tail = matchTail(m, square, x, check);
  if (!tail || check.failed()) return std::nullopt;
  const Op* scale = m.soleConsumer(tail->normalized, OpKind::Mul);
  const int gamma = affineOperand(m, scale, tail->normalized, m.graph().tensor(x).shape.back());
  if (gamma < 0) return std::nullopt;
  std::vector<int> ops = tail->ops;
  ops.push_back(scale->id);
  return finish(m, "RmsNorm", std::move(ops), OpKind::RmsNorm, {x, gamma}, tail->eps, check);
}

}  // namespace tessel::models::passes
