// A mapping of one loop nest onto the hardware chain: per storage level, the temporal loops that
// iterate over the tiles of the level below (factor and order) and the tensors it keeps; between
// the innermost shared level and the PEs, the spatial unrolling over array rows and columns.
// Factors need not divide the extents: a loop's last iteration may be partial, and the cost model
// counts those partial tiles exactly (no rounding of the workload).
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "dataflows/nest/hardware.h"
#include "dataflows/nest/problem.h"
#include "dataflows/nest/small_vector.h"

namespace tessel::dataflows::nest {

struct LevelLoops {
  Factors factor = kOnes;
  SmallVector<Dim, kDims> order;  // outermost first; every dim with factor > 1 appears once
  std::array<bool, kTensors> keeps{true, true, true};  // false = the tensor bypasses this level
  // Spatial factors over the level's fan-out (Level::fanout; product <= it): each instance
  // below takes one part. The array's fan-out has its own (Mapping::rows, cols).
  Factors spatial = kOnes;
};

struct Mapping {
  SmallVector<LevelLoops, 6> levels;  // like Hardware::levels, outermost first; the last is the PE
  Factors rows = kOnes;            // spatial factors across array rows (product <= rows)
  Factors cols = kOnes;            // and columns (the fan-out below Hardware::array())
  bool double_buffered = true;     // on-chip tiles are double-buffered: loads hide under compute
  // How inputs and weights come into the local memory. Nest: when the loop nest changes their
  // tile (trailing loops they do not depend on leave it in place). EveryTile: moved in again by
  // every local tile even when unchanged (Gemmini's tiled_matmul_outer, gemmini.h: each
  // gemmini_loop_ws call loads its own A and B blocks). Once: each distinct tile is moved in
  // once and stays (tiled_matmul_outer's a_reuse / b_reuse: at most two tiles, one per
  // scratchpad half).
  enum class Reload : uint8_t { Nest, EveryTile, Once };
  std::array<Reload, 2> reload{Reload::Nest, Reload::Nest};

  // Elements along d of the tile one instance of `level` holds: its factors and everything
  // below, the spatial factors of its fan-out and those below included (`array` is
  // Hardware::array(), the level above rows and cols).
  int64_t tile(int level, Dim d, int array) const;
  Factors tileAt(int level, int array) const;
  int64_t spatial(Dim d) const { return rows[at(d)] * cols[at(d)]; }  // the array's
  // Every fan-out's spatial factor along d: the array's and the levels'.
  int64_t allSpatial(Dim d) const;
  // Readable loop nest, one loop per line, e.g.
  //   dram           for n in [0:4)
  //   scratchpad     for k in [0:12)
  //                  spatial rows k:16  cols n:16
  //   pe  [weights]  for m in [0:128)
  std::string loopNest(const Problem& p, const Hardware& hw) const;
  // One line: "spatial k16 x n16 | pe m128 | scratchpad k12 | dram n4 m1".
  std::string brief(const Problem& p, const Hardware& hw) const;
  // Flat key/value form for reports: ("spatial", ...), ("<level>", "factors order keeps").
  std::vector<std::pair<std::string, std::string>> flatten(const Problem& p,
                                                           const Hardware& hw) const;
};

// "rows k:16  cols n:16": spatial factors over the array's rows and columns ("-" for none).
std::string spatialText(const Factors& rows, const Factors& cols, const Problem& p);

// "k:4 p:2": the factors > 1 ("-" for none).
std::string factorsText(const Factors& f, const Problem& p);

// Which part of a mapping a check found wrong, so that a reader can point at the entry the user
// wrote for it: a level's loops (temporal) or its spatial unrolling (the array's, on the
// array's level); level -1 when no one level is to blame.
struct Blame {
  int level = -1;
  bool spatial = false;
};

// "" when the mapping is well formed for (p, hw): one entry per level, orders list exactly the
// dims with factor > 1, spatial products within the array, every extent covered (the outermost
// level's loops are blamed), nothing kept where the level cannot hold it. Otherwise why not
// (capacity is the cost model's business), and `blame` (when given) says where.
std::string checkShape(const Mapping& m, const Problem& p, const Hardware& hw,
                       Blame* blame = nullptr);

}  // namespace tessel::dataflows::nest
