// SCALE-Sim v2's per-layer reports from a run's stats: COMPUTE_REPORT.csv and
// BANDWIDTH_REPORT.csv with its exact headers, field separator (", ") and trailing commas, one
// row per conv/GEMM op on the array, LayerID 0, 1, ... in graph order as SCALE-Sim numbers a
// topology's layers. Whichever engine ran: with the scalesim engine the figures are SCALE-Sim's
// (its "scalesim_*" stats); otherwise tessel's own (docs/scalesim.md says how each is filled).
#pragma once

#include <string>

#include "sim/stats.h"

namespace tessel::reports {

inline constexpr const char* kScaleSimComputeHeader =
    "LayerID, Total Cycles, Stall Cycles, Overall Util %, Mapping Efficiency %, Compute Util %,\n";
inline constexpr const char* kScaleSimBandwidthHeader =
    "LayerID, Avg IFMAP SRAM BW, Avg FILTER SRAM BW, Avg OFMAP SRAM BW, Avg IFMAP DRAM BW, "
    "Avg FILTER DRAM BW, Avg OFMAP DRAM BW,\n";

struct ScaleSimReports {
  std::string compute;    // COMPUTE_REPORT.csv
  std::string bandwidth;  // BANDWIDTH_REPORT.csv
};

ScaleSimReports scaleSimReports(const sim::RunStats& run);

// A double as Python's str() prints it (shortest round trip; "100.0", "1e-05"), so the
// reports' digits equal SCALE-Sim's.
std::string pythonFloat(double v);

}  // namespace tessel::reports
