// The best latency a dataflow allows an op on the hardware, next to the best on every PE. The
// first is what a mapping's `gap_to_bound` is measured against (a mapping cannot beat it); the
// ratio of the two is what the array's shape costs the op under the dataflow (a depthwise layer
// whose dataflow puts only C on the rows fills one row in 64 whatever the mapper does).
#pragma once

#include <cstdint>
#include <string>

#include "dataflows/nest/constraints.h"
#include "dataflows/nest/hardware.h"
#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

struct Bound {
  Factors rows = kOnes;  // an unrolling over the rows that reaches it (the fewest PEs of the best)
  Factors cols = kOnes;  // and over the columns
  double steps = 0;      // MAC slots per PE: product over dims of ceil(extent / (rows x cols))
  double cycles = 0;     // the dataflow's bound: max(steps / MAC rate, ideal)
  double ideal = 0;      // every PE busy: max(MACs / (PEs x rate), off-chip), Cost::lower_bound
  double share = 0;      // MACs / (steps x PEs): the most of the array's MAC slots it can fill
  std::string spatial;   // the unrolling as a mapping's `spatial` reads: "rows R:3 S:3  cols -"
  // The axes it cannot fill, "9 of 64 rows and 1 of 32 columns usable", and why, "rows take
  // C=1 R=3 S=3, columns K=1; G=96 has no place on the array"; "" when both fill.
  std::string unused, unused_why;

  int64_t rowsUsed() const;
  int64_t colsUsed() const;
  double shapeCost() const { return ideal > 0 ? cycles / ideal : 1; }  // >= 1
  double gap(double latency) const { return cycles > 0 ? latency / cycles - 1 : 0; }
};

// The fewest array steps any spatial unrolling `c` allows reaches (each dim on the axes that may
// take it, the factors' product within the axis; a factor need not divide, so 96 on 64 rows is
// two passes of 48), capacities aside, then max(steps / mac_rate, ideal). `ideal` is the
// mapping's Cost::lower_bound; the bound is exact because steps / mac_rate >= the ideal compute.
Bound dataflowBound(const Problem& p, const Hardware& hw, const Constraints& c, double mac_rate,
                    double ideal);

}  // namespace tessel::dataflows::nest
