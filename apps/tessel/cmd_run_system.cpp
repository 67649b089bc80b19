// tessel run --system: a Hugging Face decoder split over a system's chips (systems/parallel.h),
// as a table (the system's totals, its communication, its stages, then one chip's own report)
// or JSON.
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "arch/cores.h"
#include "models/precision.h"
#include "reports/json.h"
#include "reports/table.h"
#include "systems/parallel.h"
#include "util/units.h"

namespace tessel::app {

namespace {

void rejectWithSystem(const RunArgs& a) {
  const std::pair<bool, const char*> one_chip_only[] = {
      {!a.trace_path.empty(), "--trace"},          {!a.emit_mapping_path.empty(), "--emit-mapping"},
      {!a.csv_path.empty(), "--csv"},              {!a.mapping_path.empty(), "--mapping"},
      {a.scalesim_timing_given, "--scalesim-timing"}, {!a.scalesim_report_dir.empty(), "--scalesim-report"},
      {a.cores != "one", "--cores"}};
  for (const auto& [given, option] : one_chip_only) {
    if (given)
      throw ConfigError({"", 0, 0, option},
                        std::string(option) + " applies to one chip (--arch); a system's chips run "
                                              "whole (every core as one device)");
  }
}

std::string ms(double s) { return units::formatWith("%.3f", s * 1e3) + " ms"; }
std::string gib(double b) { return units::formatWith("%.2f", b / (1024.0 * 1024 * 1024)) + " GiB"; }
std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); }
std::string lpad(const std::string& s, size_t w) { return s.size() >= w ? " " + s : std::string(w - s.size(), ' ') + s; }

void writeSystemTable(const systems::System& sys, const systems::SystemRun& r, const std::string& workload,
                      std::ostream& out) {
  const systems::Split& s = r.split;
  out << "system " << sys.name << ": " << sys.count << " x " << sys.chip.name << " | workload " << workload
      << " | split " << s.str() << " (" << s.chips() << " chips)\n\nSystem totals\n"
      << "  latency            " << ms(r.latency_s) << " (compute " << ms(r.compute_s) << ", collectives "
      << ms(r.communication_s) << ", stage sends " << ms(r.pipeline_s) << ")\n";
  if (s.pp > 1) out << "  pipelined          a batch every " << ms(r.interval_s) << " per replica (the slowest stage)\n";
  const uint64_t cap = sys.chip.levels.at(0).capacity_bytes;
  out << "  memory per chip    " << gib(static_cast<double>(r.memory_per_chip))
      << (cap ? " of " + gib(static_cast<double>(cap)) : std::string()) << " (the fullest stage)\n"
      << "  energy             " << units::formatWith("%.2f", r.energy_pj() * 1e-12) << " J (chips "
      << units::formatWith("%.2f", r.chip_energy_pj * 1e-12) << " J, links "
      << units::formatWith("%.3f", r.link_energy_pj * 1e-12) << " J)\n";
  if (!r.communication.empty()) {
    out << "\nCommunication        calls    bytes each  algorithm              time   busiest link\n";
    for (const systems::CommRecord& c : r.communication) {
      out << "  " << pad(c.op + " " + c.group, 17) << lpad(units::formatCount(c.calls), 7)
          << lpad(units::formatBytes(static_cast<uint64_t>(c.bytes)), 14) << "  " << pad(c.algorithm, 18)
          << lpad(ms(c.seconds), 12) << lpad(units::formatBytes(static_cast<uint64_t>(c.bytes_per_link)), 15) << "\n";
    }
  }
  if (s.pp > 1) {
    out << "\nStages   blocks        compute   collectives   weights per chip\n";
    for (size_t i = 0; i < r.stages.size(); ++i) {
      const systems::Stage& st = r.stages[i];
      out << "  " << pad(std::to_string(i), 7)
          << pad(std::to_string(st.first_layer) + ".." + std::to_string(st.last_layer), 9)
          << lpad(ms(st.seconds), 12) << lpad(ms(st.communication_s), 14)
          << lpad(gib(static_cast<double>(st.weight_bytes)), 19) << "\n";
    }
  }
  out << "\nOne chip's share (" << (s.pp > 1 ? "every stage's ops in turn, " : "") << "its own report)\n";
}

nlohmann::ordered_json systemJson(const systems::System& sys, const systems::SystemRun& r) {
  nlohmann::ordered_json j;
  j["system"] = sys.name;
  j["system_file"] = sys.source;
  j["chips"] = sys.count;
  j["split"] = {{"tp", r.split.tp}, {"pp", r.split.pp}, {"ep", r.split.ep}, {"dp", r.split.dp},
                {"chips", r.split.chips()}};
  j["latency_seconds"] = r.latency_s;
  j["compute_seconds"] = r.compute_s;
  j["communication_seconds"] = r.communication_s;
  j["pipeline_seconds"] = r.pipeline_s;
  j["interval_seconds"] = r.interval_s;
  j["energy_pj"] = r.energy_pj();
  j["chip_energy_pj"] = r.chip_energy_pj;
  j["link_energy_pj"] = r.link_energy_pj;
  j["memory_per_chip_bytes"] = r.memory_per_chip;
  nlohmann::ordered_json comm = nlohmann::ordered_json::array();
  for (const systems::CommRecord& c : r.communication) {
    comm.push_back({{"op", c.op}, {"group", c.group}, {"calls", c.calls}, {"bytes", c.bytes},
                    {"algorithm", c.algorithm}, {"seconds", c.seconds}, {"energy_pj", c.energy_pj},
                    {"bytes_per_link", c.bytes_per_link}});
  }
  j["communication"] = comm;
  nlohmann::ordered_json stages = nlohmann::ordered_json::array();
  for (const systems::Stage& s : r.stages) {
    stages.push_back({{"first_block", s.first_layer}, {"last_block", s.last_layer}, {"seconds", s.seconds},
                      {"communication_seconds", s.communication_s}, {"weight_bytes", s.weight_bytes},
                      {"input_bytes", s.input_bytes}, {"activation_bytes", s.activation_bytes}});
  }
  j["stages"] = stages;
  j["chip"] = nlohmann::ordered_json::parse(reports::toJsonString(r.chip));
  return j;
}

}  // namespace

int systemRunCommand(const RunArgs& args, std::ostream& out) {
  rejectWithSystem(args);
  checkOutputs({{"--json", args.json_path}}, {args.system, args.precision_plan, args.dataflow, args.workload.name});
  systems::System sys = systems::loadSystem(args.system, args.overrides);
  if (sys.chip.cores.count >= 2) sys.chip = arch::fusedDevice(sys.chip);
  const dataflows::Dataflow df = pickDataflow(args.dataflow, sys.chip);
  models::WorkloadOptions wo = toWorkloadOptions(args.workload, sys.chip.array.input_dtype);
  wo.tensor_parallel = args.tp;
  wo.expert_parallel = args.ep;
  models::Graph graph = buildWorkload(args.workload.name, wo);
  if (!args.precision_plan.empty())
    graph = models::applyPrecision(graph, models::loadPrecisionPlan(args.precision_plan));

  sim::RunOptions options;
  options.engine = args.engine;
  options.plan.mapper = args.mapper;
  options.plan.mapper_options.objective = args.objective;
  options.plan.mapper_options.tolerance = args.latency_tolerance;
  options.plan.mapper_options.budget = args.budget;
  options.plan.mapper_options.ideal_memory = args.ideal_memory;
  options.plan.fusion = args.no_fuse ? dataflows::FusionMode::None : dataflows::fusionModeFrom(args.fusion);
  options.engine_options.ideal_memory = args.ideal_memory;
  options.labels = {{"system_file", args.system}, {"workload", args.workload.name},
                    {"seq", std::to_string(args.workload.seq)}, {"batch", std::to_string(args.workload.batch)},
                    {"phase", args.workload.phase}, {"dataflow", df.name}, {"objective", args.objective},
                    {"fusion", args.no_fuse ? "none" : args.fusion}};
  const systems::Split split{args.tp, args.pp, args.ep, args.dp};
  const systems::SystemRun run = systems::runOnSystem(sys, graph, split, df, options);

  const bool table = !args.quiet && !isStandardOutput(args.json_path);
  if (table) {
    writeSystemTable(sys, run, graph.name, out);
    reports::TableOptions to;
    to.top_n = topCount(args.top);
    reports::writeTable(run.chip, out, to);
  }
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, systemJson(sys, run).dump(2) + "\n", out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
