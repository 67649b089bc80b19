#include "kernels/validation/memory_estimate.h"

#include <algorithm>

#include "util/checked.h"

namespace tessel::kernels {

int64_t estimateMemoryBytes(const models::Graph& g) {
  auto what = [&] { return "the executor's memory for " + g.name; };
  int64_t activations = 0, inputs = 0, weights = 0, im2col = 0;
  for (const models::Tensor& t : g.tensors()) {
    int64_t& sum = t.role == models::TensorRole::Weight  ? weights
                   : t.role == models::TensorRole::Input ? inputs
                                                         : activations;
    sum = checked::add(sum, t.elements(), what);
  }
  for (const models::Op& op : g.ops()) {
    if (op.kind == models::OpKind::Conv2d) {
      im2col = std::max(im2col, checked::mul(op.gemm.m, op.gemm.k, what));
    }
  }
  // Elements: 2 x activations (reference + lowered), inputs, 2 x weights, one im2col buffer.
  int64_t elements = checked::mul(activations, 2, what);
  elements = checked::add(elements, inputs, what);
  elements = checked::add(elements, checked::mul(weights, 2, what), what);
  elements = checked::add(elements, im2col, what);
  return checked::mul(elements, 4, what);
}

}  // namespace tessel::kernels
