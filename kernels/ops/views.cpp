#include "kernels/ops/views.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

int64_t product(const std::vector<int64_t>& s) {
  int64_t p = 1;
  for (int64_t d : s) p *= d;
  return p;
}

bool elementwise(OpKind k) {
  return k == OpKind::Add || k == OpKind::Mul || k == OpKind::Elementwise || k == OpKind::Sigmoid ||
         k == OpKind::Silu || k == OpKind::HardSwish || k == OpKind::Relu || k == OpKind::Gelu;
}

}  // namespace

std::vector<int64_t> readShape(const models::Graph& g, const models::Op& op, size_t i) {
  const models::Tensor& in = g.tensor(op.inputs.at(i));
  const std::vector<int64_t>& out = g.tensor(op.outputs.at(0)).shape;
  const int64_t n = in.elements();
  if (op.kind == OpKind::Transpose && op.layout.perm.size() == out.size()) {
    std::vector<int64_t> s(out.size());
    for (size_t k = 0; k < out.size(); ++k) s[static_cast<size_t>(op.layout.perm[k])] = out[k];
    return product(s) == n ? s : in.shape;
  }
  const auto axis = static_cast<size_t>(op.layout.axis);
  if ((op.kind == OpKind::Slice || op.kind == OpKind::Concat) && axis < out.size()) {
    std::vector<int64_t> s = out;
    s[axis] = 1;
    const int64_t others = product(s);
    if (others > 0 && n % others == 0) s[axis] = n / others;
    return product(s) == n ? s : in.shape;
  }
  if (op.kind == OpKind::Conv2d && i == 0) {  // the activation as ConvShape describes it
    const models::ConvShape& c = op.conv;
    std::vector<int64_t> s = op.channels_first ? std::vector<int64_t>{c.n, c.c, c.h, c.w}
                                               : std::vector<int64_t>{c.n, c.h, c.w, c.c};
    return product(s) == n ? s : in.shape;
  }
  if (elementwise(op.kind) && n == product(out) && op.elt.fn != "expand") return out;
  return in.shape;
}

}  // namespace tessel::kernels
