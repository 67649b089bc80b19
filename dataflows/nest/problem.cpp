#include "dataflows/nest/problem.h"

#include <algorithm>
#include <cctype>
#include <numeric>

#include "models/graph.h"
#include "util/error.h"

namespace tessel::dataflows::nest {

namespace {
constexpr std::array<const char*, kDims> kConvNames{"G", "N", "K", "C", "P", "Q", "R", "S"};
}  // namespace

std::string_view convName(Dim d) { return kConvNames[at(d)]; }

std::optional<Dim> dimFromConvName(std::string_view name) {
  if (name.size() != 1) return std::nullopt;
  const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  for (Dim d : kAllDims) {
    if (kConvNames[at(d)][0] == c) return d;
  }
  return std::nullopt;
}

int64_t Problem::macs() const {
  int64_t m = 1;
  for (int64_t e : extent) m *= e;
  return m;
}

namespace {

// Distinct values of i * stride + j * dilation for i < a, j < b. With g = gcd(stride, dilation),
// stride = g s and dilation = g d, two pairs give the same value exactly when they differ by a
// multiple of (d, -s); each value's pairs form a chain along that step, so the values are the
// pairs minus those whose neighbour (i - d, j + s) is in range too. Rows a stride skips (a
// window narrower than its stride) and taps a dilation skips are never counted.
int64_t distinctPositions(int64_t a, int64_t b, int64_t stride, int64_t dilation) {
  if (a <= 0 || b <= 0) return 0;
  if (dilation == 1) return a * b - (a - 1) * std::max<int64_t>(0, b - stride);
  const int64_t g = std::gcd(stride, dilation);
  const int64_t s = stride / g, d = dilation / g;
  return a * b - std::max<int64_t>(0, a - d) * std::max<int64_t>(0, b - s);
}

}  // namespace

int64_t Problem::inputRows(int64_t p, int64_t r) const {
  const int64_t rows = distinctPositions(p, r, stride_h, dilation_h);
  return input_h > 0 ? std::min(rows, input_h) : rows;
}

int64_t Problem::inputCols(int64_t q, int64_t s) const {
  const int64_t cols = distinctPositions(q, s, stride_w, dilation_w);
  return input_w > 0 ? std::min(cols, input_w) : cols;
}

double Problem::footprint(Operand t, const Factors& x) const {
  auto f = [&](Dim d) { return static_cast<double>(x[at(d)]); };
  switch (t) {
    case Operand::Input:
      return f(Dim::G) * f(Dim::N) * f(Dim::C) *
             static_cast<double>(inputRows(x[at(Dim::P)], x[at(Dim::R)])) *
             static_cast<double>(inputCols(x[at(Dim::Q)], x[at(Dim::S)]));
    case Operand::Weight:
      return f(Dim::G) * f(Dim::K) * f(Dim::C) * f(Dim::R) * f(Dim::S);
    case Operand::Output:
      return f(Dim::G) * f(Dim::N) * f(Dim::K) * f(Dim::P) * f(Dim::Q);
  }
  return 0;
}

std::string_view timeloopName(Dim d) {
  static constexpr std::array<const char*, kDims> kNames{"G", "N", "M", "C", "P", "Q", "R", "S"};
  return kNames[at(d)];
}

std::string Problem::dimName(Dim d) const {
  if (timeloop_names) return std::string(timeloopName(d));
  if (!gemm) return kConvNames[at(d)];
  switch (d) {
    case Dim::G:
      return "b";
    case Dim::P:
      return "m";
    case Dim::K:
      return "n";
    case Dim::C:
      return "k";
    default:
      return "";
  }
}

std::optional<Dim> Problem::dimByName(std::string_view name) const {
  if (!gemm) return dimFromConvName(name);
  for (Dim d : kAllDims) {
    if (!dimName(d).empty() && dimName(d) == name) return d;
  }
  return std::nullopt;
}

std::string Problem::describe() const {
  std::string s = gemm ? "gemm" : "conv";
  for (Dim d : kAllDims) {
    const std::string n = dimName(d);
    if (n.empty() || (gemm && d == Dim::G && of(d) == 1)) continue;
    s += " " + n + "=" + std::to_string(of(d));
  }
  if (!gemm && (stride_h != 1 || stride_w != 1)) s += " stride " + std::to_string(stride_h);
  if (!gemm && (dilation_h != 1 || dilation_w != 1)) {
    s += " dilation " + std::to_string(dilation_h);
  }
  return s;
}

Problem gemmProblem(int64_t batch, int64_t m, int64_t n, int64_t k, DType in, DType w,
                    DType out) {
  Problem p;
  p.gemm = true;
  p.extent[at(Dim::G)] = batch;
  p.extent[at(Dim::P)] = m;
  p.extent[at(Dim::K)] = n;
  p.extent[at(Dim::C)] = k;
  p.input_dtype = in;
  p.weight_dtype = w;
  p.output_dtype = out;
  return p;
}

namespace {

Problem shapeOf(const models::Op& op, const models::Graph& g) {
  const DType in = g.tensor(op.inputs.at(0)).dtype;
  const DType w = g.tensor(op.inputs.at(1)).dtype;
  const DType out = g.tensor(op.outputs.at(0)).dtype;
  if (op.kind != models::OpKind::Conv2d) {
    return gemmProblem(op.gemm.batch, op.gemm.m, op.gemm.n, op.gemm.k, in, w, out);
  }
  const models::ConvShape& c = op.conv;
  Problem p;
  p.extent[at(Dim::G)] = c.groups;
  p.extent[at(Dim::N)] = c.n;
  p.extent[at(Dim::K)] = c.k / c.groups;
  p.extent[at(Dim::C)] = c.c / c.groups;
  p.extent[at(Dim::P)] = c.p;
  p.extent[at(Dim::Q)] = c.q;
  p.extent[at(Dim::R)] = c.r;
  p.extent[at(Dim::S)] = c.s;
  p.stride_h = p.stride_w = c.stride;
  p.dilation_h = p.dilation_w = c.dilation;
  p.input_h = c.h;
  p.input_w = c.w;
  p.input_dtype = in;
  p.weight_dtype = w;
  p.output_dtype = out;
  return p;
}

}  // namespace

Problem problemOf(const models::Op& op, const models::Graph& g) {
  if (!op.isGemmLike()) throw Error("op '" + op.name + "' is not a GEMM-like op");
  Problem p = shapeOf(op, g);
  p.sparsity = {g.tensor(op.inputs.at(0)).sparsity, g.tensor(op.inputs.at(1)).sparsity};
  return p;
}

}  // namespace tessel::dataflows::nest
