// The pieces of the mapper's space: spatial splits, tile sizes per level (imperfect factors
// included), and loop orders. search.cpp ranks them; tests enumerate them.
#pragma once

#include <vector>

#include "dataflows/nest/constraints.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

// Tile sizes (elements) for an extent split in steps of `inner`: one per distinct tile count
// ceil(extent / tile), thinned to at most `limit` spread from the smallest to the whole extent.
std::vector<int64_t> tileSizes(int64_t extent, int64_t inner, size_t limit);

// Spatial factors (rows, cols) the constraints allow, the fullest first.
std::vector<std::pair<Factors, Factors>> spatialSplits(const Problem& p, const Hardware& hw,
                                                       const Constraints& c);

// Spatial factors for every level's fan-out (one Factors per Hardware level; ones where it has
// none) given the array's (`used`): every combination of each fan-out's fullest splits.
std::vector<std::vector<Factors>> fanoutSplits(const Problem& p, const Hardware& hw,
                                               const Factors& used);

// Every tiling (spatial, PE and local factors; DRAM factors cover the rest) whose tiles fit,
// with default loop orders and the keeps the constraints and capacities imply.
// `exhaustive` keeps every tile size and every fitting tiling; otherwise each dim offers a thinned
// list and, in large spaces, only tilings that no single dim could grow are kept.
// `target` bounds the tilings: each dim offers about target^(1/dims) sizes per spatial split.
// The tilings replace the contents of `out`, whose capacity is reused: a search keeps one such
// buffer per thread, as tens of thousands of ~1 KB mappings allocated and freed per search made
// every one of them a fresh mmap and its page faults.
void enumerateTilings(const Problem& p, const Hardware& hw, const Constraints& c, bool whole_rows,
                      bool exhaustive, int64_t target, std::vector<Mapping>& out);

// A mapping with no loops yet: DRAM keeps everything, the L2 the whole tensors that fit half
// of it, the local memories what they can hold, the PEs what the dataflow keeps there.
Mapping skeleton(const Problem& p, const Hardware& hw, const Constraints& c, const Factors& rows,
                 const Factors& cols, bool double_buffered);

// `m` with its outer levels ordered so `outer` stays put (its irrelevant dims innermost) and
// its local level so `local` stays in the PEs.
Mapping withOrders(const Mapping& m, const Problem& p, const Hardware& hw, Operand outer,
                   Operand local);
// Outer-level orders worth trying: every permutation of the dims with factors when there are at
// most four, else each tensor's stationary order.
std::vector<std::vector<Dim>> orderChoices(const Problem& p, const Hardware& hw, int level);
std::vector<Operand> localOrderChoices(const Problem& p, const Hardware& hw, const Constraints& c);
// Mappings one step from `m`: one dim's local tile (or PE factor) changed to any size it may
// take, the DRAM factor covering the rest; the loop orders keep their relative order.
std::vector<Mapping> neighbours(const Mapping& m, const Problem& p, const Hardware& hw,
                                const Constraints& c, bool whole_rows);

// Mappings the constraints allow before capacities are checked: spatial splits x tile sizes per
// dim (every distinct size, PE and local) x loop orders x buffering. What --budget samples.
double spaceSize(const Problem& p, const Hardware& hw, const Constraints& c);

// Mappings that grow one factor a step and shrink another (trading a full buffer's room), and
// `m` with double buffering flipped when that still fits.
std::vector<Mapping> pairMoves(const Mapping& m, const Problem& p, const Hardware& hw,
                               const Constraints& c);

// The L2 as a tiling level: the loops above the local memories moved into the L2 but for a few
// blocks of one dim left at DRAM, the L2 keeping blocks of tensors it kept no tile of (each set
// that fits half of it), so while the L2's loops turn those blocks come from DRAM once.
std::vector<Mapping> l2Blocks(const Mapping& m, const Problem& p, const Hardware& hw,
                              const Constraints& c);

// `m` under every outer order of `dram_orders` (restricted to its dims) and local order.
std::vector<Mapping> allOrders(const Mapping& m, const Problem& p, const Hardware& hw,
                               const Constraints& c,
                               const std::vector<std::vector<Dim>>& dram_orders);

}  // namespace tessel::dataflows::nest
