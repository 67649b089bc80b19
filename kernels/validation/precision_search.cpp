#include "kernels/validation/precision_search.h"

#include <algorithm>
#include <cstdio>

#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

bool isCandidate(OpKind k) {
  switch (k) {
    case OpKind::MatMul:
    case OpKind::BatchMatMul:
    case OpKind::Conv2d:
    case OpKind::Softmax:
    case OpKind::LayerNorm:
    case OpKind::Gelu:
    case OpKind::RmsNorm:
    case OpKind::Silu:
    case OpKind::Sigmoid:
    case OpKind::HardSwish:
      return true;
    default:
      return false;
  }
}

// The first op of a lowered graph that differs from the FP32 run: everything before it can be
// fed from the reference.
int firstLowered(const models::Graph& g) {
  for (const models::Op& op : g.ops()) {
    const bool conv = op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize;
    if (conv || g.tensor(op.outputs.at(0)).dtype != DType::FP32) return op.id;
  }
  return static_cast<int>(g.ops().size());
}

class Prober {
 public:
  Prober(const ReferenceRun& ref, WeightStore& w, const SearchOptions& o)
      : ref_(ref), w_(w), o_(o) {}

  double error(const std::vector<std::string>& lowered) {
    models::PrecisionPlan plan = uniformPlan(DType::FP32);
    for (const std::string& op : lowered) plan.set(op, o_.to);
    const models::Graph g = lowerGraph(ref_.graph, plan);
    Executor exec(g, w_, o_.exec, &ref_.ranges);
    const RunResult run =
        exec.runFrom(firstLowered(g), [this](const std::string& n) { return ref_.find(n); });
    ++probes;
    if (o_.progress) o_.progress("probes", probes, total);
    auto it = run.outputs.find(ref_.output);
    if (it == run.outputs.end()) throw Error("precision search: the probe produced no output");
    const OutputReport r = compareOutput(ref_, g, *it->second);
    return o_.metric == SearchMetric::Kl ? r.kl : r.error.rel_l2;
  }

  int probes = 0;
  int64_t total = 0;  // upper bound: one probe per candidate alone, one more in the greedy pass

 private:
  const ReferenceRun& ref_;
  WeightStore& w_;
  const SearchOptions& o_;
};

void checkOptions(const ReferenceRun& ref, const SearchOptions& o) {
  SourceLocation where;
  if (!(o.tolerance > 0.0)) {
    where.yaml_path = "--tolerance";
    throw ConfigError(where, "tolerance must be positive");
  }
  if (o.metric == SearchMetric::Kl && !isLogits(ref.graph, ref.output)) {
    where.yaml_path = "--metric";
    throw ConfigError(where, "the kl metric needs a model with logits (gpt2, resnet50); '" +
                                 ref.graph.name + "' ends in '" + ref.output + "'");
  }
}

}  // namespace

std::string nameOf(SearchMetric m) { return m == SearchMetric::Kl ? "kl" : "rel_l2"; }

SearchResult searchPrecision(const ReferenceRun& ref, WeightStore& weights,
                             const SearchOptions& o) {
  checkOptions(ref, o);
  Prober probe(ref, weights, o);
  for (const models::Op& op : ref.graph.ops()) probe.total += isCandidate(op.kind) ? 2 : 0;
  SearchResult res;
  res.plan = uniformPlan(DType::FP32);
  for (const models::Op& op : ref.graph.ops())
    if (isCandidate(op.kind)) res.ops.push_back({op.name, op.kind, probe.error({op.name}), false});
  std::vector<size_t> order(res.ops.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return res.ops[a].error < res.ops[b].error; });
  std::vector<std::string> lowered;
  for (size_t i : order) {
    // An op that alone exceeds the tolerance is not tried with others.
    if (res.ops[i].error > o.tolerance) continue;
    lowered.push_back(res.ops[i].op);
    const double e = probe.error(lowered);
    if (e <= o.tolerance) {
      res.ops[i].lowered = true;
      res.error = e;
    } else {
      lowered.pop_back();
    }
  }
  for (const OpSensitivity& s : res.ops)
    if (s.lowered) res.plan.set(s.op, o.to);
  res.probes = probe.probes;
  return res;
}

std::string planYaml(const SearchResult& r, const SearchOptions& o) {
  char line[256];
  std::string out = "# tessel precision: lower the least sensitive ops first while the " +
                    nameOf(o.metric) + " error stays within the tolerance\n";
  out += "# sensitivity = output error with only that op in " + std::string(nameOf(o.to)) + "\n";
  for (const OpSensitivity& s : r.ops) {
    std::snprintf(line, sizeof line, "#   %-32s %-12s %.6g%s\n", s.op.c_str(),
                  std::string(models::nameOf(s.kind)).c_str(), s.error,
                  s.lowered ? "  lowered" : "");
    out += line;
  }
  out += models::toYaml(r.plan);
  std::snprintf(line, sizeof line, "tolerance: %.6g\nmetric: %s\nerror: %.6g\n", o.tolerance,
                nameOf(o.metric).c_str(), r.error);
  return out + line;
}

}  // namespace tessel::kernels
