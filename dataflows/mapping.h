// One op's mapping onto the array: the dataflow, the local-memory tile and the loop order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dataflows/nest/bound.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/problem.h"

namespace tessel::dataflows {

struct Mapping {
  std::string dataflow;    // Dataflow::name
  std::string mapper;      // which mapper produced it
  int64_t array_rows = 0;  // spatial unrolling (array shape the mapping assumes)
  int64_t array_cols = 0;
  // Tile held in the local memories, in elements along m, n, k (a multiple of the array
  // dimension, clipped to the problem).
  int64_t tile_m = 0, tile_n = 0, tile_k = 0;
  // Outer (DRAM-level) loop order, outermost first, e.g. {M, N, K} = "for i: for j: for k".
  std::vector<Dim> loop_order{Dim::M, Dim::N, Dim::K};
  bool double_buffered = true;  // next tile's loads overlap this tile's compute

  // The loop-nest form, which searching mappers fill: the engines then cost this nest (any
  // number of levels, spatial factors, register files) instead of the m/n/k tile above.
  bool has_nest = false;
  nest::Mapping nest;
  nest::Problem loops;                        // the problem the nest maps (names its dims)
  std::shared_ptr<const nest::Hardware> hw;  // the hardware view the nest refers to
  int64_t space = 0;                          // candidates the constraints allowed
  int64_t evaluated = 0;                      // cost evaluations the search made
  // The best the dataflow allows this op (nest/bound.h) and the mapping's latency over it,
  // minus 1: what the search left on the table, the array's shape aside.
  nest::Bound bound;
  double gap = 0;

  int64_t tileOf(Dim d) const { return d == Dim::M ? tile_m : d == Dim::N ? tile_n : tile_k; }
  // Tiles along d for a problem: ceil(extent / tile).
  int64_t tilesAlong(const Problem& p, Dim d) const;
  // Printable loop nest, one loop per line.
  std::string loopNest(const Problem& p) const;
  // Flat key/value form for reports.
  std::vector<std::pair<std::string, std::string>> flatten() const;
  // "ws m=80 n=80 k=256".
  std::string brief() const;
};

}  // namespace tessel::dataflows
