// GELU (erf and tanh forms), SiLU and HardSwish spelled out in primitive ops.
#include <cmath>
#include <utility>

#include "models/passes/patterns.h"

namespace tessel::models::passes {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The tensor op produces when it is `Op(x, c)` or `Op(c, x)` for a constant c (Mul), with the
// constant's check; -1 otherwise.
int scaledBy(const Matcher& m, const Op* op, int x, double c, ConstCheck& check) {
  if (!op || otherInput(*op, x) < 0 || otherInput(*op, x) == x) return -1;
  check.expect(otherInput(*op, x), c);
  return op->outputs[0];
}

// erf(x / sqrt(2)) or erf(x * (1/sqrt(2))): the ops, given the Erf.
bool erfArgument(const Matcher& m, const Op& erf, int x, ConstCheck& check, std::vector<int>& ops) {
  const int u = erf.inputs[0];
  if (const Op* div = m.producer(u, OpKind::Elementwise, "div")) {
    if (div->inputs[0] != x) return false;
    check.expect(div->inputs[1], std::sqrt(2.0));
    ops.push_back(div->id);
    return true;
  }
  const Op* mul = m.producer(u, OpKind::Mul);
  if (scaledBy(m, mul, x, 1.0 / std::sqrt(2.0), check) < 0) return false;
  ops.push_back(mul->id);
  return true;
}

// sqrt(2/pi) * (x + 0.044715 * x^3), x^3 as Pow(x, 3) or x*x*x, in any association order.
bool tanhArgument(const Matcher& m, const Op& tanh, int x, ConstCheck& check,
                  std::vector<int>& ops) {
  const Op* outer = m.producer(tanh.inputs[0], OpKind::Mul);
  if (!outer) return false;
  std::vector<int> leaves = m.productLeaves(*outer, ops);
  if (leaves.size() != 2) return false;
  if (!m.scalar(leaves[0]).is_constant) std::swap(leaves[0], leaves[1]);
  const Op* inner = m.producer(leaves[1], OpKind::Add);
  if (!inner) return false;
  check.expect(leaves[0], std::sqrt(2.0 / kPi));
  const int term = otherInput(*inner, x);
  const Op* cubic = term < 0 || term == x ? nullptr : m.producer(term, OpKind::Mul);
  if (!cubic) return false;
  ops.push_back(inner->id);
  std::vector<int> factors = m.productLeaves(*cubic, ops);
  int xs = 0, constants = 0;
  for (int f : factors) {
    if (f == x) {
      ++xs;
    } else if (const Op* pow = m.producer(f, OpKind::Elementwise, "pow");
               pow && pow->inputs[0] == x) {
      check.expect(pow->inputs[1], 3.0);
      xs += 3;
      ops.push_back(pow->id);
    } else if (m.scalar(f).is_constant && constants++ == 0) {
      check.expect(f, 0.044715);
    } else {
      return false;
    }
  }
  return xs == 3 && constants == 1;
}

// (1 + erf(...)) or (1 + tanh(...)) around x: the ops, and which form it is.
bool geluBracket(const Matcher& m, int bracket, int x, ConstCheck& check, std::vector<int>& ops,
                 bool& tanh_form) {
  const Op* add = m.producer(bracket, OpKind::Add);
  if (!add || add->inputs.size() != 2) return false;
  for (int i = 0; i < 2; ++i) {
    const Op* fn = m.producer(add->inputs[static_cast<size_t>(i)], OpKind::Elementwise, "erf");
    tanh_form = !fn;
    if (!fn) fn = m.producer(add->inputs[static_cast<size_t>(i)], OpKind::Elementwise, "tanh");
    if (!fn) continue;
    check.expect(add->inputs[static_cast<size_t>(1 - i)], 1.0);
    ops.push_back(add->id);
    ops.push_back(fn->id);
    return tanh_form ? tanhArgument(m, *fn, x, check, ops) : erfArgument(m, *fn, x, check, ops);
  }
  return false;
}

Match unary(const Matcher& m, const char* pattern, std::vector<int> ops, OpKind kind, int x,
            const std::string& unverified) {
  Match match;
  match.pattern = pattern;
  match.ops = std::move(ops);
  match.unverified = unverified;
  match.replaced.emplace(lastOp(match.ops), replacementOp(m.graph(), match.ops, kind, {x}));
  return match;
}

}  // namespace

// 0.5 * x * (1 + erf|tanh(...)): the root Mul's product leaves are {0.5, x, bracket} in any order.
std::optional<Match> findGelu(const Matcher& m, const Op& mul) {
  if (mul.kind != OpKind::Mul) return std::nullopt;
  std::vector<int> ops;
  const std::vector<int> leaves = m.productLeaves(mul, ops);
  if (leaves.size() != 3) return std::nullopt;
  std::vector<int> half, others;
  for (int t : leaves) (m.scalar(t).is_constant ? half : others).push_back(t);
  if (half.size() != 1 || others.size() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    ConstCheck check(m);
    std::vector<int> found = ops;
    bool tanh_form = false;
    const int x = others[static_cast<size_t>(1 - i)];
    if (!geluBracket(m, others[static_cast<size_t>(i)], x, check, found, tanh_form)) continue;
    check.expect(half[0], 0.5);
    if (check.failed()) return std::nullopt;
    Match match = unary(m, "Gelu", std::move(found), OpKind::Gelu, x, check.unknown());
    match.replaced.begin()->second.gelu_tanh = tanh_form;
    return match;
  }
  return std::nullopt;
}

// x * sigmoid(x), either operand order.
std::optional<Match> findSilu(const Matcher& m, const Op& mul) {
  if (mul.kind != OpKind::Mul || mul.inputs.size() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    const Op* sig = m.producer(mul.inputs[static_cast<size_t>(i)], OpKind::Sigmoid);
    const int x = mul.inputs[static_cast<size_t>(1 - i)];
    if (sig && sig->inputs[0] == x) return unary(m, "Silu", {sig->id, mul.id}, OpKind::Silu, x, "");
  }
  return std::nullopt;
}

// x * hardsigmoid(x) with alpha = 1/6, beta = 0.5 (x * relu6(x + 3) / 6; torch's export at
// opset 13); ONNX's default HardSigmoid (alpha 0.2) is a different function and is left alone.
std::optional<Match> findHardSwish(const Matcher& m, const Op& mul) {
  if (mul.kind != OpKind::Mul || mul.inputs.size() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    const Op* hs =
        m.producer(mul.inputs[static_cast<size_t>(i)], OpKind::Elementwise, "hardsigmoid");
    const int x = mul.inputs[static_cast<size_t>(1 - i)];
    if (!hs || hs->inputs[0] != x) continue;
    if (std::fabs(hs->elt.alpha - 1.0 / 6.0) > 1e-6 || std::fabs(hs->elt.beta - 0.5) > 1e-6)
      return std::nullopt;
    return unary(m, "HardSwish", {hs->id, mul.id}, OpKind::HardSwish, x, "");
  }
  return std::nullopt;
}

}  // namespace tessel::models::passes
