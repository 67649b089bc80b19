#include "kernels/validation/validate.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gemm/isa/ceiling.h"
#include "util/error.h"

namespace tessel::kernels {

std::shared_ptr<const Tensor> ReferenceRun::find(const std::string& name) const {
  auto it = activations.find(name);
  return it == activations.end() ? nullptr : it->second;
}

models::PrecisionPlan uniformPlan(DType dtype) {
  models::PrecisionPlan p;
  p.default_dtype = dtype;
  return p;
}

models::Graph lowerGraph(const models::Graph& graph, const models::PrecisionPlan& plan) {
  return models::applyPrecision(graph, plan);
}

Calibration calibrationNamed(const std::string& method, double percentile) {
  Calibration c;
  SourceLocation where;
  where.yaml_path = method == "percentile" ? "--percentile" : "--calibration";
  if (method == "percentile") {
    if (!(percentile > 50.0 && percentile <= 100.0))
      throw ConfigError(where,
                        "percentile must be in (50, 100] (got " + std::to_string(percentile) + ")");
    c.method = CalibrationMethod::Percentile;
    c.percentile = percentile;
  } else if (method != "minmax") {
    throw ConfigError(where, "unknown calibration '" + method + "' (accepted: minmax, percentile)");
  }
  return c;
}

bool isLogits(const models::Graph& g, const std::string& output) {
  return output == "lm_head" || (output == "fc" && g.findOp("avgpool") >= 0);
}

namespace {

// `g` with every tensor dense: what the reference runs.
models::Graph denseCopy(const models::Graph& g) {
  models::Graph dense = g;
  for (const models::Tensor& t : g.tensors()) dense.tensor(t.id).sparsity = Sparsity();
  return dense;
}

// The zeros of the GEMM inputs `readers` lists (gemmInputs) that the run never wrote (graph
// inputs), from the reference: the same synthetic data.
ZeroCount unwrittenInputs(const models::Graph& g, const std::map<int, int>& readers,
                          const std::vector<char>& seen, const ReferenceRun& ref) {
  ZeroCount z;
  for (const auto& [id, n] : readers) {
    if (seen[static_cast<size_t>(id)]) continue;
    if (const std::shared_ptr<const Tensor> t = ref.find(g.tensor(id).name)) {
      const ZeroCount one = countZeros(*t);
      for (int i = 0; i < n; ++i) z += one;
    }
  }
  return z;
}

}  // namespace

ReferenceRun runReference(const models::Graph& graph, WeightStore& weights,
                          const Calibration& calibration, const Progress& progress) {
  (void)isaCeiling();  // a bad TESSEL_ISA fails before any work
  ReferenceRun ref;
  ref.graph = models::applyPrecision(graph, uniformPlan(DType::FP32));
  ref.ranges = ActivationRanges(calibration);
  if (ref.graph.ops().empty()) throw Error("validate: graph '" + graph.name + "' has no ops");
  ref.output = ref.graph.tensor(ref.graph.ops().back().outputs.at(0)).name;
  for (const models::Tensor& t : ref.graph.tensors()) {
    if (t.role != models::TensorRole::Input || t.dtype != DType::FP32) continue;
    const std::shared_ptr<const Tensor> v = weights.raw(ref.graph, t.id);
    ref.activations[t.name] = v;
    ref.ranges.record(t.name, *v);
  }
  const models::Graph dense = denseCopy(ref.graph);
  Executor exec(dense, weights);  // unfused: every op's output exists to compare with
  const auto total = static_cast<int64_t>(ref.graph.ops().size());
  exec.run([&](const models::Op& op, const std::shared_ptr<const Tensor>& out) {
    const std::string& name = ref.graph.tensor(op.outputs.at(0)).name;
    ref.activations[name] = out;
    ref.ranges.record(name, *out);
    if (progress) progress("reference", op.id + 1, total);
  });
  return ref;
}

OutputReport compareOutput(const ReferenceRun& ref, const models::Graph& g, const Tensor& out) {
  OutputReport r;
  r.tensor = ref.output;
  const std::shared_ptr<const Tensor> want = ref.find(ref.output);
  if (!want) throw Error("validate: the reference has no output '" + ref.output + "'");
  r.error = compare(*want, out);
  r.logits = isLogits(g, ref.output);
  if (r.logits) {
    r.rows = want->rows();
    r.top1 = top1Agreement(*want, out);
    r.kl = meanKlDivergence(*want, out);
  }
  return r;
}

ValidationReport validate(const ReferenceRun& ref, const models::Graph& lowered,
                          WeightStore& weights, const ExecutorOptions& options,
                          const Progress& progress) {
  ValidationReport rep;
  rep.graph = lowered.name;
  for (const models::Op& op : lowered.ops()) {
    OpReport o;
    o.op = op.id;
    o.name = op.name;
    o.kind = op.kind;
    o.dtype = lowered.tensor(op.outputs.at(0)).dtype;
    rep.ops.push_back(o);
  }
  Executor exec(lowered, weights, options, &ref.ranges);
  std::shared_ptr<const Tensor> output;
  const std::map<int, int> gemm_inputs = gemmInputs(lowered);
  std::vector<char> seen(lowered.tensors().size(), 0);
  const RunResult run = exec.run([&](const models::Op& op, const std::shared_ptr<const Tensor>& t) {
    const int id = op.outputs.at(0);
    const std::string& name = lowered.tensor(id).name;
    if (name == ref.output) output = t;
    if (auto it = gemm_inputs.find(id); it != gemm_inputs.end() && !seen[static_cast<size_t>(id)]) {
      seen[static_cast<size_t>(id)] = 1;
      const ZeroCount one = countZeros(*t);
      for (int i = 0; i < it->second; ++i) rep.gemm_input_zeros += one;
    }
    const std::shared_ptr<const Tensor> want = ref.find(name);
    OpReport& o = rep.ops[static_cast<size_t>(op.id)];
    o.compared = want != nullptr;
    if (want) o.error = compare(*want, *t);
    if (progress) progress("lowered", op.id + 1, static_cast<int64_t>(lowered.ops().size()));
  });
  for (const OpRecord& r : run.ops) {
    OpReport& o = rep.ops[static_cast<size_t>(r.op)];
    if (r.written_by >= 0 && r.written_by != r.op) o.fused_into = lowered.op(r.written_by).name;
    o.saturation = r.saturation;
    rep.saturation += r.saturation;
  }
  rep.gemm_input_zeros += unwrittenInputs(lowered, gemm_inputs, seen, ref);
  if (!output) throw Error("validate: '" + lowered.name + "' did not produce '" + ref.output + "'");
  rep.output = compareOutput(ref, lowered, *output);
  return rep;
}

}  // namespace tessel::kernels

namespace tessel::kernels {

namespace {

// What the executor cannot run of an op in `dtype` with weights in `weights`, as a phrase after
// the op's name (" in int16 cannot be executed"); "" when it runs it.
std::string notExecutable(DType dtype, std::optional<DType> weights) {
  const std::string d(nameOf(dtype));
  if (dtype == DType::Int16 || dtype == DType::Int32 || dtype == DType::UInt4)
    return " in " + d + " cannot be executed" +
           (dtype == DType::UInt4 ? " (uint4 runs as a matmul's weights only)" : "");
  if (!weights) return "";
  const std::string w(nameOf(*weights));
  if (*weights == DType::Int16 || *weights == DType::Int32)
    return " with " + w + " weights cannot be executed";
  if ((dtype == DType::Int8 || dtype == DType::Int4) && *weights != DType::Int8 &&
      *weights != DType::Int4)
    return " in " + d + " cannot read " + w + " weights (integer matmuls read int8 or int4)";
  return "";
}

}  // namespace

void checkExecutable(const models::PrecisionPlan& plan) {
  const std::string accepted =
      " (the executor runs fp32, fp16, bf16, fp8/fp6/fp4, block-scaled types, int8 and int4, and "
      "any of them but int16/int32 as weights)";
  const std::string why = notExecutable(plan.default_dtype, plan.default_weights);
  if (!why.empty()) throw ConfigError(plan.default_where, "ops by default" + why + accepted);
  for (const auto& e : plan.ops) {
    const std::string w = notExecutable(e.dtype, e.weights);
    if (!w.empty()) throw ConfigError(e.where, "op '" + e.op + "'" + w + accepted);
  }
}

}  // namespace tessel::kernels
