// Cycles of one systolic-array tile and of back-to-back tiles, exactly as the clocked SystemC
// grid (sim/systemc/pe_grid) measures them; tests/systemc/pe_grid checks every formula against
// the simulation. Plain C++, header-only.
//
// Conventions. Edge e is the e-th rising clock edge. At the array's edges sit input registers
// that the controller loads on an edge; a PE latches its outputs on an edge from what its
// neighbours latched on the previous one. A tile starts on the edge its first input register
// is loaded and ends on the edge the accumulator (outside the array) captures its last output
// from the bottom row; its cycles are end - start. Partial tiles use the whole array (padded
// with zeros), so every count depends on the array's rows R and cols C, never on the tile.
//
// WS (weights B stationary, A streams from the left, psums flow down):
//   preload  R      column c's R weights enter one per cycle (bottom row's first), each
//                   addressed to its row, so all of a column lands on one edge; the column's
//                   preload is skewed by c like everything else
//   stream   m      one row of A per cycle (row k of the array skewed by k)
//   skew     R+C-2  the last A element enters the bottom row R-1 cycles late and crosses
//                   C-1 more PEs before the bottom-right PE adds it
//   +1              the edge input register (a PE uses what was latched the cycle before),
//                   equivalently the accumulator capturing the bottom PE's output register
// Back to back, the controller issues a tile every `wsIssuePeriod` cycles:
//   double buffered  max(m, R): the A ports are busy m cycles, the weight ports R cycles; the
//                    preload into the shadow buffer overlaps the current tile's stream (the
//                    shadow was freed by the tile before: needs 2p >= m + R - 1, always true)
//   single buffer    m + R - 1: a column's new weights land on one edge, which must not come
//                    before the bottom PE's last multiply of the previous tile; the other
//                    rows of the column are free earlier, hence one cycle of overlap
//
// OS (A from the left, B from the top, both skewed; each PE accumulates one output):
//   stream   K      one k per cycle; the last k carries a flag that ends the accumulation
//   skew     R+C-2  until the bottom-right PE's last MAC
//   drain    R      finished outputs move into a drain register; the drain registers of a
//                   column are a shift register moving down one PE per cycle, so a column's R
//                   outputs leave at the bottom one per cycle (bottom row first), row 0 of
//                   column C-1 last; meanwhile the accumulators already run the next tile
//   +1              the edge input register, as in WS
// Back to back: `osIssuePeriod` = max(K, R): K cycles on the input ports, and a PE's next
// result may enter the drain chain only once the previous tile's results from above it passed.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tessel::dataflows::nest {

// WS: cycles between the starts of back-to-back tiles that each stream m rows of A.
constexpr int64_t wsIssuePeriod(int64_t rows, int64_t m, bool double_buffered) {
  return double_buffered ? std::max(m, rows) : m + rows - 1;
}

// WS: one tile, from the first preload cycle to its last partial sum leaving the array.
constexpr int64_t wsTileCycles(int64_t rows, int64_t cols, int64_t m) {
  return rows + m + (rows + cols - 2) + 1;
}

// WS: `tiles` tiles back to back (each stream m rows): the issue period between starts, then
// the last tile's whole latency.
constexpr int64_t wsSequenceCycles(int64_t rows, int64_t cols, int64_t m, int64_t tiles,
                                   bool double_buffered) {
  if (tiles <= 0) return 0;
  return (tiles - 1) * wsIssuePeriod(rows, m, double_buffered) + wsTileCycles(rows, cols, m);
}

// OS: cycles between the starts of back-to-back tiles with reduction depth k.
constexpr int64_t osIssuePeriod(int64_t rows, int64_t k) { return std::max(k, rows); }

// OS: one tile, from its first operands entering to its last output leaving the array.
constexpr int64_t osTileCycles(int64_t rows, int64_t cols, int64_t k) {
  return k + (rows + cols - 2) + rows + 1;
}

// OS: `tiles` tiles back to back.
constexpr int64_t osSequenceCycles(int64_t rows, int64_t cols, int64_t k, int64_t tiles) {
  if (tiles <= 0) return 0;
  return (tiles - 1) * osIssuePeriod(rows, k) + osTileCycles(rows, cols, k);
}

}  // namespace tessel::dataflows::nest
