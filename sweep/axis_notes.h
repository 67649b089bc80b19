// Swept keys that changed no result: for each key a grid, list, random sample or workload
// option sweeps, the points that differ only in that key (derived keys aside) are compared;
// when at least one such group exists and within every group the metrics are equal (and no
// point failed where another ran), the key changed nothing. The off-chip limit the points
// recorded explains a flat off-chip key ("the off-chip rate is set by the dma window").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/result_line.h"
#include "sweep/spec.h"

namespace tessel::sweep {

struct AxisNote {
  std::string key;
  // "dram.bandwidth changed no result (every point equal when only it varies); the off-chip
  // rate is set by the dma window (10.24 B/cycle)"
  std::string message;
  std::string offchip_limit;           // the same for every compared point, else ""
  double offchip_bytes_per_cycle = 0;  // with offchip_limit
  int64_t groups = 0;                  // groups of points that differ only in `key`
};

// The keys a spec sweeps (set by its sources or a workload's swept options, not derived), in
// spec order.
std::vector<std::string> sweptKeys(const Spec& spec);

// One note per swept key that changed no result, in spec order.
std::vector<AxisNote> flatAxes(const Spec& spec, const std::vector<ResultLine>& lines);

}  // namespace tessel::sweep
