// tessel validate: run a workload on the functional executor in a lower precision (or a mixed
// plan) and compare every op and the output with the FP32 run of the same graph and data.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

#include "apps/tessel/commands.h"
#include "apps/tessel/exec_args.h"
#include "apps/tessel/progress_line.h"
#include "apps/tessel/workload_args.h"
#include "kernels/validation/validate.h"
#include "models/workload.h"
#include "util/error.h"

namespace tessel::app {

namespace {

using nlohmann::ordered_json;

// Infinite metrics (an exact SQNR) have no JSON number: null.
ordered_json number(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(); }

ordered_json errorJson(const kernels::ErrorMetrics& e) {
  return {{"max_abs", number(e.max_abs)}, {"rel_l2", number(e.rel_l2)},
          {"cosine", number(e.cosine)},   {"sqnr_db", number(e.sqnr_db)},
          {"nonfinite", e.nonfinite},     {"count", e.count}};
}

ordered_json toJson(const ValidateArgs& a, const kernels::ValidationReport& r) {
  ordered_json j;
  j["workload"] = a.workload.name;
  j["graph"] = r.graph;
  j["precision"] = a.precision;
  j["plan"] = a.plan.empty() ? ordered_json() : ordered_json(a.plan);
  j["integer_nonlinear"] = a.exec.integer_nonlinear;
  j["fuse"] = a.exec.fuse || !a.exec.fuse_like.empty();
  j["fuse_like"] = a.exec.fuse_like;
  j["calibration"] = a.exec.calibration;
  j["seed"] = a.exec.seed;
  ordered_json ops = ordered_json::array();
  for (const kernels::OpReport& o : r.ops) {
    ordered_json op{{"name", o.name},
                    {"kind", std::string(models::nameOf(o.kind))},
                    {"dtype", std::string(nameOf(o.dtype))}};
    op["fused_into"] = o.fused_into.empty() ? ordered_json() : ordered_json(o.fused_into);
    op["error"] = o.compared ? errorJson(o.error) : ordered_json();
    op["clipped"] = o.saturation.clipped();
    ops.push_back(op);
  }
  j["ops"] = ops;
  ordered_json out{{"tensor", r.output.tensor}, {"error", errorJson(r.output.error)}};
  if (r.output.logits) {
    out["rows"] = r.output.rows;
    out["top1_agreement"] = r.output.top1;
    out["kl_divergence"] = number(r.output.kl);
  }
  j["output"] = out;
  j["saturation"] = {
      {"values", r.saturation.total}, {"low", r.saturation.low}, {"high", r.saturation.high}};
  return j;
}

std::string metricsText(const kernels::ErrorMetrics& e) {
  char b[128];
  std::snprintf(b, sizeof b, "%11.4g %10.3g %10.6f %9.2f", e.max_abs, e.rel_l2, e.cosine,
                e.sqnr_db);
  return b;
}

void writeTable(const kernels::ValidationReport& r, std::ostream& out) {
  char b[256];
  out << r.graph << "\n";
  std::snprintf(b, sizeof b, "%-32s %-12s %-5s %11s %10s %10s %9s %8s\n", "op", "kind", "dtype",
                "max_abs", "rel_l2", "cosine", "sqnr_db", "clipped");
  out << b;
  for (const kernels::OpReport& o : r.ops) {
    const std::string m = !o.fused_into.empty() ? "(inside the kernel of " + o.fused_into + ")"
                          : o.compared          ? metricsText(o.error)
                                                : "(conversion copy: see its source)";
    std::snprintf(b, sizeof b, "%-32s %-12s %-5s %s %8lld\n", o.name.c_str(),
                  std::string(models::nameOf(o.kind)).c_str(), std::string(nameOf(o.dtype)).c_str(),
                  m.c_str(), static_cast<long long>(o.saturation.clipped()));
    out << b;
  }
  out << "output " << r.output.tensor << ": max_abs " << r.output.error.max_abs << ", rel_l2 "
      << r.output.error.rel_l2 << ", cosine " << r.output.error.cosine << ", SQNR "
      << r.output.error.sqnr_db << " dB\n";
  if (r.output.logits)
    out << "top-1 agreement " << r.output.top1 << " over " << r.output.rows << " rows, KL "
        << r.output.kl << " nats\n";
  out << "saturation: " << r.saturation.clipped() << " of " << r.saturation.total
      << " values clipped\n";
}

models::PrecisionPlan planFor(const ValidateArgs& a) {
  if (a.precision == "mixed") {
    if (a.plan.empty())
      throw ConfigError({"", 0, 0, "--plan"}, "--precision mixed needs --plan FILE");
    models::PrecisionPlan plan = models::loadPrecisionPlan(a.plan);
    kernels::checkExecutable(plan);
    return plan;
  }
  if (!a.plan.empty())
    throw ConfigError({"", 0, 0, "--plan"},
                      "--plan goes with --precision mixed (got --precision " + a.precision + ")");
  const auto d = parseDType(a.precision);
  if (!d || *d == DType::Int16 || *d == DType::Int32)
    throw ConfigError({"", 0, 0, "--precision"}, "unknown precision '" + a.precision +
                                                     "' (accepted: int8, fp16, bf16, fp32, mixed)");
  return kernels::uniformPlan(*d);
}

}  // namespace

int validateCommand(const ValidateArgs& a, std::ostream& out) {
  checkOutputs({{"--json", a.json_path}}, {a.plan, a.exec.fuse_like});
  const models::PrecisionPlan plan = planFor(a);
  const kernels::ExecutorOptions opt = executorOptions(a.exec);
  const models::Graph graph =
      buildWorkload(a.workload, DType::FP32);
  checkMemory(graph, "validate");
  const kernels::Calibration cal = kernels::calibrationNamed(a.exec.calibration, a.exec.percentile);
  kernels::WeightStore weights{kernels::SyntheticData(a.exec.seed)};
  kernels::ValidationReport rep;
  {
    ProgressLine progress("validate");
    const kernels::ReferenceRun ref =
        kernels::runReference(graph, weights, cal, progress.callback());
    const models::Graph lowered = kernels::lowerGraph(ref.graph, plan);
    rep = kernels::validate(ref, lowered, weights, opt, progress.callback());
  }
  const bool table = !a.quiet && !isStandardOutput(a.json_path);
  if (table) writeTable(rep, out);
  if (!a.json_path.empty()) {
    writeOutput(a.json_path, toJson(a, rep).dump(2) + "\n", out);
    if (table) out << "JSON report: " << a.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
