#include "kernels/validation/precision_search.h"

#include <algorithm>
#include <cstdio>
#include <limits>

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
    bool narrow = conv;
    for (int t : op.inputs) narrow = narrow || g.tensor(t).dtype != DType::FP32;
    if (narrow || g.tensor(op.outputs.at(0)).dtype != DType::FP32) return op.id;
  }
  return static_cast<int>(g.ops().size());
}

bool hasWeights(const models::Graph& g, const models::Op& op) {
  return (op.kind == OpKind::MatMul || op.kind == OpKind::Conv2d) && op.inputs.size() > 1 &&
         g.tensor(op.inputs[1]).role == models::TensorRole::Weight;
}

// A candidate as it applies to one op: weight-only pairs are their plain dtype on ops without
// weights.
models::OpPrecision forOp(const models::Graph& g, const models::Op& op, models::OpPrecision p) {
  if (!hasWeights(g, op)) {
    p.weights.reset();
    p.sparsity.reset();  // only weights are pruned
  }
  return p;
}

class Prober {
 public:
  Prober(const ReferenceRun& ref, WeightStore& w, const SearchOptions& o)
      : ref_(ref), w_(w), o_(o) {}

  using Lowered = std::vector<std::pair<std::string, models::OpPrecision>>;
  double error(const Lowered& lowered) {
    models::PrecisionPlan plan = uniformPlan(o_.from);
    for (const auto& [op, p] : lowered) plan.set(op, p);
    return error(plan);
  }

  double error(const models::PrecisionPlan& plan) {
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
  int64_t total = 0;  // upper bound: one probe per op and format alone, as many in the greedy pass

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
  if (o.to.empty()) {
    where.yaml_path = "--to";
    throw ConfigError(where, "no format to lower to");
  }
  if (o.metric == SearchMetric::Kl && !isLogits(ref.graph, ref.output)) {
    where.yaml_path = "--metric";
    throw ConfigError(where, "the kl metric needs a model with logits (gpt2, resnet50); '" +
                                 ref.graph.name + "' ends in '" + ref.output + "'");
  }
}

}  // namespace

std::string nameOf(SearchMetric m) { return m == SearchMetric::Kl ? "kl" : "rel_l2"; }

namespace {

// Each candidate op's output error with only it lowered, in each format; kSame for a format that
// is `from` on this op (a weight-only pair on an op without weights, say): nothing to lower.
void measureAlone(const ReferenceRun& ref, const SearchOptions& o, Prober& probe, SearchResult& res) {
  const models::OpPrecision from{o.from, {}, {}, {}};
  for (const models::Op& op : ref.graph.ops()) {
    if (!isCandidate(op.kind)) continue;
    OpSensitivity s{op.name, op.kind, {}, -1, std::numeric_limits<double>::infinity(), false};
    for (const models::OpPrecision& c : o.to) {
      const models::OpPrecision p = forOp(ref.graph, op, c);
      s.errors.push_back(p == from ? kSame : probe.error({{op.name, p}}));
      if (p != from) s.error = std::min(s.error, s.errors.back());
    }
    res.ops.push_back(std::move(s));
  }
}

}  // namespace

namespace {

// The plan of every op's chosen candidate.
Prober::Lowered loweredOf(const ReferenceRun& ref, const SearchOptions& o, const SearchResult& res) {
  Prober::Lowered lowered;
  for (const OpSensitivity& s : res.ops) {
    if (s.chosen < 0) continue;
    const models::Op& op = ref.graph.op(ref.graph.findOp(s.op));
    lowered.emplace_back(s.op, forOp(ref.graph, op, o.to[static_cast<size_t>(s.chosen)]));
  }
  return lowered;
}

// One pass for format f: the ops least sensitive to it first, each moved to it (from `from` or
// a more precise format) when the whole plan's error stays within the tolerance.
void lowerTo(size_t f, const ReferenceRun& ref, const SearchOptions& o, Prober& probe, SearchResult& res) {
  std::vector<size_t> order;
  for (size_t i = 0; i < res.ops.size(); ++i) {
    const double alone = res.ops[i].errors[f];
    // A format that alone exceeds the tolerance is not tried with others.
    if (alone != kSame && alone <= o.tolerance) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return res.ops[a].errors[f] < res.ops[b].errors[f]; });
  for (size_t i : order) {
    OpSensitivity& s = res.ops[i];
    const int before = s.chosen;
    s.chosen = static_cast<int>(f);
    const double e = probe.error(loweredOf(ref, o, res));
    if (e <= o.tolerance) {
      res.error = e;
    } else {
      s.chosen = before;
    }
  }
}

}  // namespace

SearchResult searchPrecision(const ReferenceRun& ref, WeightStore& weights,
                             const SearchOptions& o) {
  checkOptions(ref, o);
  Prober probe(ref, weights, o);
  const int64_t formats = static_cast<int64_t>(o.to.size());
  for (const models::Op& op : ref.graph.ops()) probe.total += isCandidate(op.kind) ? 2 * formats : 0;
  SearchResult res;
  res.plan = uniformPlan(o.from);
  measureAlone(ref, o, probe, res);
  // The most precise format first, the cheapest last: a cheaper format replaces a more precise
  // one wherever the error allows, so the plan is never worse than lowering everything that fits
  // to the most precise candidate.
  for (size_t f = o.to.size(); f-- > 0;) lowerTo(f, ref, o, probe, res);
  for (OpSensitivity& s : res.ops) s.lowered = s.chosen >= 0;
  for (const auto& [op, p] : loweredOf(ref, o, res)) res.plan.set(op, p);
  res.probes = probe.probes;
  return res;
}

double planError(const ReferenceRun& ref, WeightStore& weights, const SearchOptions& o,
                 const models::PrecisionPlan& plan) {
  checkOptions(ref, o);
  Prober probe(ref, weights, o);
  return probe.error(plan);
}

std::string candidateName(const models::OpPrecision& p) {
  std::string out(tessel::nameOf(p.dtype));
  if (p.weights) out += "/" + std::string(tessel::nameOf(*p.weights));
  if (p.sparsity && !p.sparsity->dense()) out += "+" + toString(*p.sparsity);
  return out;
}

std::optional<models::OpPrecision> parseCandidate(const std::string& text) {
  std::string why;
  return parseCandidate(text, why);
}

std::optional<models::OpPrecision> parseCandidate(const std::string& text, std::string& why) {
  const size_t plus = text.find('+');
  const std::string formats = text.substr(0, plus);
  const size_t slash = formats.find('/');
  const std::string act = formats.substr(0, slash);
  const auto dtype = parseDType(act);
  if (!dtype) {
    why = dtypeError(act);
    return std::nullopt;
  }
  models::OpPrecision p{*dtype, {}, {}, {}};
  if (slash != std::string::npos) {
    p.weights = parseDType(formats.substr(slash + 1));
    if (!p.weights) {
      why = dtypeError(formats.substr(slash + 1));
      return std::nullopt;
    }
    if (*p.weights == *dtype) p.weights.reset();
  }
  if (plus != std::string::npos) {
    Sparsity s;
    std::string err;
    if (!parseSparsity(text.substr(plus + 1), s, err)) {
      why = "the weights' sparsity: " + err;
      return std::nullopt;
    }
    if (!s.dense()) p.sparsity = s;
  }
  return p;
}

std::string planYaml(const SearchResult& r, const SearchOptions& o) {
  char line[256];
  std::string out = "# tessel precision: lower the least sensitive ops first while the " +
                    nameOf(o.metric) + " error stays within the tolerance\n";
  std::string formats;
  for (const models::OpPrecision& c : o.to) formats += (formats.empty() ? "" : ", ") + candidateName(c);
  out += "# sensitivity = output error with only that op in " + formats + "\n";
  for (const OpSensitivity& s : r.ops) {
    std::string errors;
    for (double e : s.errors) {
      if (e == kSame) {
        errors += errors.empty() ? "-" : " -";
        continue;
      }
      std::snprintf(line, sizeof line, "%s%.6g", errors.empty() ? "" : " ", e);
      errors += line;
    }
    const std::string chosen = s.chosen >= 0 ? "  -> " + candidateName(r.plan.precisionOf(s.op)) : "";
    std::snprintf(line, sizeof line, "#   %-32s %-12s ", s.op.c_str(), std::string(models::nameOf(s.kind)).c_str());
    out += line + errors + chosen + "\n";
  }
  out += models::toYaml(r.plan);
  std::snprintf(line, sizeof line, "tolerance: %.6g\nmetric: %s\nerror: %.6g\n", o.tolerance,
                nameOf(o.metric).c_str(), r.error);
  return out + line;
}

}  // namespace tessel::kernels
