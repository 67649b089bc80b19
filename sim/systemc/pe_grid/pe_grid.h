// A cycle-accurate, clocked SystemC model of an R×C systolic array (weight- or output-
// stationary) running an INT8 GEMM with INT32 accumulation: real operands and partial sums move
// between PEs every clock, with input skew, double-buffered weights (WS) and a drain chain (OS).
// The cycle counts equal dataflows/nest/tile_timing.h's closed forms. This header has no SystemC
// in it; the model lives in pe_core.h (PE logic), pe.h, grid.h, edges.h, schedule.h.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/systemc/pe_grid/schedule.h"

namespace tessel::sim::pe_grid {

struct GridResult {
  bool complete = false;             // every output left the array before the cycle limit
  std::vector<int32_t> c;            // M×N row-major
  int64_t cycles = 0;                // first edge-register load to the last output captured
  std::vector<int64_t> tile_cycles;  // per array tile, its first load to its last output
  int64_t issue_period = 0;          // cycles between back-to-back tile starts
};

// C = A × B on the grid. A is M×K, B is K×N, both row-major INT8; tiles that do not divide the
// array are zero-padded. Elaborates the grid and runs sc_start until the last output leaves.
// SystemC elaborates once per process: call this at most once per process (tests fork a child
// per call); a second call throws std::logic_error. Bad shapes throw std::invalid_argument.
GridResult runSystolicGemm(const GridConfig& config, GemmShape shape, const std::vector<int8_t>& a,
                           const std::vector<int8_t>& b);

}  // namespace tessel::sim::pe_grid
