// Dataflow comparison: one run per (workload, dataflow) on one accelerator, or the reason a
// dataflow could not run, and who wins each metric — for the whole workload and per layer.
// `tessel compare` fills a Comparison; these writers print it as a table, JSON or CSV.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/stats.h"

namespace tessel::reports {

struct CompareRun {
  std::string workload;
  std::string dataflow;
  std::string refused;  // why this dataflow could not run this workload; "" when it ran
  sim::RunStats run;    // meaningful when refused is empty
  bool ok() const { return refused.empty(); }
};

struct Comparison {
  std::string tool_version;
  std::string arch_name;
  std::string arch_hash;
  std::string objective;  // what the mapper minimized per layer
  int64_t budget = 0;     // its evaluations per distinct layer
  std::vector<std::string> workloads;
  std::vector<std::string> dataflows;
  std::vector<CompareRun> runs;  // workload-major, dataflows in the order asked
};

// The dataflow that wins each metric on one workload ("" when none ran). Lower is better for
// all but utilization; a tie goes to the dataflow asked first.
struct Winners {
  std::string latency, energy, edp, dram, utilization;
};
Winners winnersOf(const Comparison& c, const std::string& workload);

// One array op (MACs > 0, same name in every run that ran) and the dataflow best on it.
struct LayerWinner {
  std::string op;
  std::string op_class;
  int64_t macs = 0;
  std::vector<std::pair<std::string, double>> cycles;     // per dataflow that ran
  std::vector<std::pair<std::string, double>> energy_pj;  // per dataflow that ran
  std::string latency, energy;
};
std::vector<LayerWinner> layerWinners(const Comparison& c, const std::string& workload);

void writeCompareTable(const Comparison& c, std::ostream& os);
std::string compareJson(const Comparison& c);
// One row per (workload, dataflow): status, totals, energy per component, bytes per level.
std::string compareCsv(const Comparison& c);

}  // namespace tessel::reports
