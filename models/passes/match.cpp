#include "models/passes/match.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace tessel::models::passes {

namespace {

bool hasKind(const Op& op, OpKind kind, std::string_view fn) {
  return op.kind == kind && (kind != OpKind::Elementwise || op.elt.fn == fn);
}

}  // namespace

const Op* Matcher::producer(int t, OpKind kind, std::string_view fn) const {
  const int p = g_.producerOf(t);
  if (p < 0 || !hasKind(g_.op(p), kind, fn)) return nullptr;
  return &g_.op(p);
}

const Op* Matcher::soleConsumer(int t, OpKind kind, std::string_view fn) const {
  const std::vector<int> readers = g_.consumersOf(t);
  if (readers.size() != 1 || !hasKind(g_.op(readers[0]), kind, fn)) return nullptr;
  return &g_.op(readers[0]);
}

std::optional<std::vector<float>> Matcher::values(int t) const {
  if (!isWeight(t) || !g_.weight_values) return std::nullopt;
  try {
    auto v = g_.weight_values->values(g_.tensor(t).name);
    if (v && static_cast<int64_t>(v->size()) != g_.tensor(t).elements()) return std::nullopt;
    return v;
  } catch (const Error&) {
    return std::nullopt;
  }
}

Scalar Matcher::scalar(int t) const {
  Scalar s;
  s.is_constant = isWeight(t) && g_.tensor(t).elements() == 1;
  if (s.is_constant) {
    if (auto v = values(t)) s.value = v->front();
  }
  return s;
}

std::vector<int> Matcher::productLeaves(const Op& root, std::vector<int>& ops) const {
  ops.push_back(root.id);
  std::vector<int> leaves;
  // x*x reads x twice, yet consumersOf lists it once: never expand a squared operand.
  const bool square = root.inputs.size() == 2 && root.inputs[0] == root.inputs[1];
  for (int t : root.inputs) {
    const Op* inner = producer(t, OpKind::Mul);
    // Only a product nothing else reads is part of this tree.
    if (inner && g_.consumersOf(t).size() == 1 && !square) {
      std::vector<int> sub = productLeaves(*inner, ops);
      leaves.insert(leaves.end(), sub.begin(), sub.end());
    } else {
      leaves.push_back(t);
    }
  }
  return leaves;
}

bool Matcher::isSquareOf(const Op& op, int t, ConstCheck& check) const {
  if (op.kind == OpKind::Mul)
    return op.inputs.size() == 2 && op.inputs[0] == t && op.inputs[1] == t;
  if (!hasKind(op, OpKind::Elementwise, "pow") || op.inputs.size() != 2 || op.inputs[0] != t)
    return false;
  check.expect(op.inputs[1], 2.0);
  return true;
}

bool Matcher::isLastAxisMean(const Op& op) const {
  if (op.kind != OpKind::Reduce || op.reduce.fn != "mean" || !op.reduce.keepdims) return false;
  if (op.inputs.size() != 1) return false;
  const int last = static_cast<int>(rank(op.inputs[0])) - 1;
  return last >= 0 && op.reduce.axes == std::vector<int>{last};
}

void ConstCheck::expect(int t, double expected) {
  const std::optional<float> v = read(t);
  if (v && !(std::fabs(*v - expected) <= 1e-5 * std::fabs(expected))) failed_ = true;
}

std::optional<float> ConstCheck::read(int t) {
  const Scalar s = m_.scalar(t);
  if (!s.is_constant) {
    failed_ = true;
    return std::nullopt;
  }
  if (!s.value && unknown_.empty()) unknown_ = m_.graph().tensor(t).name;
  return s.value;
}

int otherInput(const Op& op, int t) {
  if (op.inputs.size() != 2) return -1;
  if (op.inputs[0] == t) return op.inputs[1];
  if (op.inputs[1] == t) return op.inputs[0];
  return -1;
}

int lastOp(const std::vector<int>& ops) { return *std::max_element(ops.begin(), ops.end()); }

Op replacementOp(const Graph& g, const std::vector<int>& ops, OpKind kind,
                 std::vector<int> inputs) {
  const Op& last = g.op(lastOp(ops));
  Op op;
  op.name = last.name;
  op.kind = kind;
  op.inputs = std::move(inputs);
  op.outputs = last.outputs;
  op.layer = last.layer;
  std::vector<int> sorted = ops;
  std::sort(sorted.begin(), sorted.end());
  // Name every source op so a report can trace the new op back to the file's nodes.
  for (int id : sorted) {
    const Op& src = g.op(id);
    if (!op.source.empty()) op.source += "; ";
    op.source += src.source.empty() ? "op '" + src.name + "'" : src.source;
  }
  return op;
}

}  // namespace tessel::models::passes
