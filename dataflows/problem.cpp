#include "dataflows/problem.h"

#include <cmath>

#include "util/error.h"

namespace tessel::dataflows {

std::string_view nameOf(Dim d) {
  switch (d) {
    case Dim::M:
      return "m";
    case Dim::N:
      return "n";
    case Dim::K:
      return "k";
  }
  return "?";
}

bool Problem::dependsOn(Operand x, Dim d) {
  switch (x) {
    case Operand::Input:
      return d != Dim::N;
    case Operand::Weight:
      return d != Dim::M;
    case Operand::Output:
      return d != Dim::K;
  }
  return false;
}

int64_t Problem::inputBytes() const {
  const double im2col = static_cast<double>(batch * m * k);
  return storageBytes(input_dtype, static_cast<int64_t>(std::ceil(im2col * input_footprint_ratio)));
}

int64_t Problem::weightBytes() const { return storageBytes(weight_dtype, batch * k * n); }

int64_t Problem::outputBytes() const { return storageBytes(output_dtype, batch * m * n); }

Problem problemOf(const models::Op& op, const models::Graph& graph) {
  if (!op.isGemmLike()) {
    throw Error("op '" + op.name + "' is not a GEMM-like op");
  }
  Problem p;
  p.batch = op.gemm.batch;
  p.m = op.gemm.m;
  p.n = op.gemm.n;
  p.k = op.gemm.k;
  p.input_dtype = graph.tensor(op.inputs.at(0)).dtype;
  p.weight_dtype = graph.tensor(op.inputs.at(1)).dtype;
  p.output_dtype = graph.tensor(op.outputs.at(0)).dtype;
  p.weight_is_activation = op.kind == models::OpKind::BatchMatMul;
  p.loops = nest::problemOf(op, graph);
  if (op.kind == models::OpKind::Conv2d) {
    // Hardware im2col reads each input pixel once per tile pass, not R*S times.
    const auto& c = op.conv;
    const double unique = static_cast<double>(c.n * c.h * c.w * c.c);
    const double im2col = static_cast<double>(p.batch) * static_cast<double>(p.m * p.k);
    p.input_footprint_ratio = im2col > 0 ? std::min(1.0, unique / im2col) : 1.0;
  }
  return p;
}

nest::Problem gemmView(const Problem& p) {
  nest::Problem g = nest::gemmProblem(p.batch, p.m, p.n, p.k, p.input_dtype, p.weight_dtype,
                                      p.output_dtype);
  g.im2col_unique = p.input_footprint_ratio;
  g.sparsity = p.loops.sparsity;
  return g;
}

}  // namespace tessel::dataflows
