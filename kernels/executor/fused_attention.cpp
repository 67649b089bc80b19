#include "kernels/executor/fused_attention.h"

#include <algorithm>

#include "kernels/executor/ops.h"
#include "kernels/ops/flash_attention.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;

bool isConversion(OpKind k) { return k == OpKind::Quantize || k == OpKind::Dequantize; }

bool plainFloat(DType d) { return !isInteger(d) && !isBlockScaled(d) && d != DType::E8M0; }

// The tensors P passes through: the softmax's output, then each conversion's, the last one being
// what the context reads.
std::vector<int> probabilityTensors(const models::Graph& g, const std::vector<int>& ops) {
  std::vector<int> p;
  bool after_softmax = false;
  for (int id : ops) {
    const Op& op = g.op(id);
    if (op.kind == OpKind::Softmax) after_softmax = true;
    if (after_softmax && op.kind != OpKind::BatchMatMul) p.push_back(op.outputs.at(0));
  }
  return p;
}

// A GEMM whose operands and output are all INT8 or all plain floats (what batchMatMul runs).
bool consistentGemm(const models::Graph& g, const Op& op) {
  const bool int8 = g.tensor(op.outputs.at(0)).dtype == DType::Int8;
  for (int t : {op.inputs.at(0), op.inputs.at(1)})
    if ((g.tensor(t).dtype == DType::Int8) != int8) return false;
  return true;
}

bool lowPrecisionSums(const models::Graph& g, const Op& op, const ExecutorOptions& o) {
  const DType d = g.tensor(op.outputs.at(0)).dtype;
  return o.low_precision_accumulate && !isInteger(d) && canAccumulateIn(formatOf(d));
}

// P may be stored in floats, then in INT8 for an INT8 context, never back to float.
bool probabilitiesFit(const models::Graph& g, const std::vector<int>& p, bool int8_context) {
  bool seen_int8 = false;
  for (int t : p) {
    const bool int8 = g.tensor(t).dtype == DType::Int8;
    if (seen_int8 && !int8) return false;
    seen_int8 = seen_int8 || int8;
  }
  return seen_int8 == int8_context;
}

}  // namespace

bool canFuseAttention(const models::Graph& g, const models::ChainGroup& c,
                      const ExecutorOptions& o) {
  if (c.kind != models::ChainKind::Attention || c.score < 0 || c.softmax < 0 || c.context < 0)
    return false;
  const Op& score = g.op(c.score);
  const Op& softmax = g.op(c.softmax);
  const Op& context = g.op(c.context);
  for (int t : {score.inputs.at(0), score.inputs.at(1), context.inputs.at(1)})
    if (g.tensor(t).shape.size() != 3) return false;
  for (int id : c.ops) {
    const Op& op = g.op(id);
    if (id != c.score && id != c.softmax && id != c.context && !isConversion(op.kind)) return false;
    for (const std::vector<int>* ts : {&op.inputs, &op.outputs})
      for (int t : *ts) {
        const DType d = g.tensor(t).dtype;
        if (d != DType::Int8 && !plainFloat(d)) return false;
      }
  }
  if (!consistentGemm(g, score) || !consistentGemm(g, context)) return false;
  const bool int8_context = g.tensor(context.outputs.at(0)).dtype == DType::Int8;
  if (!probabilitiesFit(g, probabilityTensors(g, c.ops), int8_context)) return false;
  const bool ibert = o.integer_nonlinear && g.tensor(softmax.inputs.at(0)).dtype == DType::Int8 &&
                     g.tensor(softmax.outputs.at(0)).dtype == DType::Int8;
  return !ibert && !lowPrecisionSums(g, score, o) && !lowPrecisionSums(g, context, o);
}

std::vector<std::vector<int>> fusedAttentionChains(const models::Graph& g,
                                                   const ExecutorOptions& o) {
  std::vector<std::vector<int>> chains;
  if (!o.fuse_attention) return chains;
  for (const models::ChainGroup& c : models::findChains(g))
    if (canFuseAttention(g, c, o)) chains.push_back(c.ops);
  return chains;
}

std::shared_ptr<const Tensor> runFusedAttention(RunState& s, const std::vector<int>& ops) {
  const Op& score = s.g.op(ops.front());
  const Op& context = s.g.op(ops.back());
  const DType ds = s.dtypeOf(score.outputs.at(0)), dc = s.dtypeOf(context.outputs.at(0));
  FlashConfig cfg;
  if (!isInteger(ds)) cfg.qk = formatOf(ds);
  if (!isInteger(dc)) cfg.v = formatOf(dc);
  for (int t : probabilityTensors(s.g, ops))
    if (!isInteger(s.dtypeOf(t))) cfg.p_rounding.push_back(formatOf(s.dtypeOf(t)));
  cfg.out = dc;
  if (dc == DType::Int8) cfg.out_quant = s.quantOf(context.outputs.at(0));
  return shared(flashAttention(*s.tensor(score.inputs.at(0)), *s.tensor(score.inputs.at(1)),
                               *s.tensor(context.inputs.at(1)), score.attn, context.attn, cfg));
}

}  // namespace tessel::kernels
