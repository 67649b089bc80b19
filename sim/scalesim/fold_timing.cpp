#include "sim/scalesim/fold_timing.h"

#include <algorithm>
#include <string>

#include "dataflows/nest/tile_timing.h"
#include "util/error.h"

namespace tessel::sim::scalesim {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// One fold alone: SCALE-Sim's demand lines, or the clocked grid's tile (tile_timing.h).
int64_t foldCycles(Flow flow, const OperandShape& s, int64_t rows, int64_t cols, bool tessel) {
  if (flow == Flow::Os) {
    return tessel ? dataflows::nest::osTileCycles(rows, cols, s.t) : s.t + rows + cols - 2;
  }
  return tessel ? dataflows::nest::wsTileCycles(rows, cols, s.t) : s.t + 2 * rows + cols - 2;
}

// Cycles between fold starts when folds overlap (double-buffered weights for ws/is).
int64_t issuePeriod(Flow flow, const OperandShape& s, int64_t rows) {
  return flow == Flow::Os ? dataflows::nest::osIssuePeriod(rows, s.t)
                          : dataflows::nest::wsIssuePeriod(rows, s.t, true);
}

// The cycles SCALE-Sim divides a fold's MACs by for its compute utilization: the stationary
// (os: output) demand matrix's lines plus its width - 1.
int64_t utilizationCycles(Flow flow, const OperandShape& s, int64_t rows, int64_t cols) {
  return flow == Flow::Os ? s.t + rows + cols - 2 : s.t + 2 * rows + 2 * cols - 3;
}

}  // namespace

Flow flowOf(std::string_view name) {
  if (name == "os") return Flow::Os;
  if (name == "ws") return Flow::Ws;
  if (name == "is") return Flow::Is;
  throw ConfigError({"", 0, 0, "--dataflow"},
                    "--scalesim-timing times SCALE-Sim's dataflows os, ws and is; got '" +
                        std::string(name) + "'");
}

OperandShape operandShape(Flow flow, int64_t m, int64_t n, int64_t k) {
  switch (flow) {
    case Flow::Os:
      return {m, n, k};
    case Flow::Ws:
      return {k, n, m};
    case Flow::Is:
      return {k, m, n};
  }
  return {m, n, k};
}

FoldTiming foldTiming(Flow flow, int64_t m, int64_t n, int64_t k, int64_t rows, int64_t cols,
                      const Knobs& knobs) {
  const OperandShape s = operandShape(flow, m, n, k);
  FoldTiming f;
  f.row_folds = ceilDiv(s.sr, rows);
  f.col_folds = ceilDiv(s.sc, cols);
  const int64_t folds = f.row_folds * f.col_folds;
  f.fold_cycles = foldCycles(flow, s, rows, cols, knobs.tessel_drain);
  f.total_cycles = knobs.fold_overlap
                       ? (folds - 1) * issuePeriod(flow, s, rows) + f.fold_cycles - 1
                       : folds * f.fold_cycles - 1;

  // Per-fold means, summed in SCALE-Sim's fold order (column folds outer) so the doubles match
  // its printed digits.
  const double pes = static_cast<double>(rows * cols);
  const int64_t util_cycles = utilizationCycles(flow, s, rows, cols);
  double mapping_sum = 0, compute_sum = 0;
  for (int64_t fc = 0; fc < f.col_folds; ++fc) {
    const int64_t used_cols = std::min(cols, s.sc - fc * cols);
    for (int64_t fr = 0; fr < f.row_folds; ++fr) {
      const int64_t used = std::min(rows, s.sr - fr * rows) * used_cols;
      mapping_sum += static_cast<double>(used) / pes;
      compute_sum += static_cast<double>(used * s.t) / static_cast<double>(rows * cols * util_cycles);
    }
  }
  f.mapping_efficiency = mapping_sum / static_cast<double>(folds);
  f.compute_utilization = compute_sum / static_cast<double>(folds);

  // Streamed operands are read once per fold across them; the stationary one once (os also
  // counts R + C per fold for the flipped, padded output block, as SCALE-Sim does).
  const int64_t row_streamed = f.col_folds * s.t * s.sr;
  const int64_t col_streamed = f.row_folds * s.t * s.sc;
  const int64_t stationary = s.sr * s.sc;
  switch (flow) {
    case Flow::Os:
      f.ifmap_sram_reads = row_streamed;
      f.filter_sram_reads = col_streamed;
      f.ofmap_sram_writes = stationary + folds * (rows + cols);
      break;
    case Flow::Ws:
      f.ifmap_sram_reads = row_streamed;
      f.filter_sram_reads = stationary;
      f.ofmap_sram_writes = col_streamed;
      break;
    case Flow::Is:
      f.ifmap_sram_reads = stationary;
      f.filter_sram_reads = row_streamed;
      f.ofmap_sram_writes = col_streamed;
      break;
  }
  return f;
}

}  // namespace tessel::sim::scalesim
