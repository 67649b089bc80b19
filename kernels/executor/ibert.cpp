// The integer-only (I-BERT) forms of GELU, softmax, LayerNorm and RMSNorm, and the per-head
// application of chains over attention scores.
#include "kernels/ibert/ibert.h"

#include <cstring>
#include <limits>

#include "kernels/executor/ops.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

int64_t elementBytes(DType d) { return d == DType::Int8 ? 1 : 4; }

const char* bytesOf(const Tensor& t) {
  if (t.dtype() == DType::Int8) return reinterpret_cast<const char*>(t.i8());
  if (t.dtype() == DType::Int32) return reinterpret_cast<const char*>(t.i32());
  return reinterpret_cast<const char*>(t.f32());
}

char* bytesOf(Tensor& t) { return const_cast<char*>(bytesOf(static_cast<const Tensor&>(t))); }

}  // namespace

BuiltChain ibertChain(RunState& s, const models::Op& op, const Flow& in, const ChainSite& site) {
  if (in.quant.perChannel()) throw Error("executor: '" + op.name + "' needs a per-tensor scale");
  const float scale = in.quant.scale.at(0);
  const QuantParams& out = s.quantOf(op.outputs.at(0));
  BuiltChain c;
  c.chain = OpChain(Domain::Int32);
  switch (op.kind) {
    case models::OpKind::Gelu:
      c.chain.iGelu(scale);
      c.chain.requantize(makeRequant(c.chain.outputQuant({}).scale, out));
      c.out = {Domain::Int8, DType::Int8, out};
      return c;
    case models::OpKind::Softmax:
      if (site.causal_offset) c.chain.causalMask(*site.causal_offset);
      c.chain.iSoftmax(scale);  // 8-bit probabilities at the fixed scale 1/256
      c.out = {Domain::Int8, DType::Int8, ISoftmax::outputQuant()};
      return c;
    case models::OpKind::LayerNorm:
      c.chain.iLayerNorm(s.params(op.inputs.at(1), FloatFormat::FP32),
                         s.params(op.inputs.at(2), FloatFormat::FP32));
      c.chain.requantize(makeRequant(c.chain.outputQuant({}).scale, out));  // per channel
      c.out = {Domain::Int8, DType::Int8, out};
      return c;
    case models::OpKind::RmsNorm:
      c.chain.iRmsNorm(s.params(op.inputs.at(1), FloatFormat::FP32));
      c.chain.requantize(makeRequant(c.chain.outputQuant({}).scale, out));  // per channel
      c.out = {Domain::Int8, DType::Int8, out};
      return c;
    default:
      throw Error("executor: '" + op.name + "' has no integer-only form");
  }
}

Tensor widenToInt32(const Tensor& x) {
  if (x.dtype() != DType::Int8 || x.quant.perChannel())
    throw Error("widenToInt32: needs a per-tensor INT8 tensor");
  const int32_t zp = x.quant.zero_point.at(0);
  std::vector<int32_t> v(static_cast<size_t>(x.numel()));
  const int8_t* q = x.i8();
  for (size_t i = 0; i < v.size(); ++i) v[i] = q[i] - zp;
  return Tensor::fromInt32(
      x.shape(), std::move(v),
      QuantParams::perTensor(x.quant.scale.at(0), 0, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max()));
}

Tensor applyPerHead(const OpChain& chain, const Tensor& x) {
  if (x.rank() < 2) throw Error("applyPerHead: needs a [..., S, T] tensor");
  const int64_t s = x.dim(-2), t = x.dim(-1), heads = s * t > 0 ? x.numel() / (s * t) : 0;
  Tensor out(x.shape(), chain.outputDType(x.dtype()));
  out.quant = chain.outputQuant(x.quant);
  const int64_t in_bytes = s * t * elementBytes(x.dtype());
  const int64_t out_bytes = s * t * elementBytes(out.dtype());
  Tensor head({s, t}, x.dtype());
  head.quant = x.quant;
  for (int64_t h = 0; h < heads; ++h) {
    std::memcpy(bytesOf(head), bytesOf(x) + h * in_bytes, static_cast<size_t>(in_bytes));
    const Tensor y = applyChain(chain, head);
    std::memcpy(bytesOf(out) + h * out_bytes, bytesOf(y), static_cast<size_t>(out_bytes));
    out.saturation += y.saturation;
  }
  return out;
}

}  // namespace tessel::kernels
