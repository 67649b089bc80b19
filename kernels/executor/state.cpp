#include "kernels/executor/state.h"

#include "kernels/numeric/quantize.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

RunState::RunState(const models::Graph& graph, WeightStore& w, const ExecutorOptions& o,
                   const ActivationRanges* ranges, const Feeds* feeds)
    : g(graph), weights(w), opt(o), ranges_(ranges), feeds_(feeds), live_(graph.tensors().size()) {}

FloatFormat paramFormat(DType d) { return isInteger(d) ? FloatFormat::FP32 : formatOf(d); }

QuantParams RunState::quantOf(int id) const {
  const DType d = g.tensor(id).dtype;
  if (!ranges_)
    throw Error("tensor '" + g.tensor(id).name + "' is " + std::string(nameOf(d)) +
                ": the executor needs activation ranges from an FP32 run");
  QuantParams q = ranges_->params(calibrationName(g, id));
  if (d != DType::Int4) return q;
  // The same symmetric range in 4 bits: amax = 127 x scale8 = 7 x scale4.
  for (float& sc : q.scale) sc = sc * 127.0f / 7.0f;
  q.qmin = -7;
  q.qmax = 7;
  return q;
}

std::shared_ptr<const Tensor> RunState::tensor(int id) {
  auto& slot = live_.at(static_cast<size_t>(id));
  if (slot) return slot;
  const models::Tensor& t = g.tensor(id);
  if (t.role == models::TensorRole::Weight)  // integer constants (indices) are stored as they are
    return t.dtype == DType::Int32 ? weights.raw(g, id) : weights.weight(g, id, t.dtype);
  if (t.role == models::TensorRole::Input) {
    const std::shared_ptr<const Tensor> raw = weights.raw(g, id);
    if (isQuantizedInt(t.dtype))
      slot = std::make_shared<const Tensor>(quantize(*raw, quantOf(id)));
    else if (t.dtype != DType::FP32 && raw->isFloat())  // fp16 ... mxfp4: rounded once here
      slot = std::make_shared<const Tensor>(Tensor::fromFloats(
          raw->shape(), std::vector<float>(raw->f32(), raw->f32() + raw->numel()), t.dtype));
    else
      slot = raw;
    return slot;
  }
  if (feeds_ && *feeds_) slot = (*feeds_)(t.name);
  if (!slot) throw Error("executor: tensor '" + t.name + "' is read before it is computed");
  if (slot->dtype() != storageOf(t.dtype))
    throw Error("executor: fed tensor '" + t.name + "' is " + std::string(nameOf(slot->dtype())) +
                ", the graph expects " + std::string(nameOf(t.dtype)));
  return slot;
}

std::optional<RunState::WeightRef> RunState::weightRef(int id) const {
  if (fromStore(id)) return WeightRef{id, dtypeOf(id), dtypeOf(id)};
  const int p = g.producerOf(id);
  if (p < 0) return std::nullopt;
  const models::Op& op = g.op(p);
  const bool conversion =
      op.kind == models::OpKind::Quantize || op.kind == models::OpKind::Dequantize;
  if (!conversion || !fromStore(op.inputs.at(0))) return std::nullopt;
  return WeightRef{op.inputs.at(0), dtypeOf(op.inputs.at(0)), dtypeOf(id)};
}

std::vector<float> RunState::params(int id, FloatFormat f) {
  const models::Tensor& t = g.tensor(id);
  std::shared_ptr<const Tensor> v;
  if (fromStore(id))  // as the graph stores it: integer ops keep their parameters in FP32
    v = weights.weight(g, id, isInteger(t.dtype) ? DType::FP32 : t.dtype);
  else
    v = tensor(id);
  if (!v->isFloat()) {
    const Tensor d = dequantize(*v);
    return std::vector<float>(d.f32(), d.f32() + d.numel());
  }
  std::vector<float> out(v->f32(), v->f32() + v->numel());
  if (t.role != models::TensorRole::Weight) roundInPlace(out.data(), v->numel(), f);
  return out;
}

}  // namespace tessel::kernels
