// tessel xval: the same plans timed by both engines, op by op, with what the SystemC blocks
// waited on where the two disagree most, and a check that every byte count agrees.
#include <iostream>

#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/host_conversions.h"
#include "models/workload.h"
#include "reports/xval.h"
#include "sim/footprint.h"
#include "sim/fusion.h"
#include "sim/run.h"
#include "util/error.h"

namespace tessel::app {

int xvalCommand(const XvalArgs& args, std::ostream& out) {
  const int top = topCount(args.top);
  if (!(args.tolerance > 0) || args.tolerance > 10) {
    throw ConfigError({"", 0, 0, "--tolerance"},
                      "expected a fraction above 0 (0.10 = 10%), got " + std::to_string(args.tolerance));
  }
  checkOutputs({{"--json", args.json_path}}, {args.arch, args.dataflow});
  const arch::Accelerator acc = arch::loadFile(args.arch, args.overrides);
  const dataflows::Dataflow df = pickDataflow(args.dataflow, acc);
  // The plans point into this graph: it carries the host's conversions (as sim::simulate's).
  const models::Graph graph = dataflows::withHostConversions(
      buildWorkload(args.workload, acc.array.input_dtype),
      acc);

  sim::RunOptions options;
  options.plan.mapper = args.mapper;
  options.plan.mapper_options.objective = args.objective;
  options.plan.fusion = dataflows::fusionModeFrom(args.fusion);
  options.plan.mapper_options.tolerance = args.latency_tolerance;
  options.plan.mapper_options.budget = args.budget;
  options.labels = {{"arch_file", args.arch},
                    {"workload", args.workload.name},
                    {"seq", std::to_string(args.workload.seq)},
                    {"batch", std::to_string(args.workload.batch)},
                    {"phase", args.workload.phase},
                    {"dataflow", df.name},
                    {"mapper", args.mapper},
                    {"objective", args.objective},
                    {"budget", std::to_string(args.budget)}};
  for (const auto& o : args.overrides) options.labels.emplace_back("override", o);
  // One set of plans, timed twice.
  const std::vector<dataflows::OpPlan> plans =
      sim::planGraph(graph, acc, df, options.plan, options.engine_options);
  sim::checkFitsDram(graph, acc, &plans);
  options.engine = "analytical";
  const sim::RunStats analytical = sim::evaluatePlans(graph, acc, df, plans, options);
  options.engine = "systemc";
  const sim::RunStats systemc = sim::evaluatePlans(graph, acc, df, plans, options);
  const reports::Xval x = reports::crossCheck(analytical, systemc, args.tolerance);

  const bool table = !args.quiet && !isStandardOutput(args.json_path);
  if (table) reports::writeXvalTable(x, out, top);
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, reports::xvalJsonString(x), out);
    if (table) out << "\nJSON report: " << args.json_path << "\n";
  }
  if (args.strict && (x.beyondTolerance() > 0 || x.byteMismatches() > 0)) return 1;
  return 0;
}

}  // namespace tessel::app
