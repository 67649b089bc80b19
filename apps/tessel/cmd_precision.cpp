// tessel precision: per-op sensitivity to a lower dtype, then a greedy plan that lowers the least
// sensitive ops while the end-to-end output error stays within the tolerance.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include "apps/tessel/commands.h"
#include "apps/tessel/exec_args.h"
#include "apps/tessel/progress_line.h"
#include "apps/tessel/workload_args.h"
#include "kernels/validation/precision_search.h"
#include "arch/accelerator.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/precision.h"
#include "models/workload.h"
#include "sim/run.h"
#include "util/units.h"
#include "util/error.h"

namespace tessel::app {

namespace {

std::vector<models::OpPrecision> candidatesOf(const std::string& list) {
  std::vector<models::OpPrecision> out;
  size_t at = 0;
  while (at <= list.size()) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    std::string why;
    const auto c = kernels::parseCandidate(item, why);
    if (!c) {
      throw ConfigError({"", 0, 0, "--to"}, "format '" + item + "' in '" + list +
                                                "' (a dtype or ACTIVATIONS/WEIGHTS, optionally "
                                                "+SPARSITY, e.g. bf16/int4_g128_fp16, bf16+2:4): " +
                                                why);
    }
    out.push_back(*c);
    at = comma + 1;
  }
  return out;
}

kernels::SearchOptions searchOptions(const PrecisionArgs& a) {
  kernels::SearchOptions o;
  o.to = candidatesOf(a.to);
  const auto from = parseDType(a.from);
  if (!from) throw ConfigError({"", 0, 0, "--from"}, dtypeError(a.from));
  o.from = *from;
  if (a.metric == "kl")
    o.metric = kernels::SearchMetric::Kl;
  else if (a.metric != "rel_l2")
    throw ConfigError({"", 0, 0, "--metric"},
                      "unknown metric '" + a.metric + "' (accepted: rel_l2, kl)");
  o.tolerance = a.tolerance;
  o.exec = executorOptions(a.exec);
  return o;
}

std::string formatsText(const kernels::SearchOptions& o) {
  std::string out;
  for (const models::OpPrecision& c : o.to) out += (out.empty() ? "" : ", ") + kernels::candidateName(c);
  return out;
}

void writeSummary(const kernels::SearchResult& r, const kernels::SearchOptions& o,
                  const std::string& graph, std::ostream& out) {
  char b[256];
  out << graph << ": sensitivity = " << kernels::nameOf(o.metric) << " of the output with only "
      << "that op in " << formatsText(o) << "\n";
  std::snprintf(b, sizeof b, "%-34s %-12s ", "op", "kind");
  out << b;
  std::vector<int> width;  // a column per candidate, as wide as its name
  for (const models::OpPrecision& c : o.to) {
    const std::string name = kernels::candidateName(c);
    width.push_back(std::max(12, static_cast<int>(name.size())));
    std::snprintf(b, sizeof b, "%*s ", width.back(), name.c_str());
    out << b;
  }
  out << " plan\n";
  int lowered = 0;
  for (const kernels::OpSensitivity& s : r.ops) {
    lowered += s.lowered;
    std::snprintf(b, sizeof b, "%-34s %-12s ", s.op.c_str(), std::string(models::nameOf(s.kind)).c_str());
    out << b;
    for (size_t f = 0; f < s.errors.size(); ++f) {
      if (s.errors[f] == kernels::kSame) {
        std::snprintf(b, sizeof b, "%*s ", width[f], "-");
      } else {
        std::snprintf(b, sizeof b, "%*.5g ", width[f], s.errors[f]);
      }
      out << b;
    }
    // What the plan gives the op: a sparse candidate prunes only ops with weights.
    out << " " << kernels::candidateName(r.plan.precisionOf(s.op)) << "\n";
  }
  std::snprintf(b, sizeof b, "%d of %zu candidate ops lowered; %s error %.5g (tolerance %.5g); %d runs\n",
                lowered, r.ops.size(), kernels::nameOf(o.metric).c_str(), r.error, o.tolerance, r.probes);
  out << b;
}

// One plan, both answers: its accuracy and what it costs on the design.
struct PlanRow {
  std::string name;
  models::PrecisionPlan plan;
  double error = 0;
};

void writeTiming(const PrecisionArgs& a, const arch::Accelerator& acc, const std::vector<PlanRow>& rows,
                 const kernels::SearchOptions& o, std::ostream& out) {
  const dataflows::Dataflow df = pickDataflow("", acc);
  const models::Graph base = buildWorkload(a.workload, acc.array.input_dtype);
  sim::RunOptions options;
  options.plan.mapper_options.budget = a.budget;
  char b[256];
  out << "\non " << acc.name << " (" << df.name << ", analytical engine, " << a.budget << " mapper evaluations per op):\n";
  std::snprintf(b, sizeof b, "%-28s %12s %14s %14s %16s\n", "plan", kernels::nameOf(o.metric).c_str(), "latency",
                "energy", "DRAM bytes");
  out << b;
  for (const PlanRow& r : rows) {
    const sim::RunStats run = sim::simulate(models::applyPrecision(base, r.plan), acc, df, options);
    std::snprintf(b, sizeof b, "%-28s %12.5g %11.4g ms %11.4g mJ %16s\n", r.name.c_str(), r.error,
                  run.seconds() * 1e3, run.energyTotalPj() * 1e-9,
                  units::formatBytes(static_cast<uint64_t>(run.bytesAt("dram"))).c_str());
    out << b;
  }
}

std::vector<PlanRow> planRows(const kernels::SearchResult& res, const kernels::SearchOptions& o,
                              const kernels::ReferenceRun& ref, kernels::WeightStore& weights) {
  std::vector<PlanRow> rows{{"searched plan", res.plan, res.error}};
  rows.push_back({"all " + std::string(nameOf(o.from)), kernels::uniformPlan(o.from), 0.0});
  for (const models::OpPrecision& c : o.to) {
    models::PrecisionPlan p = kernels::uniformPlan(c.dtype);
    p.default_weights = c.weights;
    p.default_sparsity = c.sparsity;
    rows.push_back({"all " + kernels::candidateName(c), p, 0.0});
  }
  for (size_t i = 1; i < rows.size(); ++i) rows[i].error = kernels::planError(ref, weights, o, rows[i].plan);
  return rows;
}

}  // namespace

int precisionCommand(const PrecisionArgs& a, std::ostream& out) {
  checkOutputs({{"--out", a.out_path}}, {a.exec.fuse_like, a.arch});
  const kernels::SearchOptions opt = searchOptions(a);
  if (a.arch.empty() && !a.overrides.empty()) {
    throw ConfigError({"", 0, 0, "-p"}, "-p overrides a key of the --arch design; give --arch");
  }
  // The search ranks dtypes against a dense FP32 reference: a pruned model's error would be
  // charged to every plan alike, the all-FP32 one included. Measure sparsity with validate.
  if (!a.workload.sparsity.empty()) {
    throw ConfigError({"", 0, 0, "--sparsity"},
                      "tessel precision searches dtypes for a dense model; measure what a sparsity "
                      "costs with `tessel validate --sparsity ...` (with --precision or --plan)");
  }
  // The design is read before the search: a bad file fails in a moment, not after minutes.
  const std::optional<arch::Accelerator> acc =
      a.arch.empty() ? std::nullopt : std::optional<arch::Accelerator>(arch::loadFile(a.arch, a.overrides));
  const models::Graph graph =
      buildWorkload(a.workload, DType::FP32);
  checkMemory(graph, "precision");
  const kernels::Calibration cal = kernels::calibrationNamed(a.exec.calibration, a.exec.percentile);
  kernels::WeightStore weights{kernels::SyntheticData(a.exec.seed)};
  kernels::SearchResult res;
  std::string graph_name;
  std::vector<PlanRow> rows;
  {
    ProgressLine progress("precision");  // cleared before anything is printed
    kernels::SearchOptions search = opt;
    search.progress = progress.callback();
    const kernels::ReferenceRun ref =
        kernels::runReference(graph, weights, cal, progress.callback());
    res = kernels::searchPrecision(ref, weights, search);
    graph_name = ref.graph.name;
    if (acc) rows = planRows(res, opt, ref, weights);
  }
  // With --out -, standard output is the plan alone; without --out the table precedes it.
  if (!a.quiet && !isStandardOutput(a.out_path)) {
    writeSummary(res, opt, graph_name, out);
    if (acc) writeTiming(a, *acc, rows, opt, out);
  }
  const std::string yaml = kernels::planYaml(res, opt);
  writeOutput(a.out_path.empty() ? "-" : a.out_path, yaml, out);
  if (!a.quiet && !a.out_path.empty() && !isStandardOutput(a.out_path))
    out << "plan: " << a.out_path << "\n";
  return 0;
}

}  // namespace tessel::app
