#include "kernels/validation/sparsity_stats.h"

#include <vector>

#include "kernels/validation/metrics.h"
#include "kernels/weights/prune.h"

namespace tessel::kernels {

ZeroCount& ZeroCount::operator+=(const ZeroCount& o) {
  zeros += o.zeros;
  values += o.values;
  tensors += o.tensors;
  return *this;
}

ZeroCount countZeros(const Tensor& t) {
  ZeroCount z;
  z.values = t.numel();
  z.tensors = 1;
  if (t.isFloat()) {
    const float* v = t.f32();
    for (int64_t i = 0; i < t.numel(); ++i) z.zeros += v[i] == 0.0f;
    return z;
  }
  for (float v : realValues(t)) z.zeros += v == 0.0f;
  return z;
}

ZeroCount prunedWeights(const models::Graph& g, WeightStore& weights) {
  ZeroCount total;
  for (const models::Tensor& t : g.tensors()) {
    const bool sparse = t.role == models::TensorRole::Weight && !t.sparsity.dense();
    if (!sparse || t.dtype == DType::Int32 || !pruneLayout(g, t.id)) continue;
    total += countZeros(*weights.raw(g, t.id));
  }
  return total;
}

std::map<int, int> gemmInputs(const models::Graph& g) {
  std::map<int, int> readers;
  for (const models::Op& op : g.ops()) {
    if (op.kind != models::OpKind::MatMul && op.kind != models::OpKind::Conv2d) continue;
    const int x = op.inputs.at(0);
    if (g.tensor(x).role != models::TensorRole::Weight) ++readers[x];
  }
  return readers;
}

}  // namespace tessel::kernels
