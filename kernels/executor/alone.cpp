// Ops that run alone: chain-form ops over a whole tensor (per attention head when quantized
// causal scores need their mask again), embedding, pooling, and conversions of weights.
#include <limits>
#include <unordered_map>

#include "kernels/executor/ops.h"
#include "kernels/executor/support.h"
#include "kernels/numeric/quantize.h"
#include "kernels/ops/pooling.h"
#include "kernels/validation/metrics.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;

bool isConversion(OpKind k) { return k == OpKind::Quantize || k == OpKind::Dequantize; }

bool isIbertKind(OpKind k) {
  return k == OpKind::Gelu || k == OpKind::Softmax || k == OpKind::LayerNorm ||
         k == OpKind::RmsNorm;
}

Tensor chainAlone(RunState& s, const Op& op) {
  std::shared_ptr<const Tensor> x = s.tensor(op.inputs.at(0));
  const bool ibert = s.opt.integer_nonlinear && x->dtype() == DType::Int8 &&
                     s.dtypeOf(op.outputs.at(0)) == DType::Int8 && isIbertKind(op.kind);
  if (ibert) x = std::make_shared<const Tensor>(widenToInt32(*x));
  const Flow in = flowOf(*x);
  ChainSite site;
  if (op.kind == OpKind::Softmax && in.domain != Domain::Float)
    site.causal_offset = causalOffset(s.g, op.inputs.at(0));
  const BuiltChain c = memberChain(s, op, op.inputs.at(0), in, site);
  return site.causal_offset ? applyPerHead(c.chain, *x) : applyChain(c.chain, *x);
}

// One gathered INT8 row to the output's scale, integer only.
void requantizeRow(const int8_t* in, int8_t* out, int64_t n, FixedPointMultiplier m,
                   const QuantParams& q, SaturationStats& sat) {
  const int32_t zp = q.zero_point.at(0);
  for (int64_t c = 0; c < n; ++c) {
    const int64_t v = static_cast<int64_t>(multiplyByFixedPoint(in[c], m)) + zp;
    sat.low += v < q.qmin;
    sat.high += v > q.qmax;
    out[c] = static_cast<int8_t>(std::clamp<int64_t>(v, q.qmin, q.qmax));
  }
  sat.total += n;
}

// INT8 tables are quantized per row; each gathered row is requantized to the output's scale.
Tensor embed(RunState& s, const Op& op) {
  const std::shared_ptr<const Tensor> ids = s.tensor(op.inputs.at(0));
  const std::shared_ptr<const Tensor> table = s.tensor(op.inputs.at(1));
  Tensor rows = embedding(*ids, *table);
  if (table->dtype() != DType::Int8) return rows;
  const QuantParams& out_q = s.quantOf(op.outputs.at(0));
  Tensor out(rows.shape(), DType::Int8);
  out.quant = out_q;
  std::unordered_map<int32_t, FixedPointMultiplier> mult;  // per table row used
  const int64_t d = rows.cols();
  const int32_t* id = ids->i32();
  const int8_t* in = rows.i8();
  int8_t* o = out.i8();
  for (int64_t i = 0; i < ids->numel(); ++i) {
    auto it = mult.find(id[i]);
    if (it == mult.end()) {
      const double real = static_cast<double>(table->quant.scaleAt(id[i])) / out_q.scale.at(0);
      it = mult.emplace(id[i], toFixedPoint(real)).first;
    }
    requantizeRow(in + i * d, o + i * d, d, it->second, out_q, out.saturation);
  }
  return out;
}

Tensor pool(RunState& s, const Op& op) {
  const std::shared_ptr<const Tensor> x = s.tensor(op.inputs.at(0));
  const PoolParams p{op.pool.window, op.pool.stride, op.pool.pad, true};
  if (op.kind == OpKind::MaxPool) return maxPool(*x, p);  // exact: INT8 keeps its scale
  const bool q = x->dtype() == DType::Int8;
  const Tensor xf = q ? dequantize(*x) : *x;
  Tensor y = op.kind == OpKind::AvgPool ? avgPool(xf, p) : globalAvgPool(xf);
  return q ? quantize(y, s.quantOf(op.outputs.at(0))) : y;
}

// A weight wanted in a second dtype: the conversion of its stored form, cached by the store.
std::shared_ptr<const Tensor> convertWeight(RunState& s, const Op& op) {
  const int w = op.inputs.at(0);
  return s.weights.weight(s.g, w, s.dtypeOf(op.outputs.at(0)), s.dtypeOf(w));
}

}  // namespace

std::shared_ptr<const Tensor> shared(Tensor t) {
  // A chain that requantized before ending in float still reports those params: drop them.
  if (t.isFloat()) t.quant = QuantParams();
  return std::make_shared<const Tensor>(std::move(t));
}

std::shared_ptr<const Tensor> runAlone(RunState& s, const Op& op) {
  if (runsInFloat(s.g, op)) return runFloatOp(s, op);
  switch (op.kind) {
    case OpKind::Embedding:
      return shared(embed(s, op));
    case OpKind::MaxPool:
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return shared(pool(s, op));
    case OpKind::MatMul:
    case OpKind::Conv2d:
    case OpKind::BatchMatMul: {
      const AnchorCall call = prepareAnchor(s, op);
      return shared(call.run(call.own.chain));
    }
    default:
      break;
  }
  if (isConversion(op.kind) && s.fromStore(op.inputs.at(0))) return convertWeight(s, op);
  return shared(chainAlone(s, op));
}

std::optional<int64_t> causalOffset(const models::Graph& g, int id) {
  for (int p = g.producerOf(id); p >= 0; p = g.producerOf(id)) {
    const Op& op = g.op(p);
    if (op.kind == OpKind::BatchMatMul) {
      // A plain batched matmul (heads == 0) masks its [M, N] matrices whatever its operands.
      if (!op.attn.causal || (op.attn.heads > 0 && !op.attn.transpose_b)) return std::nullopt;
      const std::vector<int64_t>& sh = g.tensor(op.outputs.at(0)).shape;  // [..., S, T]
      return sh.at(sh.size() - 1) - sh.at(sh.size() - 2);
    }
    if (!isConversion(op.kind)) return std::nullopt;
    id = op.inputs.at(0);
  }
  return std::nullopt;
}

int64_t maskedEntries(const models::Graph& g, int id) {
  const models::Tensor& t = g.tensor(id);
  const std::optional<int64_t> off = causalOffset(g, id);
  if (!isQuantizedInt(t.dtype) || !off) return 0;
  const size_t rank = t.shape.size();
  const int64_t rows = t.shape.at(rank - 2), cols = t.shape.at(rank - 1);
  const int64_t heads = rows * cols > 0 ? t.elements() / (rows * cols) : 0;
  int64_t masked = 0;
  for (int64_t r = 0; r < rows; ++r) masked += std::max<int64_t>(0, cols - (r + *off + 1));
  return heads * masked;
}

}  // namespace tessel::kernels
