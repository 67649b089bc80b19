// The GEMM-like ops (MatMul, Conv2d, BatchMatMul) as anchors: operands, weights and their own
// epilogue (bias, then rounding to the op's format or requantization to its INT8 scale).
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/executor/ops.h"
#include "kernels/ops/attention.h"
#include "kernels/ops/conv.h"
#include "kernels/validation/metrics.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;

// Operands in the op's format (FP32 for block-scaled ops: their operands arrive quantized);
// FP32 accumulation, or FP16/BF16 when asked (never a narrow float's).
FloatGemmConfig floatConfig(const RunState& s, DType d) {
  const FloatFormat f = formatOf(d);
  return {f, s.opt.low_precision_accumulate && canAccumulateIn(f) ? f : FloatFormat::FP32};
}

// A GEMM operand that is not a stored weight, as float values (weight-only INT8 ones widened).
Tensor floatOperand(const Tensor& w) {
  return w.isFloat() ? asGemmOperand(w)
                     : asGemmOperand(Tensor::fromFloats(w.shape(), realValues(w)));
}

// GPT-2's prefill LM head reads the LAST rows of each batch when its output has fewer rows.
std::shared_ptr<const Tensor> lastRows(std::shared_ptr<const Tensor> x, const models::Tensor& out) {
  if (x->rank() != 3 || out.shape.size() != 3 || out.shape[1] >= x->dim(1)) return x;
  const int64_t b = x->dim(0), s = x->dim(1), keep = out.shape[1], d = x->dim(2);
  Tensor y({b, keep, d}, x->dtype());
  y.quant = x->quant;
  const int64_t bytes = x->dtype() == DType::Int8 ? 1 : 4;
  const auto* src =
      static_cast<const char*>(x->dtype() == DType::Int8 ? static_cast<const void*>(x->i8())
                                                         : static_cast<const void*>(x->f32()));
  auto* dst = static_cast<char*>(y.dtype() == DType::Int8 ? static_cast<void*>(y.i8())
                                                          : static_cast<void*>(y.f32()));
  for (int64_t n = 0; n < b; ++n)
    std::memcpy(dst + n * keep * d * bytes, src + (n * s + s - keep) * d * bytes,
                static_cast<size_t>(keep * d * bytes));
  return std::make_shared<const Tensor>(std::move(y));
}

// An imported view's stored shape need not end in K (models/onnx/import.h): MatMul folds every
// leading dim into rows, so read it as the output's leading dims by K.
std::shared_ptr<const Tensor> asRows(std::shared_ptr<const Tensor> x, const models::Graph& g,
                                     const Op& op) {
  const std::vector<int64_t>& ws = g.tensor(op.inputs.at(1)).shape;
  if (ws.size() != 2) return x;
  const int64_t k = op.transpose_b ? ws[1] : ws[0];
  std::vector<int64_t> shape = g.tensor(op.outputs.at(0)).shape;
  if (x->cols() == k || shape.empty()) return x;
  shape.back() = k;
  if (numelOf(shape) != x->numel()) return x;
  Tensor v = *x;
  v.reshape(shape);
  return std::make_shared<const Tensor>(std::move(v));
}

// INT32 bias at the accumulator scale (per column), as an integer datapath adds it.
std::vector<int32_t> intBias(const std::vector<float>& b, const std::vector<float>& acc_scale) {
  std::vector<int32_t> q(b.size());
  for (size_t c = 0; c < b.size(); ++c) {
    const double v = std::nearbyint(
        b[c] / static_cast<double>(acc_scale.size() > 1 ? acc_scale[c] : acc_scale[0]));
    const double lim = std::numeric_limits<int32_t>::max();
    q[c] = static_cast<int32_t>(std::fmax(-lim, std::fmin(lim, v)));
  }
  return q;
}

Flow accFlow(Domain d, DType t, QuantParams q = {}) { return {d, t, std::move(q)}; }

// Bias (optional) then rounding/requantization to the op's dtype.
BuiltChain ownEpilogue(RunState& s, const Op& op, const Flow& acc, int bias) {
  const DType d = s.dtypeOf(op.outputs.at(0));
  BuiltChain c;
  if (isQuantizedInt(d)) {
    c.chain = OpChain(Domain::Int32);
    if (bias >= 0) c.chain.biasInt(intBias(s.params(bias, FloatFormat::FP32), acc.quant.scale));
    const QuantParams out = s.quantOf(op.outputs.at(0));
    c.chain.requantize(makeRequant(acc.quant.scale, out));
    c.out = {Domain::Int8, d, out};
    return c;
  }
  c.chain = OpChain(Domain::Float);
  if (bias >= 0) c.chain.bias(s.params(bias, formatOf(d)));
  c.chain.roundTo(formatOf(d));
  c.out = {Domain::Float, d, {}};
  return c;
}

AnchorCall gemmLike(RunState& s, const Op& op) {
  const DType d = s.dtypeOf(op.outputs.at(0));
  std::shared_ptr<const Tensor> x = s.tensor(op.inputs.at(0));
  if (op.kind == OpKind::MatMul) x = lastRows(asRows(x, s.g, op), s.g.tensor(op.outputs.at(0)));
  const int w = op.inputs.at(1), bias = op.inputs.size() > 2 ? op.inputs[2] : -1;
  const ConvParams cp{op.conv.r, op.conv.s, op.conv.stride, op.conv.pad};
  const bool conv = op.kind == OpKind::Conv2d, tb = op.transpose_b;
  // Stored weights (and the graph's conversions of them) come packed from the store, once.
  const std::optional<RunState::WeightRef> ref = s.weightRef(w);
  AnchorCall call;
  if (isQuantizedInt(d)) {
    auto local =
        ref ? nullptr : std::make_shared<PackedWeights>(asGemmOperand(*s.tensor(w)), tb, s.opt.isa);
    const PackedWeights* pw =
        local ? local.get()
              : &s.weights.packedWeights(s.g, ref->id, tb, s.opt.isa, ref->from, ref->read);
    call.acc = accFlow(Domain::Int32, DType::Int32, pw->accumulatorQuant(x->quant.scale.at(0)));
    call.run = [x, pw, local, conv, cp](const OpChain& e) {
      return conv ? conv2d(*x, *pw, cp, e) : matmul(*x, *pw, e);
    };
  } else {
    const FloatGemmConfig cfg = floatConfig(s, d);
    auto local =
        ref ? nullptr : std::make_shared<FloatWeights>(floatOperand(*s.tensor(w)), cfg, tb);
    // Weight-only quantization: the weights as the GEMM reads them (int4, mxfp4 ...), widened.
    const FloatWeights* fw =
        local ? local.get() : &s.weights.floatWeights(s.g, ref->id, cfg, tb, ref->from, ref->read);
    call.acc = accFlow(Domain::Float, dtypeOf(cfg.accumulate));
    call.run = [x, fw, local, conv, cp](const OpChain& e) {
      return conv ? conv2d(*x, *fw, cp, e) : matmul(*x, *fw, e);
    };
  }
  call.own = ownEpilogue(s, op, call.acc, bias);
  return call;
}

AnchorCall attention(RunState& s, const Op& op) {
  const DType d = s.dtypeOf(op.outputs.at(0));
  std::shared_ptr<const Tensor> a = s.tensor(op.inputs.at(0)), b = s.tensor(op.inputs.at(1));
  const AttentionParams& p = op.attn;
  AnchorCall call;
  FloatGemmConfig cfg;
  if (isQuantizedInt(d)) {
    // The kernel folds the score's scale into the accumulator's, not into the integers.
    const float acc =
        a->quant.scale.at(0) * b->quant.scale.at(0) * (p.transpose_b ? p.scale : 1.0f);
    call.acc = accFlow(Domain::Int32, DType::Int32,
                       QuantParams::perTensor(acc, 0, std::numeric_limits<int32_t>::min(),
                                              std::numeric_limits<int32_t>::max()));
  } else {
    cfg = floatConfig(s, d);
    call.acc = accFlow(Domain::Float, dtypeOf(cfg.accumulate));
  }
  call.run = [a, b, p, cfg](const OpChain& e) { return batchMatMul(*a, *b, p, cfg, e); };
  call.own = ownEpilogue(s, op, call.acc, -1);
  return call;
}

}  // namespace

AnchorCall prepareAnchor(RunState& s, const Op& op) {
  switch (op.kind) {
    case OpKind::MatMul:
    case OpKind::Conv2d:
      return gemmLike(s, op);
    case OpKind::BatchMatMul:
      return attention(s, op);
    default:
      throw Error("executor: '" + op.name + "' is not a GEMM-like op");
  }
}

}  // namespace tessel::kernels
