#include "models/weight_layout.h"

namespace tessel::models {

namespace {

int64_t product(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= shape[i];
  return n;
}

}  // namespace

WeightLayout matmulWeightLayout(const std::vector<int64_t>& shape, bool transposed) {
  WeightLayout l;
  if (shape.size() < 2) {  // a vector: one channel whose reduction is the whole tensor
    l.reduction = product(shape, 0, shape.size());
    return l;
  }
  const size_t r = shape.size();
  l.batch = product(shape, 0, r - 2);
  l.reduction = transposed ? shape[r - 1] : shape[r - 2];
  l.channels = transposed ? shape[r - 2] : shape[r - 1];
  l.channels_last = !transposed;
  return l;
}

WeightLayout convWeightLayout(const std::vector<int64_t>& shape, bool channels_first) {
  WeightLayout l;
  if (shape.empty()) return l;
  l.channels_last = !channels_first;
  l.channels = channels_first ? shape.front() : shape.back();
  l.reduction =
      channels_first ? product(shape, 1, shape.size()) : product(shape, 0, shape.size() - 1);
  return l;
}

std::optional<WeightLayout> weightLayout(const Graph& g, int id) {
  const std::vector<int64_t>& shape = g.tensor(id).shape;
  for (int c : g.consumersOf(id)) {
    const Op& op = g.op(c);
    if (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) {
      if (auto l = weightLayout(g, op.outputs.at(0))) return l;
      continue;
    }
    const bool is_weight = op.inputs.size() > 1 && op.inputs[1] == id;
    if (op.kind == OpKind::MatMul && is_weight) return matmulWeightLayout(shape, op.transpose_b);
    if (op.kind == OpKind::Conv2d && is_weight) return convWeightLayout(shape, op.channels_first);
  }
  return std::nullopt;
}

}  // namespace tessel::models
