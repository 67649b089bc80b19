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
#include "systems/parallel_search.h"
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
  if (r.hidden_s > 0)
    out << "  overlapped         " << ms(r.hidden_s) << " of collectives behind the GEMMs around them\n";
  if (s.pp > 1) out << "  pipelined          a batch every " << ms(r.interval_s) << " per replica (the slowest stage)\n";
  const uint64_t cap = sys.chip.levels.at(0).capacity_bytes;
  out << "  memory per chip    " << gib(static_cast<double>(r.memory_per_chip))
      << (cap ? " of " + gib(static_cast<double>(cap)) : std::string()) << " (the fullest stage)\n"
      << "  energy             " << units::formatWith("%.2f", r.energy_pj() * 1e-12) << " J (chips "
      << units::formatWith("%.2f", r.chip_energy_pj * 1e-12) << " J, links "
      << units::formatWith("%.3f", r.link_energy_pj * 1e-12) << " J)\n";
  if (!r.communication.empty()) {
    out << "\nCommunication        calls    bytes each  algorithm              time   busiest link"
        << (r.hidden_s > 0 ? "         hidden" : "") << "\n";
    for (const systems::CommRecord& c : r.communication) {
      out << "  " << pad(c.op + " " + c.group, 17) << lpad(units::formatCount(c.calls), 7)
          << lpad(units::formatBytes(static_cast<uint64_t>(c.bytes)), 14) << "  " << pad(c.algorithm, 18)
          << lpad(ms(c.seconds), 12) << lpad(units::formatBytes(static_cast<uint64_t>(c.bytes_per_link)), 15)
          << (r.hidden_s > 0 ? lpad(ms(c.hidden_s), 15) : std::string()) << "\n";
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

void writeSplits(const systems::SplitSearch& s, const std::string& objective, std::ostream& out) {
  out << "Splits tried (--parallel auto, objective " << objective << ")\n";
  for (size_t i = 0; i < s.candidates.size(); ++i) {
    const systems::SplitCandidate& c = s.candidates[i];
    out << "  " << pad(c.split.str(), 24);
    if (!c.ok) {  // the reason's first clause: its numbers are in the JSON
      const size_t cut = c.why.find(" of DRAM per chip (");
      out << "no: " << (cut == std::string::npos ? c.why : c.why.substr(0, cut) + " per chip") << "\n";
      continue;
    }
    out << lpad(ms(c.latency_s), 12) << lpad(gib(static_cast<double>(c.memory_per_chip)), 11) << " per chip"
        << lpad(units::formatWith("%.2f", c.energy_pj * 1e-12) + " J", 11)
        << (static_cast<int>(i) == s.best ? "  <- chosen" : "") << "\n";
  }
  out << "\n";
}

nlohmann::ordered_json splitsJson(const systems::SplitSearch& s) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const systems::SplitCandidate& c : s.candidates) {
    nlohmann::ordered_json j = {{"tp", c.split.tp}, {"pp", c.split.pp}, {"ep", c.split.ep}, {"dp", c.split.dp},
                                {"fits", c.ok}};
    if (c.ok) {
      j["latency_seconds"] = c.latency_s;
      j["energy_pj"] = c.energy_pj;
      j["memory_per_chip_bytes"] = c.memory_per_chip;
    } else {
      j["why"] = c.why;
    }
    a.push_back(j);
  }
  return a;
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
  j["hidden_communication_seconds"] = r.hidden_s;
  j["pipeline_seconds"] = r.pipeline_s;
  j["interval_seconds"] = r.interval_s;
  j["energy_pj"] = r.energy_pj();
  j["chip_energy_pj"] = r.chip_energy_pj;
  j["link_energy_pj"] = r.link_energy_pj;
  j["memory_per_chip_bytes"] = r.memory_per_chip;
  nlohmann::ordered_json comm = nlohmann::ordered_json::array();
  for (const systems::CommRecord& c : r.communication) {
    comm.push_back({{"op", c.op}, {"group", c.group}, {"calls", c.calls}, {"bytes", c.bytes},
                    {"algorithm", c.algorithm}, {"seconds", c.seconds}, {"hidden_seconds", c.hidden_s},
                    {"energy_pj", c.energy_pj},
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

// Routed experts per MoE layer (0 for a dense model): the widest MoeRoute.
int64_t expertsOf(const models::Graph& g) {
  int64_t experts = 0;
  for (const models::Op& op : g.ops()) {
    if (op.kind == models::OpKind::MoeRoute) experts = std::max<int64_t>(experts, op.moe.experts);
  }
  return experts;
}

}  // namespace

int systemRunCommand(const RunArgs& args, std::ostream& out) {
  rejectWithSystem(args);
  checkOutputs({{"--json", args.json_path}}, {args.system, args.precision_plan, args.dataflow, args.workload.name});
  systems::System sys = systems::loadSystem(args.system, args.overrides);
  if (sys.chip.cores.count >= 2) sys.chip = arch::fusedDevice(sys.chip);
  const dataflows::Dataflow df = pickDataflow(args.dataflow, sys.chip);
  const models::WorkloadOptions base = toWorkloadOptions(args.workload, sys.chip.array.input_dtype);
  const auto graph_of = [&](const systems::Split& split) {
    models::WorkloadOptions wo = base;
    wo.tensor_parallel = split.tp;
    wo.expert_parallel = split.ep;
    models::Graph g = buildWorkload(args.workload.name, wo);
    if (!args.precision_plan.empty())
      g = models::applyPrecision(g, models::loadPrecisionPlan(args.precision_plan));
    return g;
  };
  const models::Graph whole = graph_of({});  // a bad workload or option fails here, located

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
                    {"overlap", args.overlap},
                    {"fusion", args.no_fuse ? "none" : args.fusion}};
  const systems::Overlap overlap =
      args.overlap == "collective-matmul" ? systems::Overlap::CollectiveMatmul : systems::Overlap::None;
  systems::SplitSearch search;
  systems::SystemRun run;
  if (args.parallel == "auto") {
    models::DecoderFacts facts;
    if (!models::decoderFacts(args.workload.name, facts))
      throw ConfigError({"", 0, 0, "--parallel"}, "parallel splits are modeled for Hugging Face decoders; '" +
                                                     args.workload.name + "' is not one");
    search = systems::searchSplits(sys, expertsOf(whole), graph_of, df, options, args.objective, overlap);
    if (search.best < 0)
      throw InfeasibleError("no split of " + args.workload.name + " over " + sys.name + "'s " +
                            std::to_string(sys.count) + " chips fits: " + search.candidates.back().why);
    run = std::move(search.best_run);
  } else {
    const systems::Split split{args.tp, args.pp, args.ep, args.dp};
    run = systems::runOnSystem(sys, split.tp == 1 && split.ep == 1 ? whole : graph_of(split), split, df, options,
                               overlap);
  }

  const bool table = !args.quiet && !isStandardOutput(args.json_path);
  if (table) {
    if (!search.candidates.empty()) writeSplits(search, args.objective, out);
    writeSystemTable(sys, run, run.chip.workload, out);
    reports::TableOptions to;
    to.top_n = topCount(args.top);
    reports::writeTable(run.chip, out, to);
  }
  if (!args.json_path.empty()) {
    nlohmann::ordered_json j = systemJson(sys, run);
    if (!search.candidates.empty()) j["splits"] = splitsJson(search);
    writeOutput(args.json_path, j.dump(2) + "\n", out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
