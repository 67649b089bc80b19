// What a design does with zeros (the `sparsity:` section of an accelerator YAML): the N:M
// patterns its datapath accelerates, which operands its MACs skip (saving cycles and energy) or
// gate (saving energy only), how each storage level keeps inputs and weights (uncompressed, or a
// compressed format with its metadata) and what decoding a compressed value costs. The default
// is a dense design: nothing skipped, nothing compressed. Sparseloop's split (Wu et al., MICRO
// 2022): formats per level, skipping vs gating as separate mechanisms.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/sparsity.h"

namespace tessel::arch {

// How a level stores a sparse operand. Metadata per format (docs/sparsity.md):
//   none         every value, zeros included; no metadata
//   bitmask      the non-zeros + one bit per value
//   coordinates  the non-zeros + a coordinate of ceil(log2 L) bits each (L: the fiber's length)
//   csr          coordinates + a pointer of ceil(log2(L + 1)) bits per fiber
//   run_length   the non-zeros, each with the run of zeros before it in `run_bits` bits (a longer
//                run stores an explicit zero every 2^run_bits - 1 zeros)
//   nm_indices   N:M data only: the N kept values of each group + ceil(log2 M) bits each
enum class SparseFormat : uint8_t { None, Bitmask, Coordinates, Csr, RunLength, NmIndices };
std::string_view nameOf(SparseFormat f);
const std::vector<std::string>& sparseFormatNames();
SparseFormat sparseFormatFrom(std::string_view name);  // None for an unknown name

struct SparseSupport {
  // N:M patterns the datapath runs compressed on `structured_operand` (0 inputs, 1 weights): the
  // array computes only the N kept values of each group, muxing the other operand to match
  // (NVIDIA's sparse tensor cores, VEGETA), so the reduction takes N/M of its steps.
  struct Pattern {
    int n = 0, m = 0;
  };
  std::vector<Pattern> structured;
  int structured_operand = 1;
  // Per operand (0 inputs, 1 weights): the array skips MACs whose operand is zero (no cycle, no
  // energy; the PEs of a lockstep group wait for the one with most non-zeros), or gates them
  // (the cycle is spent, the MAC's and its operand reads' energy saved).
  std::array<bool, 2> skip{}, gate{};
  int run_bits = 4;  // run_length: bits per run (assumed; Eyeriss's RLC uses 5)
  // Energy per non-zero value decoded or intersected at the array (pJ): the metadata walk.
  double decode_pj = 0;
  // formats[level][operand]: how Accelerator::levels[level] keeps inputs (0) and weights (1).
  std::vector<std::array<SparseFormat, 2>> formats;
  // How the PEs' register files keep inputs and weights (Eyeriss v2 keeps both in CSC): a
  // compressed tile holds more values per byte; every non-zero read from it is decoded.
  std::array<SparseFormat, 2> pe_formats{SparseFormat::None, SparseFormat::None};
  // Storage-level gating and skipping (Sparseloop's leader-follower): skip_reads[level][t] = the
  // operand (0 inputs, 1 weights) whose zeros make Accelerator::levels[level] not read operand t
  // for them (no port slot, no energy); gate_reads the same with the slot still taken (energy
  // saved only); -1 reads every value. Empty or shorter than the levels: -1.
  std::vector<std::array<int8_t, 2>> skip_reads, gate_reads;

  // The pattern of `structured` that runs data `s` of `operand`: one whose groups hold the
  // data's (N:M data fits n:m when M divides m and N x m / M <= n: 1:4 data runs as 2:4), the
  // one keeping fewest; nullptr when none does (or `s` is not N:M).
  const Pattern* acceleratedAs(const Sparsity& s, int operand) const;
  bool accelerates(const Sparsity& s, int operand) const { return acceleratedAs(s, operand); }
  SparseFormat formatAt(size_t level, int operand) const;
  int skipReadsAt(size_t level, int operand) const;  // the leader operand, or -1
  int gateReadsAt(size_t level, int operand) const;
  bool dense() const;  // nothing skipped, gated, compressed or accelerated
};

}  // namespace tessel::arch
