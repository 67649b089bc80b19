// tessel run: load the accelerator, build the workload, simulate, print the breakdown and
// write the JSON/CSV reports.
#include <charconv>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "arch/cores.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/pinned_mapping.h"
#include "dataflows/timeloop_map.h"
#include "models/precision.h"
#include "models/workload.h"
#include "util/units.h"
#include "reports/csv.h"
#include "reports/json.h"
#include "reports/scalesim_report.h"
#include "reports/table.h"
#include "reports/trace.h"
#include "sim/run.h"
#include "sim/scalesim/knobs.h"
#include "util/error.h"

namespace tessel::app {

namespace {

std::vector<std::pair<std::string, std::string>> labels(const RunArgs& args,
                                                        const std::string& dataflow) {
  std::vector<std::pair<std::string, std::string>> l = {
      {"arch_file", args.arch},
      {"workload", args.workload.name},
      {"seq", std::to_string(args.workload.seq)},
      {"batch", std::to_string(args.workload.batch)},
      {"phase", args.workload.phase},
      {"dataflow", dataflow},
      {"mapper", args.mapper},
      {"objective", args.objective},
      {"latency_tolerance", units::formatNumber(args.latency_tolerance)},
      {"budget", std::to_string(args.budget)},
      {"ideal_memory", args.ideal_memory ? "true" : "false"},
      {"fusion", args.no_fuse ? "none" : args.fusion},
  };
  if (!args.precision_plan.empty()) l.emplace_back("precision_plan", args.precision_plan);
  if (!args.workload.sparsity.empty()) l.emplace_back("sparsity", args.workload.sparsity);
  if (!args.mapping_path.empty()) l.emplace_back("mapping", args.mapping_path);
  for (const auto& o : args.overrides) l.emplace_back("override", o);
  if (args.cores != "one") l.emplace_back("cores", args.cores);
  return l;
}

// The device a run times: one core of the design (its other cores idle), or all of them fused
// into one (arch::fusedDevice, as `tessel serve` runs an LLM service and fused jobs; the per-op
// cores.fused_sync is not charged).
arch::Accelerator deviceOf(const arch::Accelerator& acc, const std::string& cores) {
  if (cores != "fused") return acc;
  if (acc.cores.count < 2) {
    throw ConfigError({"", 0, 0, "--cores"}, "--cores fused needs several cores; " + acc.name +
                                                 " has one (cores.count)");
  }
  return arch::fusedDevice(acc);
}

// --scalesim-timing picks the scalesim engine with its knobs (checked before any work);
// --engine scalesim alone means all of SCALE-Sim's assumptions.
std::string engineOf(const RunArgs& args,
                     std::vector<std::pair<std::string, std::string>>& params) {
  if (!args.scalesim_timing_given) return args.engine;
  if (args.engine != "analytical" && args.engine != "scalesim") {
    throw ConfigError({"", 0, 0, "--scalesim-timing"},
                      "--scalesim-timing is the scalesim engine; it cannot time with --engine " +
                          args.engine);
  }
  params = sim::scalesim::splitKnobs(args.scalesim_timing);
  sim::scalesim::parseKnobs(params);  // a bad knob fails before any work
  return "scalesim";
}

// SCALE-Sim's formulas time a conv/GEMM from its shape and the array alone: under the scalesim
// engine a searched mapping changes only the bytes and energy reported beside the cycles, so the
// plan comes from Gemmini's tiling heuristic (about 1 ms per layer instead of the search's ~30)
// unless --mapper is written or memory=tessel asks for the analytical engine's stalls, which
// depend on the mapping.
std::string mapperOf(const RunArgs& args, const std::string& engine,
                     const std::vector<std::pair<std::string, std::string>>& engine_params) {
  if (args.mapper_given || engine != "scalesim") return args.mapper;
  return sim::scalesim::parseKnobs(engine_params).memory_stalls ? args.mapper : "gemmini-auto";
}

// The two SCALE-Sim reports' paths under --scalesim-report DIR (created when missing).
std::vector<OutputPath> scaleSimReportPaths(const std::string& dir) {
  if (dir.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw ConfigError({"", 0, 0, "--scalesim-report"},
                      "cannot create directory '" + dir + "': " + ec.message());
  }
  const std::filesystem::path d(dir);
  return {{"--scalesim-report", (d / "COMPUTE_REPORT.csv").string()},
          {"--scalesim-report", (d / "BANDWIDTH_REPORT.csv").string()}};
}


}  // namespace

// "--top all" lists every op; a count of 0 hides the list.
int topCount(const std::string& text) {
  if (text == "all") return -1;
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) {
    throw ConfigError({"", 0, 0, "--top"},
                      "expected a number of ops (0 = none) or 'all', got '" + text + "'");
  }
  return n;
}

dataflows::Dataflow pickDataflow(const std::string& given, const arch::Accelerator& acc) {
  const std::string name = !given.empty()                ? given
                           : acc.array.dataflows.empty() ? std::string("ws")
                                                         : acc.array.dataflows.front();
  dataflows::Dataflow df = dataflows::loadDataflow(name);
  dataflows::checkRunnable(df, acc);
  return df;
}

int runCommand(const RunArgs& args, std::ostream& out) {
  topCount(args.top);  // a bad value fails before any work
  if (!args.system.empty()) return systemRunCommand(args, out);
  if (!args.trace_path.empty() && args.engine != "systemc") {
    throw ConfigError({"", 0, 0, "--trace"},
                      "a trace lists the commands the SystemC engine executes; add --engine "
                      "systemc (the analytical engine has no commands)");
  }
  std::vector<std::pair<std::string, std::string>> engine_params;
  const std::string engine = engineOf(args, engine_params);
  const std::vector<OutputPath> scalesim_reports = scaleSimReportPaths(args.scalesim_report_dir);
  std::vector<OutputPath> outputs = {{"--json", args.json_path},
                                     {"--csv", args.csv_path},
                                     {"--trace", args.trace_path},
                                     {"--emit-mapping", args.emit_mapping_path}};
  outputs.insert(outputs.end(), scalesim_reports.begin(), scalesim_reports.end());
  checkOutputs(outputs, {args.arch, args.precision_plan, args.dataflow, args.mapping_path,
                         args.workload.name});
  const arch::Accelerator acc = deviceOf(arch::loadFile(args.arch, args.overrides), args.cores);
  const dataflows::Dataflow df = pickDataflow(args.dataflow, acc);
  models::Graph graph =
      buildWorkload(args.workload, acc.array.input_dtype);
  if (!args.precision_plan.empty()) {
    graph = models::applyPrecision(graph, models::loadPrecisionPlan(args.precision_plan));
  }

  sim::RunOptions options;
  options.engine = engine;
  options.engine_options.params = engine_params;
  options.plan.mapper = mapperOf(args, engine, engine_params);
  options.plan.mapper_options.objective = args.objective;
  options.plan.mapper_options.tolerance = args.latency_tolerance;
  options.plan.mapper_options.budget = args.budget;
  options.plan.mapper_options.ideal_memory = args.ideal_memory;
  if (!args.mapping_path.empty()) options.plan.pinned = dataflows::loadPinnedMapping(args.mapping_path);
  options.plan.fusion = args.no_fuse ? dataflows::FusionMode::None
                                     : dataflows::fusionModeFrom(args.fusion);
  options.engine_options.ideal_memory = args.ideal_memory;
  options.labels = labels(args, df.name);
  for (auto& [key, value] : options.labels) {
    if (key == "mapper") value = options.plan.mapper;  // the one that planned (see mapperOf)
  }
  if (engine == "scalesim") {
    options.labels.emplace_back("scalesim_timing",
                                sim::scalesim::describe(sim::scalesim::parseKnobs(engine_params)));
  }
  std::vector<sim::TraceSlice> trace;
  if (!args.trace_path.empty()) {
    options.engine_options.trace = true;
    options.trace = &trace;
  }
  std::string mappings;
  if (!args.emit_mapping_path.empty()) {
    options.on_plans = [&](const std::vector<dataflows::OpPlan>& plans) {
      mappings = dataflows::timeloopDocuments(plans);
    };
  }
  const sim::RunStats run = sim::simulate(graph, acc, df, options);

  // A report on standard output is the output: the table would corrupt it.
  const bool table = !args.quiet && !isStandardOutput(args.json_path) &&
                     !isStandardOutput(args.csv_path) && !isStandardOutput(args.emit_mapping_path);
  if (table) {
    reports::TableOptions options;
    options.top_n = topCount(args.top);
    options.accesses = args.accesses;
    reports::writeTable(run, out, options);
  }
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, reports::toJsonString(run), out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  if (!args.csv_path.empty()) {
    writeOutput(args.csv_path, reports::csvString(run), out);
    if (table) out << "CSV report: " << args.csv_path << "\n";
  }
  if (!args.trace_path.empty()) {
    writeOutput(args.trace_path, reports::chromeTraceString(trace, run.clock_hz, run), out);
    if (table) out << "trace: " << args.trace_path << " (" << trace.size() << " commands)\n";
  }
  if (!scalesim_reports.empty()) {
    const reports::ScaleSimReports r = reports::scaleSimReports(run);
    writeOutput(scalesim_reports[0].path, r.compute, out);
    writeOutput(scalesim_reports[1].path, r.bandwidth, out);
    if (table) out << "SCALE-Sim reports: " << args.scalesim_report_dir << "\n";
  }
  if (!args.emit_mapping_path.empty()) {
    writeOutput(args.emit_mapping_path, mappings, out);
    if (table) out << "mappings (Timeloop map.yaml): " << args.emit_mapping_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
