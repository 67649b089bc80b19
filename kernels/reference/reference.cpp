#include "kernels/reference/reference.h"

#include <cmath>

#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;

std::vector<double> asDoubles(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = t.dtype() == DType::Int32 ? t.i32()[i] : static_cast<double>(t.f32()[i]);
  return v;
}

void embedding(const models::Graph& g, const Op& op, const std::vector<double>& ids,
               const std::vector<double>& table, std::vector<double>& out) {
  const int64_t d = g.tensor(op.inputs.at(1)).shape.at(1);
  out.assign(ids.size() * static_cast<size_t>(d), 0.0);
  for (size_t i = 0; i < ids.size(); ++i)
    for (int64_t c = 0; c < d; ++c)
      out[i * static_cast<size_t>(d) + static_cast<size_t>(c)] =
          table[static_cast<size_t>(ids[i]) * static_cast<size_t>(d) + static_cast<size_t>(c)];
}

void elementwise(const Op& op, const std::vector<const std::vector<double>*>& in,
                 std::vector<double>& out) {
  const std::vector<double>& x = *in.at(0);
  out.resize(x.size());
  const double k = 0.7978845608028654;  // sqrt(2 / pi)
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    switch (op.kind) {
      case OpKind::Relu:
        out[i] = v > 0.0 ? v : 0.0;
        break;
      case OpKind::Add:
        out[i] = v + (*in.at(1))[i];
        break;
      case OpKind::Gelu:
        out[i] = op.gelu_tanh ? 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)))
                              : 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
        break;
      case OpKind::Quantize:
      case OpKind::Dequantize:
        out[i] = v;  // identities in FP32 semantics
        break;
      default:
        throw Error("double reference: no form for op '" + op.name + "'");
    }
  }
}

void compute(const models::Graph& g, const Op& op,
             const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  switch (op.kind) {
    case OpKind::MatMul:
      return ref::matmul(g, op, in, out);
    case OpKind::BatchMatMul:
      return op.attn.heads == 0 ? ref::batchedMatmul(g, op, in, out)
                                : ref::attention(g, op, in, out);
    case OpKind::Conv2d:
      if (op.channels_first || op.conv.groups != 1 || op.conv.dilation != 1)
        return ref::convGeneral(g, op, in, out);
      return ref::conv(g, op, in, out);
    case OpKind::MaxPool:
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      if (op.channels_first) return ref::poolChannelsFirst(g, op, *in.at(0), out);
      return ref::pooling(g, op, *in.at(0), out);
    case OpKind::Add:
    case OpKind::Mul:
    case OpKind::Elementwise:
    case OpKind::Sigmoid:
    case OpKind::Silu:
    case OpKind::HardSwish:
      return ref::elementwiseExt(g, op, in, out);
    case OpKind::RmsNorm:
      return ref::rmsNorm(g, op, in, out);
    case OpKind::Rope:
      return ref::rope(g, op, *in.at(0), out);
    case OpKind::Reduce:
      return ref::reduce(g, op, *in.at(0), out);
    case OpKind::Transpose:
    case OpKind::Slice:
    case OpKind::Concat:
    case OpKind::Gather:
      return ref::layout(g, op, in, out);
    case OpKind::Softmax:
    case OpKind::LayerNorm:
    case OpKind::BatchNorm:
      return ref::rowwise(g, op, in, out);
    case OpKind::Embedding:
      return embedding(g, op, *in.at(0), *in.at(1), out);
    default:
      return elementwise(op, in, out);
  }
}

}  // namespace

RefValues runDoubleReference(const models::Graph& g, WeightStore& weights) {
  RefValues values;
  std::unordered_map<int, std::vector<double>> leaves;  // inputs and weights, by tensor id
  for (const Op& op : g.ops()) {
    std::vector<const std::vector<double>*> in;
    for (int t : op.inputs) {
      if (g.tensor(t).role != models::TensorRole::Activation) {
        auto it = leaves.find(t);
        if (it == leaves.end()) it = leaves.emplace(t, asDoubles(*weights.raw(g, t))).first;
        in.push_back(&it->second);
      } else {
        in.push_back(&values.at(g.tensor(t).name));
      }
    }
    std::vector<double>& out = values[g.tensor(op.outputs.at(0)).name];
    compute(g, op, in, out);
    if (static_cast<int64_t>(out.size()) != g.tensor(op.outputs.at(0)).elements())
      throw Error("double reference: '" + op.name + "' produced the wrong element count");
  }
  return values;
}

}  // namespace tessel::kernels
