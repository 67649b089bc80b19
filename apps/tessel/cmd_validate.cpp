// tessel validate: run a workload on the functional executor in a lower precision (or a mixed
// plan) and compare every op and the output with the FP32 run of the same graph and data. With a
// list of formats, the FP32 reference runs once and each format gets one row of output metrics.
// With --sparsity, the weights it makes sparse run magnitude-pruned against the dense reference,
// and the report says how dense they came out and how many zeros the GEMMs' inputs held.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "apps/tessel/commands.h"
#include "apps/tessel/exec_args.h"
#include "apps/tessel/progress_line.h"
#include "apps/tessel/validate_formats.h"
#include "apps/tessel/workload_args.h"
#include "kernels/validation/validate.h"
#include "models/sparsity.h"
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

// The run's options, in the order the single-format report has always listed them.
void optionsJson(const ValidateArgs& a, ordered_json& j) {
  j["integer_nonlinear"] = a.exec.integer_nonlinear;
  j["fusion"] = fusionMode(a.exec);
  j["fuse"] = j["fusion"] != "none";
  j["fuse_like"] = a.exec.fuse_like;
  j["calibration"] = a.exec.calibration;
  j["seed"] = a.exec.seed;
}

void formatJson(const ValidateFormat& f, ordered_json& j) {
  j["precision"] = f.precision;
  j["plan"] = f.plan.empty() ? ordered_json() : ordered_json(f.plan);
}

// ops, output and saturation of one run.
void resultJson(const kernels::ValidationReport& r, ordered_json& j) {
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
}

struct FormatRun {
  ValidateFormat format;
  kernels::ValidationReport report;
};

// What --sparsity asked for and what the pruned weights came to; reported only when given, so
// a run without it prints what it always has.
struct SparsityFacts {
  bool given = false;
  models::SparsitySpec spec;
  kernels::ZeroCount weights;  // the pruned weights as the executor reads them in FP32
};

ordered_json sparsityJson(const SparsityFacts& s) {
  ordered_json j{{"weights", toString(s.spec.weights)}, {"inputs", toString(s.spec.inputs)}};
  j["weights_density"] = s.weights.values > 0 ? ordered_json(s.weights.density()) : ordered_json();
  j["pruned_tensors"] = s.weights.tensors;
  return j;
}

ordered_json toJson(const ValidateArgs& a, const std::vector<FormatRun>& runs,
                    const SparsityFacts& sparsity) {
  ordered_json j;
  j["workload"] = a.workload.name;
  if (runs.size() == 1) {  // the single-format report
    j["graph"] = runs[0].report.graph;
    formatJson(runs[0].format, j);
    optionsJson(a, j);
    if (sparsity.given) {
      j["sparsity"] = sparsityJson(sparsity);
      j["sparsity"]["input_zeros"] = runs[0].report.gemm_input_zeros.zeroFraction();
    }
    resultJson(runs[0].report, j);
    return j;
  }
  optionsJson(a, j);
  if (sparsity.given) j["sparsity"] = sparsityJson(sparsity);
  j["reference"] = "fp32";
  ordered_json formats = ordered_json::array();
  for (const FormatRun& r : runs) {
    ordered_json f;
    f["format"] = r.format.label;
    formatJson(r.format, f);
    f["graph"] = r.report.graph;
    if (sparsity.given) f["input_zeros"] = r.report.gemm_input_zeros.zeroFraction();
    resultJson(r.report, f);
    formats.push_back(f);
  }
  j["formats"] = formats;
  return j;
}

std::string metricsText(const kernels::ErrorMetrics& e) {
  char b[128];
  std::snprintf(b, sizeof b, "%11.4g %10.3g %10.6f %9.2f", e.max_abs, e.rel_l2, e.cosine,
                e.sqnr_db);
  return b;
}

std::string counted(int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// One line under the table's title: the pattern, how dense the pruned weights came out, and that
// the reference is dense.
void writeSparsity(const SparsityFacts& s, std::ostream& out) {
  if (!s.given) return;
  char b[256];
  out << "sparsity: weights " << toString(s.spec.weights);
  if (s.weights.tensors > 0) {
    std::snprintf(b, sizeof b, " (magnitude-pruned per output channel: density %.4f over ",
                  s.weights.density());
    out << b << counted(s.weights.tensors, "tensor") << "; the FP32 reference is dense)";
  }
  out << ", inputs " << toString(s.spec.inputs) << "\n";
}

std::string percent(const kernels::ZeroCount& z) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f%%", 100.0 * z.zeroFraction());
  return b;
}

void writeInputZeros(const SparsityFacts& s, const kernels::ZeroCount& z, std::ostream& out) {
  if (!s.given) return;
  out << "matmul/conv input activations: " << percent(z) << " zeros (" << counted(z.values, "value")
      << " read by " << counted(z.tensors, "op") << ")\n";
}

void writeTable(const kernels::ValidationReport& r, const SparsityFacts& sparsity,
                std::ostream& out) {
  char b[512];
  int dw = 5;  // the dtype column fits the longest name (fp8_e4m3, int4_g128_fp16 ...)
  for (const kernels::OpReport& o : r.ops)
    dw = std::max(dw, static_cast<int>(nameOf(o.dtype).size()));
  out << r.graph << "\n";
  writeSparsity(sparsity, out);
  std::snprintf(b, sizeof b, "%-32s %-12s %-*s %11s %10s %10s %9s %8s\n", "op", "kind", dw, "dtype",
                "max_abs", "rel_l2", "cosine", "sqnr_db", "clipped");
  out << b;
  for (const kernels::OpReport& o : r.ops) {
    const std::string m = !o.fused_into.empty() ? "(inside the kernel of " + o.fused_into + ")"
                          : o.compared          ? metricsText(o.error)
                                                : "(conversion copy: see its source)";
    std::snprintf(b, sizeof b, "%-32s %-12s %-*s %s %8lld\n", o.name.c_str(),
                  std::string(models::nameOf(o.kind)).c_str(), dw,
                  std::string(nameOf(o.dtype)).c_str(), m.c_str(),
                  static_cast<long long>(o.saturation.clipped()));
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
  writeInputZeros(sparsity, r.gemm_input_zeros, out);
}

// One row per format: the output's error against FP32 (and the task metrics for logits).
void writeSummary(const std::vector<FormatRun>& runs, const SparsityFacts& sparsity,
                  std::ostream& out) {
  size_t w = 6;
  for (const FormatRun& r : runs) w = std::max(w, r.format.label.size());
  const int width = static_cast<int>(w);
  const bool logits = runs.front().report.output.logits;
  char b[512];
  out << runs.front().report.graph << "\n"
      << "output " << runs.front().report.output.tensor << " against FP32, one row per format\n";
  writeSparsity(sparsity, out);
  std::snprintf(b, sizeof b, "%-*s %11s %10s %10s %9s%s %8s\n", width, "format", "max_abs",
                "rel_l2", "cosine", "sqnr_db", logits ? "     top1    kl_nats" : "", "clipped");
  out << b;
  for (const FormatRun& r : runs) {
    const kernels::OutputReport& o = r.report.output;
    char task[64] = "";
    if (logits) std::snprintf(task, sizeof task, " %8.4f %9.3g", o.top1, o.kl);
    std::snprintf(b, sizeof b, "%-*s %s%s %8lld\n", width, r.format.label.c_str(),
                  metricsText(o.error).c_str(), task,
                  static_cast<long long>(r.report.saturation.clipped()));
    out << b;
  }
  if (logits) out << "top-1 agreement and KL over " << runs.front().report.output.rows << " rows\n";
  if (!sparsity.given) return;
  out << "matmul/conv input activations' zeros:";
  for (const FormatRun& r : runs)
    out << (&r == &runs.front() ? " " : ", ") << r.format.label << " "
        << percent(r.report.gemm_input_zeros);
  out << "\n";
}

}  // namespace

int validateCommand(const ValidateArgs& a, std::ostream& out) {
  checkOutputs({{"--json", a.json_path}}, {a.plan, a.exec.fuse_like});
  std::vector<FormatRun> runs;
  for (ValidateFormat& f : validateFormats(a.precision, a.plan)) runs.push_back({std::move(f), {}});
  const kernels::ExecutorOptions opt = executorOptions(a.exec);
  const models::Graph graph = buildWorkload(a.workload, DType::FP32);
  checkMemory(graph, "validate");
  // A plan naming a missing op fails now, not after the formats before it have run.
  for (const FormatRun& r : runs) (void)kernels::lowerGraph(graph, r.format.lowering);
  const kernels::Calibration cal = kernels::calibrationNamed(a.exec.calibration, a.exec.percentile);
  kernels::WeightStore weights{kernels::SyntheticData(a.exec.seed)};
  SparsityFacts sparsity;
  sparsity.given = !a.workload.sparsity.empty();
  if (sparsity.given) sparsity.spec = models::parseSparsitySpec(a.workload.sparsity);
  {
    ProgressLine progress("validate");
    const kernels::ReferenceRun ref =
        kernels::runReference(graph, weights, cal, progress.callback());
    for (FormatRun& r : runs) {
      const models::Graph lowered = kernels::lowerGraph(ref.graph, r.format.lowering);
      r.report = kernels::validate(ref, lowered, weights, opt, progress.callback());
    }
    if (sparsity.given) sparsity.weights = kernels::prunedWeights(ref.graph, weights);
  }
  const bool table = !a.quiet && !isStandardOutput(a.json_path);
  if (table && runs.size() == 1) writeTable(runs.front().report, sparsity, out);
  if (table && runs.size() > 1) writeSummary(runs, sparsity, out);
  if (!a.json_path.empty()) {
    writeOutput(a.json_path, toJson(a, runs, sparsity).dump(2) + "\n", out);
    if (table) out << "JSON report: " << a.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
