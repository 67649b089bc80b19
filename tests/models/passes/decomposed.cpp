#include "tests/models/passes/decomposed.h"

#include <cmath>

namespace tessel::models::testing {

int Decomposed::scalar(const std::string& name, float value, bool one_d) {
  int t = b.weight(name, one_d ? std::vector<int64_t>{1} : std::vector<int64_t>{});
  consts->values_by_name[name] = {value};
  return t;
}

int Decomposed::constant(const std::string& name, std::vector<int64_t> shape,
                         std::vector<float> values) {
  int t = b.weight(name, std::move(shape));
  consts->values_by_name[name] = std::move(values);
  return t;
}

int Decomposed::op(const std::string& name, OpKind kind, std::vector<int> inputs) {
  std::vector<int64_t> shape;
  for (int t : inputs) {
    if (g.tensor(t).shape.size() > shape.size()) shape = g.tensor(t).shape;
  }
  return b.emit(detail::makeOp(name, kind, std::move(inputs)), shape);
}

int Decomposed::elt(const std::string& name, const std::string& fn, std::vector<int> inputs) {
  std::vector<int64_t> shape;
  for (int t : inputs) {
    if (g.tensor(t).shape.size() > shape.size()) shape = g.tensor(t).shape;
  }
  Op o = detail::makeOp(name, OpKind::Elementwise, std::move(inputs));
  o.elt.fn = fn;
  return b.emit(std::move(o), shape);
}

int Decomposed::mean(const std::string& name, int x, int axis) {
  std::vector<int64_t> shape = g.tensor(x).shape;
  shape[static_cast<size_t>(axis)] = 1;
  Op o = detail::makeOp(name, OpKind::Reduce, {x});
  o.reduce.fn = "mean";
  o.reduce.axes = {axis};
  return b.emit(std::move(o), shape);
}

int Decomposed::matmul(const std::string& name, int a, int bt) {
  std::vector<int64_t> shape = g.tensor(a).shape;
  const int64_t k = shape.back();
  shape.back() = g.tensor(bt).shape.back();
  Op o = detail::makeOp(name, OpKind::BatchMatMul, {a, bt});
  o.attn.heads = 0;
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < shape.size(); ++i) batch *= shape[i];
  o.gemm = {batch, shape[shape.size() - 2], shape.back(), k};
  o.macs = o.gemm.macs();
  return b.emit(std::move(o), shape);
}

namespace {

// t / s in the chosen spelling.
int divide(Decomposed& d, const std::string& p, int t, int s, Divide how, bool swap) {
  if (how == Divide::Div) return d.elt(p + ".div", "div", {t, s});
  const int r = how == Divide::Reciprocal ? d.elt(p + ".rec", "reciprocal", {s})
                                          : d.elt(p + ".rec", "div", {d.scalar(p + ".one", 1), s});
  return swap ? d.mul(p + ".norm", r, t) : d.mul(p + ".norm", t, r);
}

// Mul/Add with the constant or weight w first when swap.
int mulW(Decomposed& d, const std::string& n, int t, int w, bool swap) {
  return swap ? d.mul(n, w, t) : d.mul(n, t, w);
}
int addW(Decomposed& d, const std::string& n, int t, int w, bool swap) {
  return swap ? d.add(n, w, t) : d.add(n, t, w);
}

}  // namespace

int layerNorm(Decomposed& d, const std::string& p, int x, const LayerNormSpec& spec) {
  const int64_t dim = d.g.tensor(x).shape.back();
  const int last = static_cast<int>(d.g.tensor(x).shape.size()) - 1;
  const int mu = d.mean(p + ".mean", x, last);
  const int c = d.elt(p + ".sub", "sub", {x, mu});
  const int sq = spec.square_by_mul
                     ? d.mul(p + ".pow", c, c)
                     : d.elt(p + ".pow", "pow", {c, d.scalar(p + ".two", spec.exponent)});
  const int var = d.mean(p + ".var", sq, spec.variance_axis);
  const int ve = addW(d, p + ".add_eps", var, d.scalar(p + ".eps", spec.eps, true), spec.swap);
  const int s = d.elt(p + ".sqrt", "sqrt", {ve});
  const int n = divide(d, p, c, s, spec.divide, spec.swap);
  const int scaled = mulW(d, p + ".gamma", n, d.b.weight(p + ".weight", {dim}), spec.swap);
  return addW(d, p + ".beta", scaled, d.b.weight(p + ".bias", {dim}), spec.swap);
}

int rmsNorm(Decomposed& d, const std::string& p, int x, const RmsNormSpec& spec) {
  const int64_t dim = d.g.tensor(x).shape.back();
  const int last = static_cast<int>(d.g.tensor(x).shape.size()) - 1;
  const int sq = spec.square_by_mul ? d.mul(p + ".pow", x, x)
                                    : d.elt(p + ".pow", "pow", {x, d.scalar(p + ".two", 2)});
  const int var = d.mean(p + ".mean", sq, last);
  const int ve = addW(d, p + ".add_eps", var, d.scalar(p + ".eps", spec.eps), spec.swap);
  const int s = d.elt(p + ".sqrt", "sqrt", {ve});
  const int n = divide(d, p, x, s, spec.divide, spec.swap);
  return mulW(d, p + ".gamma", n, d.b.weight(p + ".weight", {dim}), spec.swap);
}

namespace {

// half * x * bracket in the given association; the root op is "<p>.out".
int outerProduct(Decomposed& d, const std::string& p, int x, int bracket, Assoc assoc,
                 float half = 0.5f) {
  const int h = d.scalar(p + ".half", half);
  switch (assoc) {
    case Assoc::XBracketThenHalf:  // torch.onnx's own export of nn.GELU
      return d.mul(p + ".out", d.mul(p + ".x_bracket", x, bracket), h);
    case Assoc::XTimesHalfBracket:
      return d.mul(p + ".out", x, d.mul(p + ".half_bracket", h, bracket));
    case Assoc::HalfXTimesBracket:  // Hugging Face's 0.5 * x * (...)
      return d.mul(p + ".out", d.mul(p + ".half_x", h, x), bracket);
  }
  return -1;
}

}  // namespace

int geluErf(Decomposed& d, const std::string& p, int x, Assoc assoc, bool mul_by_inverse,
            float half) {
  const int u = mul_by_inverse
                    ? d.mul(p + ".scale", x, d.scalar(p + ".inv_sqrt2", 1.0f / std::sqrt(2.0f)))
                    : d.elt(p + ".scale", "div", {x, d.scalar(p + ".sqrt2", std::sqrt(2.0f))});
  const int e = d.elt(p + ".erf", "erf", {u});
  return outerProduct(d, p, x, d.add(p + ".one_plus", e, d.scalar(p + ".one", 1)), assoc, half);
}

int geluTanh(Decomposed& d, const std::string& p, int x, Cube cube, Assoc assoc) {
  const int c = d.scalar(p + ".c", 0.044715f);
  int term = -1;
  if (cube == Cube::Pow) {
    term = d.mul(p + ".kappa", c, d.elt(p + ".cube", "pow", {x, d.scalar(p + ".three", 3)}));
  } else if (cube == Cube::XTimesSquare) {
    term = d.mul(p + ".kappa", c, d.mul(p + ".cube", x, d.mul(p + ".square", x, x)));
  } else {
    term = d.mul(p + ".kappa", d.mul(p + ".cx2", d.mul(p + ".cx", c, x), x), x);
  }
  const int inner = d.add(p + ".inner", x, term);
  const float beta = static_cast<float>(std::sqrt(2.0 / 3.14159265358979323846));
  const int arg = d.mul(p + ".beta", d.scalar(p + ".b", beta), inner);
  const int th = d.elt(p + ".tanh", "tanh", {arg});
  return outerProduct(d, p, x, d.add(p + ".one_plus", d.scalar(p + ".one", 1), th), assoc);
}

}  // namespace tessel::models::testing
