#include "kernels/executor/executor.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "kernels/executor/fused_attention.h"
#include "kernels/executor/ops.h"
#include "kernels/executor/plan.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

// One kernel call: the anchor with its members chained into its epilogue, or an op alone.
std::shared_ptr<const Tensor> runStep(RunState& s, const Step& step) {
  const models::Op& first = s.g.op(step.ops.front());
  if (step.attention) return runFusedAttention(s, step.ops);
  if (step.ops.size() == 1) return runAlone(s, first);
  const AnchorCall call = prepareAnchor(s, first);
  BuiltChain all = call.own;
  ChainSite site;
  if (first.kind == models::OpKind::BatchMatMul)
    site.causal_offset = causalOffset(s.g, first.outputs.at(0));
  for (size_t k = 1; k < step.ops.size(); ++k) {
    const int chained = s.g.op(step.ops[k - 1]).outputs.at(0);
    BuiltChain m = memberChain(s, s.g.op(step.ops[k]), chained, all.out, site);
    all.chain.then(m.chain);
    all.out = m.out;
    all.keep.insert(all.keep.end(), m.keep.begin(), m.keep.end());
  }
  return shared(call.run(all.chain));
}

// Saturation of a step's output, without the masked attention entries driven to qmin on purpose
// (a fused attention kernel never quantizes its scores: nothing to take out).
SaturationStats clipping(const models::Graph& g, const Step& step, const Tensor& out) {
  if (step.attention) return out.saturation;
  int64_t masked = 0;
  for (int op : step.ops) masked += maskedEntries(g, g.op(op).outputs.at(0));
  SaturationStats sat = out.saturation;
  sat.low -= std::min(sat.low, masked);
  return sat;
}

// A block-scaled output, quantized in blocks along its last axis: the kernels compute and round
// value by value, and only the whole tensor has whole rows. Weight conversions come blocked along
// their reduction axis from the store and stay so. Re-rounding a block-scaled tensor leaves it.
// A causal score's masked -inf entries are not data: they stay -inf and out of their blocks (as
// zeros), or one masked entry would make its whole block NaN.
std::shared_ptr<const Tensor> blockRounded(const models::Graph& g, const Step& step,
                                           std::shared_ptr<const Tensor> out, DType want) {
  const models::Op& op = g.op(step.ops.back());
  const bool weight_conversion =
      (op.kind == models::OpKind::Quantize || op.kind == models::OpKind::Dequantize) &&
      g.tensor(op.inputs.at(0)).role == models::TensorRole::Weight;
  if (!isBlockScaled(want) || !out->isFloat() || weight_conversion) return out;
  std::vector<float> v(out->f32(), out->f32() + out->numel());
  std::vector<int64_t> masked;
  if (causalOffset(g, op.outputs.at(0)))
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] == -std::numeric_limits<float>::infinity()) {
        masked.push_back(static_cast<int64_t>(i));
        v[i] = 0.0f;
      }
  Tensor t = Tensor::fromFloats(out->shape(), std::move(v), want);
  for (int64_t i : masked) t.f32()[i] = -std::numeric_limits<float>::infinity();
  t.saturation = out->saturation;
  return std::make_shared<const Tensor>(std::move(t));
}

}  // namespace

Executor::Executor(const models::Graph& g, WeightStore& weights, ExecutorOptions options,
                   const ActivationRanges* ranges)
    : g_(g),
      weights_(weights),
      options_(options),
      ranges_(ranges),
      plan_(std::make_unique<ExecPlan>(planExecution(g, options))) {}

Executor::~Executor() = default;

const std::vector<std::vector<int>>& Executor::steps() const { return plan_->step_ops; }

RunResult Executor::run(const Observer& observe) const { return runFrom(0, Feeds(), observe); }

RunResult Executor::runFrom(int first_op, const Feeds& feeds, const Observer& observe) const {
  RunState s(g_, weights_, options_, ranges_, &feeds);
  RunResult result;
  result.ops.resize(g_.ops().size());
  for (const models::Op& op : g_.ops()) result.ops[static_cast<size_t>(op.id)].op = op.id;
  for (size_t si = 0; si < plan_->steps.size(); ++si) {
    const Step& step = plan_->steps[si];
    if (step.position < first_op) continue;
    const models::Op& last = g_.op(step.ops.back());
    const int out_id = last.outputs.at(0);
    std::shared_ptr<const Tensor> out = runStep(s, step);
    if (out->shape() != g_.tensor(out_id).shape && out->numel() == g_.tensor(out_id).elements()) {
      Tensor v = *out;  // an imported view's reader wrote the values in its input's shape
      v.reshape(g_.tensor(out_id).shape);
      out = std::make_shared<const Tensor>(std::move(v));
    }
    out = blockRounded(g_, step, std::move(out), g_.tensor(out_id).dtype);
    if (out->dtype() != storageOf(g_.tensor(out_id).dtype) ||
        out->shape() != g_.tensor(out_id).shape)
      throw Error("executor: '" + last.name + "' produced a " + std::string(nameOf(out->dtype())) +
                  " tensor of the wrong shape or dtype (graph: " +
                  std::string(nameOf(g_.tensor(out_id).dtype)) + ")");
    for (size_t k = 0; k < step.ops.size(); ++k) {
      OpRecord& r = result.ops[static_cast<size_t>(step.ops[k])];
      r.written_by = last.id;
      r.step = static_cast<int>(si);
    }
    result.ops[static_cast<size_t>(last.id)].saturation = clipping(g_, step, *out);
    s.put(out_id, out);
    if (observe) observe(last, out);
    if (g_.consumersOf(out_id).empty()) result.outputs[g_.tensor(out_id).name] = out;
    for (int op : step.ops)
      for (int t : g_.op(op).inputs)
        if (plan_->last_use[static_cast<size_t>(t)] == static_cast<int>(si)) s.drop(t);
  }
  return result;
}

}  // namespace tessel::kernels
