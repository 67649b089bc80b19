// What sparse operands do to a mapping's cost (Sparseloop's split, Wu et al., MICRO 2022): the
// dense counts first (transfers.cpp, timing.cpp), then
//   - storage: a level that keeps an operand in a compressed format (arch::SparseFormat) holds
//     and moves its non-zeros plus their metadata; an uncompressed level moves every value;
//   - compute: an N:M operand the datapath accelerates shortens the reduction to N/M of its
//     steps (the mapping's tiles, compressed); an operand the MACs skip removes the MACs it
//     zeroes, but the PEs of a lockstep group wait for the one with most non-zeros in its tile:
//     the expected maximum of binomials, not the mean; gating saves the MACs' and their operand
//     reads' energy, not their cycles.
// Internal to the cost model; density 1 everywhere leaves every count as it was.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "dataflows/nest/cost.h"

namespace tessel::dataflows::nest {

// Bytes a level keeps or moves per dense value of `value_bytes` when it stores data of
// sparsity `s` in format `f`: the non-zeros and their metadata (docs/sparsity.md). `fiber`: the
// run a coordinate indexes (the reduction extent). f == None: value_bytes.
double storedBytesPerValue(arch::SparseFormat f, const Sparsity& s, int64_t fiber, int run_bits,
                           double value_bytes);
// The metadata part of it.
double metadataBytesPerValue(arch::SparseFormat f, const Sparsity& s, int64_t fiber, int run_bits);

// E[max of `pes` independent Binomial(w, d)]: the steps a lockstep group of PEs takes for a tile
// of w dense steps each, skipping zeros of density d. Exact (the CDF summed) for small w, the
// normal approximation with the expected maximum of `pes` standard normals beyond.
double expectedMaxBinomial(int64_t w, double d, int64_t pes);
// E[max] over PEs whose streams differ in density: PE j reads w values of density d[j], each
// PE `copies` times over (streams of the same density with different values). Exact pmfs up to
// w = 64, continuity-corrected normals beyond; all equal densities are expectedMaxBinomial.
double expectedMaxMixed(int64_t w, const std::vector<double>& d, int64_t copies);
// Skipping zeros of weights whose output channels differ in density (Sparsity::channels): the
// array's spatial output-channel dim holds `spatial_k` blocks of `per_pe_k` consecutive channels
// per tile, `copies` streams each (the other spatial dims the weights depend on); a tile takes
// the expected maximum over its PEs, and the tiles go through the channels in groups. Steps per
// dense step, averaged over the groups.
double channelSkipScale(const std::shared_ptr<const std::vector<double>>& channels, int64_t w,
                        int64_t per_pe_k, int64_t spatial_k, int64_t copies);


// What sparsity does to this problem on this design, derived once per evaluation.
struct SparseEffect {
  bool active = false;      // an operand is sparse
  double reduce_keep = 1;   // an accelerated N:M operand: steps along C over ceil(C * n / m)
  int keep_n = 1, keep_m = 1;
  int structured_operand = -1;  // the operand compressed (0 inputs, 1 weights), -1 none
  double skip_density = 1;  // MACs left when the array skips zeros (the product of densities)
  std::array<double, 2> skipped{1, 1};  // per operand: the density the array skips, 1 = none
  double mac_density = 1;   // MACs that spend energy (skipped and gated ones do not)
  // Stored bytes per dense byte, per nest level and operand (inputs, weights).
  std::vector<std::array<double, 2>> scale;
  std::vector<std::array<double, 2>> metadata;  // the metadata part, per dense byte
  std::array<double, 2> density{1, 1};  // the operands' (inputs, weights) non-zero fractions
};
SparseEffect sparseEffect(const Problem& p, const Hardware& hw);
// "" when every level's format can hold the data (nm_indices needs N:M data), else why not.
std::string checkFormats(const Problem& p, const Hardware& hw);
// Stored bytes per dense byte of operand t (0 inputs, 1 weights; 2 outputs: 1) at nest level l.
double storedScale(const Problem& p, const Hardware& hw, int level, int t);

// The dense counts of c (countTransfers) made sparse: reads, writes, fills and NoC bytes of
// compressed operands scaled to their stored bytes, operand reads feeding the MACs scaled by the
// MACs that happen; c.metadata_bytes set.
void applySparseTransfers(const SparseEffect& e, const Hardware& hw, Cost& c);
// After timing: the reads a level gates on the other operand's zeros (Level::gate_reads) cost
// no energy; their port slots were spent. (Skipped reads, Level::skip_reads, are taken out by
// applySparseTransfers, before timing.)
void applyGatedReads(const SparseEffect& e, const Hardware& hw, Cost& c);
// Steps per dense step when the array skips zeros: per skipped operand, every PE of the array
// takes its local tile's non-zeros and the array waits for the slowest before the next tile.
// A PE's tile reads w distinct values of the operand (each reused steps / w times), so its
// steps are (steps / w) x Binomial(w, d); PEs fed the same values (a multicast) count once:
// the expected maximum over the distinct streams, E[max Bin(w, d)] / w. An N:M operand skipped
// without datapath support keeps exactly N of every M: d.
double skipScale(const Problem& p, const Mapping& m, const Hardware& hw, const SparseEffect& e);

}  // namespace tessel::dataflows::nest
