// Internal to reports/html: the charts of one workload's sweep points, one set per metric.
#pragma once

#include <string>
#include <vector>

#include "reports/html/report_doc.h"
#include "reports/html/sweep_input.h"

namespace tessel::reports::html {

// The points of one workload and what varies among them.
struct WorkloadView {
  std::string name;                        // the `workload` param ("" when not swept)
  std::string prefix;                      // chart ids start with it: "sweep-0"
  std::vector<const SweepPoint*> ran;      // points that ran
  std::vector<std::string> keys;           // swept numeric keys (more than one value here)
  std::vector<std::string> category_keys;  // swept keys with a non-numeric value (dataflow, arch)
  std::vector<std::string> all_keys;       // every key of the sweep, for labels
};

// The points sharing one value of every categorical key: one panel of a small multiple.
struct Panel {
  std::string label;  // "dataflow=ws" ("" when no categorical key is swept)
  std::vector<const SweepPoint*> points;
};

// One metric's view of a workload: the points that have it, by panel.
struct MetricView {
  const WorkloadView* w = nullptr;
  std::string metric;  // "cycles"
  std::string prefix;  // chart ids start with it: "sweep-0-cycles"
  std::vector<const SweepPoint*> ok;
  std::vector<Panel> panels;  // one per combination of categorical values, first seen first
};

WorkloadView workloadView(const SweepData& d, const std::string& name, size_t number);
MetricView metricView(const WorkloadView& w, const std::string& metric);

double metricOf(const SweepPoint& p, const std::string& metric);  // NaN when absent
// Utilization and TOPS-like metrics are better high; latency, energy, area, bytes low.
bool higherIsBetter(const std::string& metric);
// The better of two values of `metric`.
bool better(const std::string& metric, double a, double b);
// "scratchpad.capacity=64KiB, accumulator.capacity=256KiB" over `keys`.
std::string paramsText(const SweepPoint& p, const std::vector<std::string>& keys);

// Per pair of swept numeric keys, one heatmap per panel; each cell is the best over the other
// numeric keys (the caption says which).
std::vector<Chart> heatmaps(const MetricView& m);
// Per swept numeric key, one line per panel; each point is the best over the other numeric keys.
std::vector<Chart> linePlots(const MetricView& m);
// With categorical keys swept: one bar per panel, the best over the numeric keys.
std::vector<Chart> panelBars(const MetricView& m);
// SRAM vs latency, and latency vs energy with area as colour, when the points have them; front
// rows go to `pareto`. The latency-energy-area front is the sweep's own when `summary` (its
// summary.json, or null) holds one of those objectives.
std::vector<Chart> paretoCharts(const WorkloadView& w, const Json& summary, Table& pareto);

}  // namespace tessel::reports::html
