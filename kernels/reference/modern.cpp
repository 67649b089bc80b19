// Double-precision forms of today's op kinds: broadcasting elementwise functions, activations,
// RMSNorm, rotary embedding, reductions and the layout copies, straight from models/graph.h.
#include <cmath>
#include <limits>
#include <string>

#include "kernels/ops/views.h"
#include "kernels/reference/reference.h"
#include "util/error.h"

namespace tessel::kernels::ref {

namespace {

using models::OpKind;
using Shape = std::vector<int64_t>;

size_t at(int64_t i) { return static_cast<size_t>(i); }

int64_t count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

// The multi-index of flat output index o (row-major).
Shape unflatten(int64_t o, const Shape& s) {
  Shape idx(s.size());
  for (size_t i = s.size(); i-- > 0;) {
    idx[i] = o % s[i];
    o /= s[i];
  }
  return idx;
}

// Flat offset of out-index `idx` in a tensor of shape `s` broadcast to it (right-aligned).
int64_t broadcastOffset(const Shape& idx, const Shape& s) {
  int64_t off = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const int64_t j = idx[idx.size() - s.size() + i];
    off = off * s[i] + (s[i] == 1 ? 0 : j);
  }
  return off;
}

double unary(const models::Op& op, double x) {
  const std::string& f = op.elt.fn;
  const double a = op.elt.alpha, b = op.elt.beta;
  if (op.kind == OpKind::Sigmoid || f == "sigmoid") return 1.0 / (1.0 + std::exp(-x));
  if (op.kind == OpKind::Silu || f == "silu") return x / (1.0 + std::exp(-x));
  if (op.kind == OpKind::HardSwish || f == "hardswish")
    return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0;
  if (f == "sqrt") return std::sqrt(x);
  if (f == "exp") return std::exp(x);
  if (f == "log") return std::log(x);
  if (f == "erf") return std::erf(x);
  if (f == "tanh") return std::tanh(x);
  if (f == "neg") return -x;
  if (f == "abs") return std::fabs(x);
  if (f == "reciprocal") return 1.0 / x;
  if (f == "cast" || f == "expand") return x;  // expand: the broadcast read is the whole op
  if (f == "scale") return a * x;
  if (f == "not") return x == 0.0 ? 1.0 : 0.0;
  if (f == "clip") return std::min(std::max(x, a), b);
  if (f == "hardsigmoid") return std::min(std::max(a * x + b, 0.0), 1.0);
  if (f == "leakyrelu") return x >= 0.0 ? x : a * x;
  throw Error("double reference: no function '" + f + "'");
}

double binary(const std::string& f, double x, double y) {
  if (f == "add") return x + y;
  if (f == "mul") return x * y;
  if (f == "sub") return x - y;
  if (f == "div") return x / y;
  if (f == "pow") return std::pow(x, y);
  if (f == "max") return std::max(x, y);
  if (f == "min") return std::min(x, y);
  if (f == "equal") return x == y;
  if (f == "less") return x < y;
  if (f == "greater") return x > y;
  if (f == "and") return x != 0.0 && y != 0.0;
  if (f == "or") return x != 0.0 || y != 0.0;
  throw Error("double reference: no function '" + f + "'");
}

// Nearest neighbour: output index o of an axis reads input floor(o * in / out).
void resizeNearest(const Shape& is, const Shape& os, const std::vector<double>& x,
                   std::vector<double>& out) {
  for (int64_t o = 0; o < count(os); ++o) {
    Shape idx = unflatten(o, os);
    for (size_t a = 0; a < idx.size(); ++a) idx[a] = idx[a] * is[a] / os[a];
    int64_t src = 0;
    for (size_t a = 0; a < idx.size(); ++a) src = src * is[a] + idx[a];
    out[at(o)] = x[at(src)];
  }
}

}  // namespace

void elementwiseExt(const models::Graph& g, const models::Op& op,
                    const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const Shape& os = g.tensor(op.outputs.at(0)).shape;
  out.assign(at(count(os)), 0.0);
  const std::string fn = op.kind == OpKind::Mul   ? "mul"
                         : op.kind == OpKind::Add ? "add"
                                                  : op.elt.fn;
  const bool view = fn == "reshape" || fn == "flatten" || fn == "squeeze" || fn == "unsqueeze" ||
                    fn == "identity" || fn == "dropout";
  if (view) {  // the same values in row-major order
    out = *in.at(0);
    return;
  }
  if (fn == "resize") return resizeNearest(g.tensor(op.inputs.at(0)).shape, os, *in.at(0), out);
  std::vector<Shape> shapes;  // imported views read in the op's own shape
  for (size_t i = 0; i < op.inputs.size(); ++i) shapes.push_back(readShape(g, op, i));
  for (int64_t o = 0; o < count(os); ++o) {
    const Shape idx = unflatten(o, os);
    auto arg = [&](size_t i) { return (*in.at(i))[at(broadcastOffset(idx, shapes[i]))]; };
    if (fn == "where")
      out[at(o)] = arg(0) != 0.0 ? arg(1) : arg(2);
    else if (op.inputs.size() == 2)
      out[at(o)] = binary(fn, arg(0), arg(1));
    else
      out[at(o)] = unary(op, arg(0));
  }
}

void rmsNorm(const models::Graph& g, const models::Op& op,
             const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const std::vector<double>& x = *in[0];
  const int64_t n = g.tensor(op.inputs.at(0)).shape.back();
  out.resize(x.size());
  for (size_t r = 0; r < x.size() / at(n); ++r) {
    double ss = 0.0;
    for (int64_t c = 0; c < n; ++c) ss += x[r * at(n) + at(c)] * x[r * at(n) + at(c)];
    const double inv = 1.0 / std::sqrt(ss / static_cast<double>(n) + static_cast<double>(op.eps));
    for (int64_t c = 0; c < n; ++c)
      out[r * at(n) + at(c)] = x[r * at(n) + at(c)] * inv * (*in[1])[at(c)];
  }
}

void rope(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
          std::vector<double>& out) {
  const models::RopeAttrs& a = op.rope;
  const Shape& s = g.tensor(op.inputs.at(0)).shape;  // [B, S, W]
  out = x;
  const int64_t half = a.rotary_dim / 2;
  for (int64_t b = 0; b < s[0]; ++b)
    for (int64_t p = 0; p < s[1]; ++p)
      for (int64_t h = 0; h < a.heads; ++h)
        for (int64_t i = 0; i < half; ++i) {
          const double ang = static_cast<double>(a.position_offset + p) *
                             std::pow(a.theta, -2.0 * static_cast<double>(i) / a.rotary_dim);
          const int64_t base = (b * s[1] + p) * s[2] + a.col_offset + h * a.head_dim;
          const int64_t i0 = base + (a.interleaved ? 2 * i : i);
          const int64_t i1 = base + (a.interleaved ? 2 * i + 1 : i + half);
          out[at(i0)] = x[at(i0)] * std::cos(ang) - x[at(i1)] * std::sin(ang);
          out[at(i1)] = x[at(i1)] * std::cos(ang) + x[at(i0)] * std::sin(ang);
        }
}

void reduce(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
            std::vector<double>& out) {
  const Shape& s = g.tensor(op.inputs.at(0)).shape;
  const std::string& f = op.reduce.fn;
  Shape kept = s;  // the output with reduced axes as 1s
  std::vector<bool> red(s.size(), op.reduce.axes.empty());
  for (int a : op.reduce.axes) red[at(a)] = true;
  for (size_t i = 0; i < s.size(); ++i)
    if (red[i]) kept[i] = 1;
  const double init = f == "max"    ? -std::numeric_limits<double>::infinity()
                      : f == "min"  ? std::numeric_limits<double>::infinity()
                      : f == "prod" ? 1.0
                                    : 0.0;
  out.assign(at(count(kept)), init);
  std::vector<int64_t> n(out.size(), 0);
  for (int64_t i = 0; i < count(s); ++i) {
    const int64_t o = broadcastOffset(unflatten(i, s), kept);
    double& acc = out[at(o)];
    const double v = x[at(i)];
    if (f == "max")
      acc = std::max(acc, v);
    else if (f == "min")
      acc = std::min(acc, v);
    else if (f == "prod")
      acc *= v;
    else if (f == "l2" || f == "sumsquare")
      acc += v * v;
    else
      acc += v;
    ++n[at(o)];
  }
  for (size_t o = 0; o < out.size(); ++o) {
    if (f == "mean") out[o] /= static_cast<double>(n[o]);
    if (f == "l2") out[o] = std::sqrt(out[o]);
  }
}

}  // namespace tessel::kernels::ref
