// The controller of the systolic grid as plain C++: how a GEMM is cut into array tiles, what
// the edge input registers hold on each clock edge (skewed operands, addressed weight preload),
// and where each output leaving the bottom of a column belongs. The driver and collector
// modules (edges.h) only call it, so it is tested without sc_start.
//
// WS: tiles over N chunks of C (outer) and K chunks of R (inner); each streams all M rows of A
// and adds into the accumulator. OS: tiles over M chunks of R (outer) and N chunks of C; each
// streams all of K. Edge chunks are zero-padded.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/systemc/pe_grid/pe_core.h"

namespace tessel::sim::pe_grid {

struct GridConfig {
  int rows = 16;
  int cols = 16;
  Dataflow dataflow = Dataflow::WeightStationary;
  bool double_buffered = true;  // WS: preload the next weights into the shadow register
  int period_adjust = 0;        // added to the legal issue period; tests probe -1 (must fail)
};

struct GemmShape {
  int m = 0, k = 0, n = 0;
};

class Schedule {
 public:
  // Keeps pointers to A (M×K) and B (K×N), row-major; they must outlive the schedule.
  Schedule(const GridConfig& config, GemmShape shape, const int8_t* a, const int8_t* b);

  int tiles() const { return tiles_; }
  int64_t period() const { return period_; }
  int64_t tileStart(int t) const { return int64_t(t) * period_; }  // first edge it loads
  int64_t outputsPerColumn() const { return int64_t(tiles_) * per_tile_; }
  int tileOfOutput(int64_t j) const { return int(j / per_tile_); }
  int64_t expectedCycles() const;  // tile_timing.h's sequence formula for this run

  // What the controller loads into row r's left register (A) / column c's top register
  // (WS weights, OS B) on edge e.
  OperandReg left(int64_t e, int r) const;
  OperandReg top(int64_t e, int c) const;

  // The j-th valid value leaving the bottom of column c: WS adds a partial sum into C (M×N),
  // OS stores a finished output. Padding is dropped.
  void collect(int c, int64_t j, int32_t value, std::vector<int32_t>& out) const;

 private:
  int kTiles() const;  // WS: K chunks per N chunk
  int nTiles() const;  // OS: N chunks per M chunk

  GridConfig cfg_;
  GemmShape s_;
  const int8_t* a_;
  const int8_t* b_;
  bool ws_;
  int tiles_ = 0;
  int64_t period_ = 1;
  int64_t per_tile_ = 1;  // outputs per column per tile: WS M rows, OS R rows
};

}  // namespace tessel::sim::pe_grid
