// The views every writer shows, computed once from RunStats so the table, CSV, JSON (and
// later HTML) cannot disagree: where the time goes by op class and by cause, the top ops.
#pragma once

#include <cstdint>
#include <vector>

#include "models/graph.h"
#include "sim/stats.h"

namespace tessel::reports {

struct ClassRow {
  models::OpClass op_class = models::OpClass::Other;
  double cycles = 0;
  double fraction = 0;  // cycles / total cycles; 0 when the run has no cycles
  int ops = 0;          // op records of this class, fused ones included
  // MACs of the class's ops dense, those the array performs (neither skipped nor gated: every
  // MAC on a dense run) and those it gates (their cycle taken, no MAC energy).
  double macs = 0, performed_macs = 0, gated_macs = 0;
};

struct CauseRow {
  sim::Cause cause = sim::Cause::Compute;
  double cycles = 0;
  double fraction = 0;
};

// All op classes in OpClass order, zeros included.
std::vector<ClassRow> byClass(const sim::RunStats& run);
// All causes in Cause order, zeros included.
std::vector<CauseRow> byCause(const sim::RunStats& run);
// Up to n ops (all when n < 0) with nonzero cycles, most cycles first; ties keep graph order.
std::vector<const sim::OpStats*> topOps(const sim::RunStats& run, int n);
// Bytes at the outermost storage level (level_names.front()); 0 without levels.
int64_t dramBytes(const sim::RunStats& run);

}  // namespace tessel::reports
