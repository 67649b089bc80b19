// tessel compare: every dataflow asked on every workload asked, on one accelerator, searched by
// the same mapper; a dataflow the design cannot run (or that maps nothing) is listed with why.
#include <algorithm>
#include <iostream>

#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "reports/compare.h"
#include "sim/run.h"
#include "util/error.h"

namespace tessel::app {

namespace {

// The options the user gave, kept for the workloads that read them; the others get their
// defaults (so `--seq 128` shapes GPT-2 and BERT, and ResNet-50 ignores it). An option no
// workload reads is an error.
WorkloadArgs argsFor(const CompareArgs& args, const std::string& workload) {
  WorkloadArgs w = args.workload;
  w.name = workload;
  const std::vector<std::string> used = models::optionsOf(workload);
  const WorkloadArgs defaults;
  w.given.clear();
  for (const std::string& option : args.workload.given) {
    if (std::find(used.begin(), used.end(), option) != used.end() || used.empty()) {
      w.given.push_back(option);
      continue;
    }
    if (option == "--seq") w.seq = defaults.seq;
    if (option == "--phase") w.phase = defaults.phase;
    if (option == "--image") w.image = defaults.image;
    if (option == "--layers") w.layers = defaults.layers;
    if (option == "--all-logits") w.all_logits = defaults.all_logits;
  }
  return w;
}

void checkOptionsUsed(const CompareArgs& args) {
  for (const std::string& option : args.workload.given) {
    bool used = false;
    for (const std::string& w : args.workloads) {
      const auto opts = models::optionsOf(w);
      used = used || opts.empty() || std::find(opts.begin(), opts.end(), option) != opts.end();
    }
    if (!used) {
      throw ConfigError({"", 0, 0, option}, "none of the workloads compared uses " + option);
    }
  }
}

reports::CompareRun runOne(const CompareArgs& args, const arch::Accelerator& acc,
                           const models::Graph& graph, const std::string& workload,
                           const std::string& dataflow) {
  reports::CompareRun r;
  r.workload = workload;
  r.dataflow = dataflow;
  const dataflows::Dataflow df = dataflows::loadDataflow(dataflow);  // a bad file is bad input
  try {
    dataflows::checkRunnable(df, acc);
    sim::RunOptions o;
    o.plan.mapper = "search";
    o.plan.mapper_options.objective = args.objective;
  o.plan.fusion = dataflows::fusionModeFrom(args.fusion);
    o.plan.mapper_options.tolerance = args.latency_tolerance;
    o.plan.mapper_options.budget = args.budget;
    o.labels = {{"arch_file", args.arch}, {"workload", workload}, {"dataflow", df.name}};
    r.run = sim::simulate(graph, acc, df, o);
  } catch (const ConfigError& e) {
    r.refused = e.message();
  } catch (const InfeasibleError& e) {
    r.refused = e.what();
  }
  return r;
}

}  // namespace

std::vector<std::string> splitWorkloads(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string piece = text.substr(start, comma - start);
    const bool continues = !out.empty() && piece.find('=') != std::string::npos &&
                           piece.find(':') == std::string::npos;
    if (continues) {
      out.back() += "," + piece;
    } else if (!piece.empty()) {
      out.push_back(piece);
    }
    start = comma + 1;
  }
  return out;
}

int compareCommand(const CompareArgs& given, std::ostream& out) {
  CompareArgs args = given;
  args.workloads = splitWorkloads(args.workloads_text);
  if (args.dataflows.empty()) throw ConfigError({"", 0, 0, "--dataflows"}, "names no dataflow");
  if (args.workloads.empty()) throw ConfigError({"", 0, 0, "--workloads"}, "names no workload");
  for (const auto& [option, list] : {std::pair{"--dataflows", &args.dataflows},
                                     std::pair{"--workloads", &args.workloads}}) {
    for (size_t i = 0; i < list->size(); ++i) {
      if (std::find(list->begin(), list->begin() + static_cast<long>(i), (*list)[i]) !=
          list->begin() + static_cast<long>(i)) {
        throw ConfigError({"", 0, 0, option}, "'" + (*list)[i] + "' is listed twice");
      }
    }
  }
  std::vector<std::string> inputs{args.arch};
  for (const std::string& d : args.dataflows) inputs.push_back(d);
  checkOutputs({{"--json", args.json_path}, {"--csv", args.csv_path}}, inputs);
  checkOptionsUsed(args);
  const arch::Accelerator acc = arch::loadFile(args.arch, args.overrides);
  for (const std::string& d : args.dataflows) dataflows::loadDataflow(d);  // bad names fail first

  reports::Comparison c;
  c.tool_version = sim::toolVersion();
  c.arch_name = acc.name;
  c.arch_hash = acc.hash();
  c.objective = args.objective;
  c.budget = args.budget;
  c.workloads = args.workloads;
  c.dataflows = args.dataflows;
  for (const std::string& w : args.workloads) {
    const models::Graph graph =
        buildWorkload(w, toWorkloadOptions(argsFor(args, w), acc.array.input_dtype));
    for (const std::string& d : args.dataflows) c.runs.push_back(runOne(args, acc, graph, w, d));
  }

  const bool table =
      !args.quiet && !isStandardOutput(args.json_path) && !isStandardOutput(args.csv_path);
  if (table) reports::writeCompareTable(c, out);
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, reports::compareJson(c), out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  if (!args.csv_path.empty()) {
    writeOutput(args.csv_path, reports::compareCsv(c), out);
    if (table) out << "CSV report: " << args.csv_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
