// A fused group's steps: see fused.h.
#include <algorithm>

#include "sim/systemc/lower/fused.h"

namespace tessel::sim::systemc {

namespace {

// The block grid of one unit: per row block its rows and its key blocks (chunks), and the
// columns of each key block (chunk).
struct Grid {
  int64_t units = 1;
  std::vector<int64_t> rows, blocks;
  std::vector<double> col_prefix{0};  // columns of key blocks [0, c)
  double cols(int64_t c0, int64_t c1) const {
    return col_prefix[size_t(c1)] - col_prefix[size_t(c0)];
  }
};

Grid gridOf(const dataflows::FusedGroup& grp, const models::Graph& g) {
  Grid grid;
  int64_t extent = 0, rows = 0;
  dataflows::AttentionDims a;
  const bool attention = grp.chain.kind == models::ChainKind::Attention;
  if (attention) {
    a = dataflows::attentionDims(grp.chain, g);
    grid.units = a.units;
    rows = a.queries;
    extent = a.keys;
  } else {
    const dataflows::FfnDims f = dataflows::ffnDims(grp.chain, g);
    rows = f.rows;
    extent = f.hidden;
  }
  const int64_t row_blocks = (rows + grp.block_rows - 1) / grp.block_rows;
  const int64_t width = (extent + grp.block_cols - 1) / grp.block_cols;
  for (int64_t c = 0; c < width; ++c) {
    grid.col_prefix.push_back(grid.col_prefix.back() +
                              double(std::min(grp.block_cols, extent - c * grp.block_cols)));
  }
  for (int64_t r = 0; r < row_blocks; ++r) {
    const int64_t first = r * grp.block_rows;
    const int64_t n = std::min(grp.block_rows, rows - first);
    int64_t kb = width;
    if (attention && a.causal) {
      // As dataflows::attentionBlocks: the row's last query sees keys up to its position
      // plus keys - queries; the blocks above the diagonal are skipped.
      const int64_t last_key = first + n - 1 + (a.keys - a.queries);
      kb = std::min(width, last_key / grp.block_cols + 1);
    }
    grid.rows.push_back(n);
    grid.blocks.push_back(kb);
  }
  return grid;
}

}  // namespace

FusedSchedule fusedSchedule(const dataflows::FusedGroup& grp, const models::Graph& g,
                            int64_t max_steps) {
  const Grid grid = gridOf(grp, g);
  FusedSchedule s;
  s.units = grid.units;
  s.key_blocks = int64_t(grid.col_prefix.size()) - 1;
  int64_t per_unit = 0;
  for (int64_t b : grid.blocks) per_unit += b;
  s.unit_blocks = per_unit * grid.units;
  const int64_t k =
      std::max<int64_t>(1, (s.unit_blocks + max_steps - 1) / std::max<int64_t>(1, max_steps));
  s.blocks_per_step = k;
  s.steps.reserve(size_t((s.unit_blocks + k - 1) / k));
  FusedStep step;
  int64_t filled = 0;
  for (int64_t u = 0; u < grid.units; ++u) {
    int64_t loaded = 0;  // key blocks (chunks) this unit has read once
    for (size_t r = 0; r < grid.rows.size(); ++r) {
      const int64_t kb = grid.blocks[r];
      const double rows = double(grid.rows[r]);
      for (int64_t c = 0; c < kb;) {
        const int64_t c1 = std::min(kb, c + (k - filled));
        s.segments.push_back({u, int64_t(r), c, c1, loaded});
        step.blocks += double(c1 - c);
        step.each_w += grid.cols(c, c1);
        if (c1 > loaded) step.once_w += grid.cols(std::max(c, loaded), c1);
        step.vector_w += rows * grid.cols(c, c1);
        if (c == 0) step.row_in += rows;
        if (c1 == kb) step.row_out += rows;
        loaded = std::max(loaded, c1);
        filled += c1 - c;
        c = c1;
        if (filled == k) {
          step.seg_end = uint32_t(s.segments.size());
          s.steps.push_back(step);
          step = FusedStep{};
          step.seg_begin = step.seg_end = uint32_t(s.segments.size());
          filled = 0;
        }
      }
    }
  }
  if (filled > 0) {
    step.seg_end = uint32_t(s.segments.size());
    s.steps.push_back(step);
  }
  return s;
}

}  // namespace tessel::sim::systemc
