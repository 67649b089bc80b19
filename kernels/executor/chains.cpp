// Elementwise, row-wise and conversion ops as chain stages. Float values run the FP32 row
// kernels and are rounded to the op's format after (block-scaled formats: by the executor, on
// the whole output); INT8/INT4 values take the host path (dequantize, FP32 op, quantize at the
// op's calibrated scale) unless integer_nonlinear routes GELU, softmax and LayerNorm on INT8 to
// the I-BERT stages (executor/ibert.cpp).
#include <string>

#include "kernels/executor/ops.h"
#include "kernels/validation/metrics.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;

// The other operand of an Add or Mul whose chain arrives through `chain_tensor`, as float values.
std::shared_ptr<const Tensor> sideInput(RunState& s, const Op& op, int chain_tensor) {
  const int side = op.inputs.at(0) == chain_tensor ? op.inputs.at(1) : op.inputs.at(0);
  std::shared_ptr<const Tensor> t = s.tensor(side);
  if (t->isFloat()) return t;
  Tensor f = Tensor::fromFloats(t->shape(), realValues(*t));
  return std::make_shared<const Tensor>(std::move(f));
}

// The op's float computation on float values (before rounding to its format).
void floatStages(RunState& s, const Op& op, int chain_tensor, FloatFormat f, BuiltChain& c,
                 const ChainSite& site, bool quantized_input) {
  switch (op.kind) {
    case OpKind::Gelu:
      c.chain.gelu(op.gelu_tanh);
      break;
    case OpKind::Relu:
      c.chain.relu();
      break;
    case OpKind::Add:
      c.keep.push_back(sideInput(s, op, chain_tensor));
      c.chain.add(*c.keep.back());
      break;
    case OpKind::Mul:
      c.keep.push_back(sideInput(s, op, chain_tensor));
      c.chain.mulTensor(*c.keep.back());
      break;
    case OpKind::Sigmoid:
      c.chain.sigmoid();
      break;
    case OpKind::Silu:
      c.chain.silu();
      break;
    case OpKind::HardSwish:
      c.chain.hardSwish();
      break;
    case OpKind::RmsNorm:
      c.chain.rmsNorm(s.params(op.inputs.at(1), f), op.eps);
      break;
    case OpKind::Softmax:
      if (quantized_input && site.causal_offset) c.chain.causalMask(*site.causal_offset);
      c.chain.softmax();
      break;
    case OpKind::LayerNorm:
      c.chain.layerNorm(s.params(op.inputs.at(1), f), s.params(op.inputs.at(2), f), op.eps);
      break;
    case OpKind::BatchNorm:
      c.chain.mul(s.params(op.inputs.at(1), f));
      c.chain.bias(s.params(op.inputs.at(2), f));
      break;
    default:
      throw Error("executor: '" + op.name + "' has no chain form");
  }
}

BuiltChain conversion(RunState& s, const Op& op, const Flow& in) {
  const DType d = s.dtypeOf(op.outputs.at(0));
  BuiltChain c;
  c.chain = OpChain(
      in.domain, in.domain == Domain::Float ? std::nullopt : std::optional<QuantParams>(in.quant));
  if (isQuantizedInt(d)) {
    if (in.domain != Domain::Float) c.chain.dequantize(in.quant);  // int8 <-> int4: via real values
    c.chain.quantize(s.quantOf(op.outputs.at(0)));
    c.out = {Domain::Int8, d, s.quantOf(op.outputs.at(0))};
    return c;
  }
  if (isInteger(d))
    throw Error("executor: '" + op.name + "' converts to " + std::string(nameOf(d)));
  if (in.domain != Domain::Float) c.chain.dequantize(in.quant);
  c.chain.roundTo(formatOf(d));  // narrower: rounds; wider: values already fit, labels them
  c.out = {Domain::Float, d, {}};
  return c;
}

}  // namespace

BuiltChain memberChain(RunState& s, const Op& op, int chain_tensor, const Flow& in,
                       const ChainSite& site) {
  if (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) return conversion(s, op, in);
  const DType d = s.dtypeOf(op.outputs.at(0));
  if (in.domain == Domain::Int32) return ibertChain(s, op, in, site);
  BuiltChain c;
  if (in.domain == Domain::Int8 && op.kind == OpKind::Relu) {
    c.chain = OpChain(Domain::Int8, in.quant);  // max with the zero point: exact, scale kept
    c.chain.relu();
    c.out = in;
    return c;
  }
  const bool quantized = in.domain == Domain::Int8;
  c.chain = quantized ? OpChain(Domain::Int8, in.quant) : OpChain(Domain::Float);
  if (quantized) c.chain.dequantize(in.quant);
  floatStages(s, op, chain_tensor, paramFormat(d), c, site, quantized);
  if (isQuantizedInt(d)) {
    c.chain.quantize(s.quantOf(op.outputs.at(0)));
    c.out = {Domain::Int8, d, s.quantOf(op.outputs.at(0))};
  } else {
    c.chain.roundTo(formatOf(d));
    c.out = {Domain::Float, d, {}};
  }
  return c;
}

Flow flowOf(const Tensor& t) {
  if (t.dtype() == DType::Int8) return {Domain::Int8, t.dtype(), t.quant};
  if (t.dtype() == DType::Int32) return {Domain::Int32, t.dtype(), t.quant};
  return {Domain::Float, t.dtype(), {}};
}

}  // namespace tessel::kernels
