// Internal to reports/html: the charts of one workload's sweep points.
#pragma once

#include <string>
#include <vector>

#include "reports/html/report_doc.h"
#include "reports/html/sweep_input.h"

namespace tessel::reports::html {

// The points of one workload and what varies among them.
struct WorkloadView {
  std::string name;                   // the `workload` param ("" when not swept)
  std::string prefix;                 // chart ids start with it: "sweep-0"
  std::vector<const SweepPoint*> ok;  // points that ran and have the metric
  std::vector<std::string> keys;      // swept numeric keys (more than one value here)
  std::vector<std::string> all_keys;  // every key of the sweep, for labels
  std::string metric;                 // what heatmaps and lines show ("cycles")
};

double metricOf(const SweepPoint& p, const std::string& metric);  // NaN when absent
// "scratchpad.capacity=64KiB, accumulator.capacity=256KiB" over `keys`.
std::string paramsText(const SweepPoint& p, const std::vector<std::string>& keys);

// One heatmap per pair of swept keys; each cell is the best (minimum) over the other keys.
std::vector<Chart> heatmaps(const WorkloadView& w);
// One line per swept key; each point is the best over the other keys.
std::vector<Chart> linePlots(const WorkloadView& w);
// SRAM vs latency and energy vs latency, when the points have them; front rows go to `pareto`.
std::vector<Chart> paretoCharts(const WorkloadView& w, Table& pareto);

}  // namespace tessel::reports::html
