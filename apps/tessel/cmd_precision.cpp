// tessel precision: per-op sensitivity to a lower dtype, then a greedy plan that lowers the least
// sensitive ops while the end-to-end output error stays within the tolerance.
#include <cstdio>
#include <ostream>

#include "apps/tessel/commands.h"
#include "apps/tessel/exec_args.h"
#include "apps/tessel/progress_line.h"
#include "apps/tessel/workload_args.h"
#include "kernels/validation/precision_search.h"
#include "models/workload.h"
#include "util/error.h"

namespace tessel::app {

namespace {

kernels::SearchOptions searchOptions(const PrecisionArgs& a) {
  kernels::SearchOptions o;
  const auto to = parseDType(a.to);
  if (!to || !(*to == DType::Int8 || *to == DType::FP16 || *to == DType::BF16))
    throw ConfigError({"", 0, 0, "--to"},
                      "unknown target dtype '" + a.to + "' (accepted: int8, fp16, bf16)");
  o.to = *to;
  if (a.metric == "kl")
    o.metric = kernels::SearchMetric::Kl;
  else if (a.metric != "rel_l2")
    throw ConfigError({"", 0, 0, "--metric"},
                      "unknown metric '" + a.metric + "' (accepted: rel_l2, kl)");
  o.tolerance = a.tolerance;
  o.exec = executorOptions(a.exec);
  return o;
}

void writeSummary(const kernels::SearchResult& r, const kernels::SearchOptions& o,
                  const std::string& graph, std::ostream& out) {
  char b[256];
  out << graph << ": sensitivity = " << kernels::nameOf(o.metric) << " of the output with only "
      << "that op in " << nameOf(o.to) << "\n";
  std::snprintf(b, sizeof b, "%-32s %-12s %12s  %s\n", "op", "kind", "sensitivity", "plan");
  out << b;
  int lowered = 0;
  for (const kernels::OpSensitivity& s : r.ops) {
    lowered += s.lowered;
    std::snprintf(b, sizeof b, "%-32s %-12s %12.5g  %s\n", s.op.c_str(),
                  std::string(models::nameOf(s.kind)).c_str(), s.error,
                  std::string(nameOf(s.lowered ? o.to : DType::FP32)).c_str());
    out << b;
  }
  std::snprintf(b, sizeof b,
                "%d of %zu candidate ops in %s; %s error %.5g (tolerance %.5g); %d runs\n", lowered,
                r.ops.size(), std::string(nameOf(o.to)).c_str(), kernels::nameOf(o.metric).c_str(),
                r.error, o.tolerance, r.probes);
  out << b;
}

}  // namespace

int precisionCommand(const PrecisionArgs& a, std::ostream& out) {
  checkOutputs({{"--out", a.out_path}}, {a.exec.fuse_like});
  const kernels::SearchOptions opt = searchOptions(a);
  const models::Graph graph =
      buildWorkload(a.workload, DType::FP32);
  checkMemory(graph, "precision");
  const kernels::Calibration cal = kernels::calibrationNamed(a.exec.calibration, a.exec.percentile);
  kernels::WeightStore weights{kernels::SyntheticData(a.exec.seed)};
  kernels::SearchResult res;
  std::string graph_name;
  {
    ProgressLine progress("precision");  // cleared before anything is printed
    kernels::SearchOptions search = opt;
    search.progress = progress.callback();
    const kernels::ReferenceRun ref =
        kernels::runReference(graph, weights, cal, progress.callback());
    res = kernels::searchPrecision(ref, weights, search);
    graph_name = ref.graph.name;
  }
  // With --out -, standard output is the plan alone; without --out the table precedes it.
  if (!a.quiet && !isStandardOutput(a.out_path)) writeSummary(res, opt, graph_name, out);
  const std::string yaml = kernels::planYaml(res, opt);
  writeOutput(a.out_path.empty() ? "-" : a.out_path, yaml, out);
  if (!a.quiet && !a.out_path.empty() && !isStandardOutput(a.out_path))
    out << "plan: " << a.out_path << "\n";
  return 0;
}

}  // namespace tessel::app
