// What every simulated run must report, whatever the input: shared by the targets that simulate.
// A broken invariant is a finding (__builtin_trap, as any other).
#pragma once

#include <cmath>

#include "sim/stats.h"

namespace tessel::fuzz {

inline void require(bool ok) {
  if (!ok) __builtin_trap();
}

// Finite, non-negative counts, utilization in [0, 1], causes adding up to cycles.
inline void checkRun(const sim::RunStats& run) {
  double total = 0;
  for (const auto& op : run.ops) {
    require(std::isfinite(op.cycles) && op.cycles >= 0);
    require(op.macs >= 0);
    require(op.utilization >= 0 && op.utilization <= 1);
    double causes = 0;
    for (double c : op.cycles_by_cause) causes += c;
    require(std::abs(causes - op.cycles) <= 1e-6 * op.cycles + 1e-9);
    for (const auto& t : op.traffic) {
      for (int x = 0; x < 3; ++x) require(t.read_bytes[x] >= 0 && t.write_bytes[x] >= 0);
    }
    for (const auto& [component, pj] : op.energy_pj) require(std::isfinite(pj) && pj >= 0);
    total += op.cycles;
  }
  require(run.utilization() >= 0 && run.utilization() <= 1);
  require(std::isfinite(total));
}

}  // namespace tessel::fuzz
