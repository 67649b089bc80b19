// The geometry of a depth-first conv chain (DeFiNES, HPCA'23): the last conv's output is cut into
// tiles of `rows` x `cols` positions (bands when `cols` is the whole width), and for each tile
// every earlier conv computes the part of its output the next conv's windows read, halo
// included. Two ways with the halo a tile shares with the tiles before it:
//   - recompute: every tile computes its whole window again (more MACs, no state between tiles);
//   - keep: what an earlier tile computed stays on chip (a line buffer of the overlap rows across
//     the width, the overlap columns within a band), so every position is computed once.
// Levels: 0 is the chain's input, i + 1 the output of conv i (after its per-element ops).
#pragma once

#include <cstdint>
#include <vector>

#include "models/chains.h"
#include "models/graph.h"
#include "util/dtype.h"

namespace tessel::dataflows {

struct ConvLayer {
  int op = -1;
  models::ConvShape shape;
  DType in = DType::Int8, weight = DType::Int8;
  DType out = DType::Int8;  // what the next conv reads; the last conv's own output
  int64_t weightBytes() const;
  int64_t macsPerPosition() const;  // MACs per output position (all output channels)
};

struct ConvChainDims {
  int64_t images = 1;  // N: each image is tiled on its own
  std::vector<ConvLayer> convs;
  // Channels and extent (rows or columns) of level l.
  int64_t channels(size_t level) const;
  int64_t extent(size_t level, bool rows) const;
  DType dtype(size_t level) const;
};
ConvChainDims convChainDims(const models::ChainGroup& c, const models::Graph& g);

// One axis (rows or columns) tiled by `tile` positions of the last conv's output: per tile and
// level, the positions the tile needs (its outputs, and below them every position the windows
// above read) and those no earlier tile needed; per tile and conv, the input positions the
// fresh outputs read.
struct AxisTiles {
  std::vector<std::vector<int64_t>> needed, fresh;  // [tile][level]
  std::vector<std::vector<int64_t>> fresh_in;       // [tile][level]: inputs of its fresh outputs
};
AxisTiles axisTiles(const ConvChainDims& d, bool rows, int64_t tile);

// A schedule's counts per image, per level.
struct ConvBands {
  int64_t tiles = 0;              // tiles per image
  std::vector<double> positions;  // positions computed (level 0: read from home)
  // The largest tile's rows and columns computed (level 0: loaded) and, for level >= 1 (the
  // block GEMM of conv l - 1), the input rows and columns it reads.
  std::vector<int64_t> block_rows, block_cols, in_rows, in_cols;
  std::vector<int64_t> held;  // positions of the level on chip at once (window, line buffer)
  int64_t first_in = 0;       // input positions the first tile loads
  int64_t last_out = 0;       // output positions the last tile stores
};
ConvBands convBands(const ConvChainDims& d, int64_t rows, int64_t cols, bool keep);

// The conv's op at block size: `rows` x `cols` outputs of one image reading `in_rows` x
// `in_cols` inputs (its GEMM view and MACs to match).
models::Op convBlockOp(const models::Op& conv, int64_t rows, int64_t cols, int64_t in_rows,
                       int64_t in_cols);

}  // namespace tessel::dataflows
