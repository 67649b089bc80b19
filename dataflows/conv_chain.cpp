#include "dataflows/conv_chain.h"

#include <algorithm>

#include "util/error.h"

namespace tessel::dataflows {

int64_t ConvLayer::weightBytes() const {
  return storageBytes(weight, shape.r * shape.s * (shape.c / shape.groups) * shape.k);
}

int64_t ConvLayer::macsPerPosition() const {
  return shape.k * (shape.c / shape.groups) * shape.r * shape.s;
}

int64_t ConvChainDims::channels(size_t level) const {
  return level == 0 ? convs.front().shape.c : convs.at(level - 1).shape.k;
}

int64_t ConvChainDims::extent(size_t level, bool rows) const {
  if (level == 0) return rows ? convs.front().shape.h : convs.front().shape.w;
  const models::ConvShape& s = convs.at(level - 1).shape;
  return rows ? s.p : s.q;
}

DType ConvChainDims::dtype(size_t level) const {
  return level == 0 ? convs.front().in : convs.at(level - 1).out;
}

ConvChainDims convChainDims(const models::ChainGroup& c, const models::Graph& g) {
  ConvChainDims d;
  for (size_t i = 0; i < c.convs.size(); ++i) {
    const models::Op& op = g.op(c.convs[i]);
    ConvLayer l;
    l.op = op.id;
    l.shape = op.conv;
    l.in = g.tensor(op.inputs.at(0)).dtype;
    l.weight = g.tensor(op.inputs.at(1)).dtype;
    l.out = i + 1 < c.convs.size() ? g.tensor(g.op(c.convs[i + 1]).inputs.at(0)).dtype
                                   : g.tensor(op.outputs.at(0)).dtype;
    d.convs.push_back(l);
  }
  if (d.convs.empty()) throw Error("conv chain without convolutions");
  d.images = d.convs.front().shape.n;
  return d;
}

namespace {

// The positions of level l - 1 that conv l - 1's windows read for the outputs in `out`.
std::vector<char> windows(const ConvChainDims& d, size_t level, bool rows,
                          const std::vector<char>& out) {
  const models::ConvShape& s = d.convs[level - 1].shape;
  const int64_t taps = rows ? s.r : s.s;
  std::vector<char> in(static_cast<size_t>(d.extent(level - 1, rows)), 0);
  const auto extent = static_cast<int64_t>(in.size());
  for (int64_t o = 0; o < static_cast<int64_t>(out.size()); ++o) {
    if (!out[static_cast<size_t>(o)]) continue;
    for (int64_t t = 0; t < taps; ++t) {
      const int64_t x = o * s.stride - s.pad + t * s.dilation;
      if (x >= 0 && x < extent) in[static_cast<size_t>(x)] = 1;
    }
  }
  return in;
}

int64_t count(const std::vector<char>& v) { return std::count(v.begin(), v.end(), char{1}); }

}  // namespace

AxisTiles axisTiles(const ConvChainDims& d, bool rows, int64_t tile) {
  const size_t top = d.convs.size();
  const int64_t last = d.extent(top, rows);
  tile = std::clamp<int64_t>(tile, 1, last);
  const int64_t n = (last + tile - 1) / tile;
  std::vector<std::vector<char>> seen(top + 1);
  for (size_t l = 0; l <= top; ++l) seen[l].assign(static_cast<size_t>(d.extent(l, rows)), 0);
  AxisTiles a;
  for (int64_t j = 0; j < n; ++j) {
    std::vector<int64_t> needed(top + 1), fresh(top + 1), fresh_in(top + 1, 0);
    std::vector<char> mask(static_cast<size_t>(last), 0);
    std::fill(mask.begin() + j * tile, mask.begin() + std::min(last, (j + 1) * tile), char{1});
    for (size_t l = top + 1; l-- > 0;) {
      std::vector<char> mine = mask;
      for (size_t x = 0; x < mine.size(); ++x) {
        mine[x] = mask[x] && !seen[l][x];
        seen[l][x] = seen[l][x] || mask[x];
      }
      needed[l] = count(mask);
      fresh[l] = count(mine);
      if (l == 0) break;
      fresh_in[l] = count(windows(d, l, rows, mine));
      mask = windows(d, l, rows, mask);
    }
    a.needed.push_back(std::move(needed));
    a.fresh.push_back(std::move(fresh));
    a.fresh_in.push_back(std::move(fresh_in));
  }
  return a;
}

namespace {

// One axis's share of a level: positions summed over its tiles, the largest tile's, the inputs
// that tile reads, the largest window and the largest overlap with earlier tiles.
struct AxisLevel {
  int64_t sum = 0, block = 0, block_in = 0, window = 0, overlap = 0;
};

AxisLevel axisLevel(const AxisTiles& a, size_t l, bool keep) {
  AxisLevel x;
  for (size_t j = 0; j < a.needed.size(); ++j) {
    const int64_t computed = keep ? a.fresh[j][l] : a.needed[j][l];
    const int64_t in = l == 0 ? 0 : keep ? a.fresh_in[j][l] : a.needed[j][l - 1];
    x.sum += computed;
    if (computed > x.block || (computed == x.block && in > x.block_in)) {
      x.block = computed;
      x.block_in = in;
    }
    x.window = std::max(x.window, a.needed[j][l]);
    x.overlap = std::max(x.overlap, a.needed[j][l] - a.fresh[j][l]);
  }
  return x;
}

}  // namespace

ConvBands convBands(const ConvChainDims& d, int64_t rows, int64_t cols, bool keep) {
  const AxisTiles r = axisTiles(d, true, rows), c = axisTiles(d, false, cols);
  const size_t levels = d.convs.size() + 1;
  ConvBands b;
  b.tiles = static_cast<int64_t>(r.needed.size() * c.needed.size());
  b.positions.assign(levels, 0);
  for (auto* v : {&b.block_rows, &b.block_cols, &b.in_rows, &b.in_cols, &b.held}) {
    v->assign(levels, 0);
  }
  for (size_t l = 0; l < levels; ++l) {
    const AxisLevel x = axisLevel(r, l, keep), y = axisLevel(c, l, keep);
    b.positions[l] = static_cast<double>(x.sum) * static_cast<double>(y.sum);
    b.block_rows[l] = x.block;
    b.block_cols[l] = y.block;
    b.in_rows[l] = x.block_in;
    b.in_cols[l] = y.block_in;
    // Keep across column tiles: the overlap rows of the whole width wait for the next band.
    const int64_t line = keep && c.needed.size() > 1 ? x.overlap * d.extent(l, false) : 0;
    b.held[l] = x.window * y.window + line;
  }
  const size_t top = levels - 1;
  b.first_in = r.needed.front()[0] * c.needed.front()[0];
  b.last_out = r.needed.back()[top] * c.needed.back()[top];
  return b;
}

models::Op convBlockOp(const models::Op& conv, int64_t rows, int64_t cols, int64_t in_rows,
                       int64_t in_cols) {
  models::Op op = conv;
  models::ConvShape& c = op.conv;
  c.n = 1;
  c.p = rows;
  c.q = cols;
  c.h = in_rows;
  c.w = in_cols;
  op.gemm = {c.groups, c.p * c.q, c.k / c.groups, c.c / c.groups * c.r * c.s};
  op.macs = op.gemm.macs();
  return op;
}

}  // namespace tessel::dataflows
