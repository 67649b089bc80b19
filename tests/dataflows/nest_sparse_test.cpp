// Sparse operands in the loop-nest cost model (dataflows/nest/sparse.h), against counts derived
// by hand and a Monte Carlo over random masks: formats' bytes, N:M on a datapath that runs it,
// gating, skipping with the imbalance of the slowest PE, and density 1 leaving every count alone.
#include "dataflows/nest/sparse.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using arch::SparseFormat;
using dataflows::nest::CostOptions;
using dataflows::nest::evaluate;
using dataflows::nest::expectedMaxBinomial;
using dataflows::nest::expectedMaxMixed;
using dataflows::nest::gemmProblem;
using dataflows::nest::metadataBytesPerValue;
using dataflows::nest::Problem;
using dataflows::nest::storedBytesPerValue;
using namespace testing;

constexpr size_t kI = 0, kW = 1;

// Bytes per dense int8 value (1 B) for each format:
//   bitmask, d = 0.5:          0.5 values + 1/8 B of mask                      = 0.625
//   coordinates, d = 0.25, L = 64: 0.25 values + 0.25 x 6 bits / 8            = 0.4375
//   csr, as coordinates + a 7-bit pointer (ceil log2 65) per 64 values        = 0.4375 + 7 / 512
//   nm_indices 2:4: 0.5 values + 0.5 x 2 bits / 8                             = 0.625
//   run_length, 4-bit runs, d = 0.5: entries = d / (1 - (1 - d)^16) per value, each 1 B + 4 bits
TEST(NestSparse, FormatsBytesByHand) {
  const Sparsity half = Sparsity::uniform(0.5), quarter = Sparsity::uniform(0.25);
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::None, half, 64, 4, 1), 1);
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::Bitmask, half, 64, 4, 1), 0.625);
  EXPECT_DOUBLE_EQ(metadataBytesPerValue(SparseFormat::Bitmask, half, 64, 4), 0.125);
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::Coordinates, quarter, 64, 4, 1), 0.4375);
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::Csr, quarter, 64, 4, 1), 0.4375 + 7.0 / 512);
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::NmIndices, Sparsity::nm(2, 4), 64, 4, 1),
                   0.625);
  const double entries = 0.5 / (1 - std::pow(0.5, 16));
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::RunLength, half, 64, 4, 1), entries * 1.5);
  // bf16 values (2 B): the bitmask is still one bit per value.
  EXPECT_DOUBLE_EQ(storedBytesPerValue(SparseFormat::Bitmask, half, 64, 4, 2), 1.125);
}

// A run-length stream's padding, by simulation: zero runs geometric, an explicit zero stored
// every 2^r positions of a long run; the entries per value agree with the closed form.
TEST(NestSparse, RunLengthPaddingMatchesASimulatedStream) {
  std::mt19937_64 rng(7);
  for (double d : {0.05, 0.2, 0.5}) {
    std::bernoulli_distribution nz(d);
    const int r = 3;
    int64_t entries = 0, run = 0;
    const int64_t n = 2'000'000;
    for (int64_t i = 0; i < n; ++i) {
      if (nz(rng)) {
        ++entries;
        run = 0;
      } else if (++run == (1 << r)) {  // 2^r - 1 zeros in the run field, this zero stored
        ++entries;
        run = 0;
      }
    }
    const double per_value = static_cast<double>(entries) / static_cast<double>(n);
    const double model = storedBytesPerValue(SparseFormat::RunLength, Sparsity::uniform(d), 64, r, 1) /
                         (1 + r / 8.0);
    EXPECT_NEAR(per_value, model, 0.01 * model) << "density " << d;
  }
}

// E[max of P binomials] against sampling, exact (small w) and normal (large w) branches.
TEST(NestSparse, ExpectedMaxBinomialMatchesMonteCarlo) {
  std::mt19937_64 rng(11);
  for (int64_t w : {8, 64, 500, 10000}) {
    for (double d : {0.3, 0.5, 0.8}) {
      for (int64_t pes : {4, 64, 256}) {
        std::binomial_distribution<int64_t> bin(w, d);
        double sum = 0;
        const int trials = 4000;
        for (int t = 0; t < trials; ++t) {
          int64_t mx = 0;
          for (int64_t i = 0; i < pes; ++i) mx = std::max(mx, bin(rng));
          sum += static_cast<double>(mx);
        }
        EXPECT_NEAR(expectedMaxBinomial(w, d, pes), sum / trials, 0.01 * sum / trials)
            << "w " << w << " d " << d << " pes " << pes;
      }
    }
  }
  EXPECT_DOUBLE_EQ(expectedMaxBinomial(100, 0.3, 1), 30);
  // A vanishing density: 1 - (1 - t)^pes underflows in plain arithmetic; the maximum stays at
  // or above the mean (16 x 1e-300) and is finite.
  const double tiny = expectedMaxBinomial(16, 1e-300, 64);
  EXPECT_GE(tiny, 16 * 1e-300);
  EXPECT_LT(tiny, 1e-290);
  EXPECT_DOUBLE_EQ(expectedMaxBinomial(100, 1.0, 64), 100);
}

// The 4x4x4 GEMM of nest_cost_test on a 2x2 weight-stationary systolic array (rows C:2, cols
// K:2, buffer K:2 C:2, pe P:4), int8.
struct Fixture {
  Hardware hw = tinyNest(2, 2, true);
  Problem p = gemmProblem(1, 4, 4, 4, DType::Int8, DType::Int8, DType::Int8);
  Mapping m;
  Fixture() {
    m = nestMapping(hw, kOnes, {}, dims({{Dim::K, 2}, {Dim::C, 2}}), {Dim::K, Dim::C},
                    dims({{Dim::P, 4}}), {Dim::P}, dims({{Dim::C, 2}}), dims({{Dim::K, 2}}));
    m.levels[2].keeps = {false, true, false};
  }
  dataflows::nest::Cost run() const {
    CostOptions o;
    o.ideal_memory = true;
    return evaluate(p, m, hw, o);
  }
};

// Density 1 on a design with every mechanism on: the dense counts, exactly.
TEST(NestSparse, DenseOperandsCostAsBefore) {
  Fixture dense;
  const auto a = dense.run();
  Fixture f;
  f.hw.sparse.skip = {true, true};
  f.hw.sparse.structured = {{2, 4}};
  f.hw.levels[0].format = {SparseFormat::Bitmask, SparseFormat::NmIndices};
  f.hw.levels[1].format = {SparseFormat::Bitmask, SparseFormat::Bitmask};
  const auto b = f.run();
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.energy, b.energy);
  EXPECT_EQ(a.reads, b.reads);
  EXPECT_EQ(a.writes, b.writes);
  EXPECT_EQ(b.metadata_bytes, 0);
  EXPECT_EQ(b.effective_macs, 64);
}

// 2:4 weights on a datapath that runs 2:4: the reduction (C = 4) keeps ceil(4 x 2 / 4) = 2
// elements, which the rows' C:2 take in one pass instead of two, so the 16 dense steps become
// 8 (64 MACs -> 32 on 4 PEs); the array time is 8 + 2 + 2 + 1 = 13 (nest_cost_test: 16 + 5),
// the PEs holding 2 weight tiles in turn instead of 4.
// DRAM keeps the weights as nm_indices: 16 dense bytes -> 8 values + 8 x 2 bits = 10 B read, of
// which 2 B metadata; the buffer keeps them dense (16 B). MAC energy 32 x 1 pJ, plus a decode
// per non-zero the array reads from a compressed level: none (the buffer is uncompressed).
TEST(NestSparse, TwoFourOnASupportingDatapathHalvesTheSteps) {
  Fixture f;
  f.p.sparsity[kW] = Sparsity::nm(2, 4);
  f.hw.sparse.structured = {{2, 4}};
  f.hw.levels[0].format[kW] = SparseFormat::NmIndices;
  const auto c = f.run();
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.steps, 8);
  EXPECT_EQ(c.array, 13);
  EXPECT_EQ(c.reads[0][kW], 10);
  EXPECT_EQ(c.metadata_bytes, 2);
  EXPECT_EQ(c.writes[1][kW], 16);
  // One reduction pass instead of two: the buffer takes 16 updates of 4 B (dense 32) and reads
  // back none before the final drain of 16 sums (64 B; dense 64 + 64).
  EXPECT_EQ(c.writes[1][2], 64);
  EXPECT_EQ(c.reads[1][2], 64);
  EXPECT_EQ(c.effective_macs, 32);
  EXPECT_DOUBLE_EQ(c.mac_energy, 32);
  // The same data on a datapath without 2:4 support: every step taken, only the bytes shrink.
  Fixture g = f;
  g.hw.sparse.structured.clear();
  const auto d = g.run();
  EXPECT_EQ(d.steps, 16);
  EXPECT_EQ(d.reads[0][kW], 10);
  EXPECT_EQ(d.effective_macs, 64);
}

// Gating half the weights: every step still taken (cycles unchanged), the MACs' energy and the
// PE's weight reads (64 B at 1 pJ) halved: 32 + 32 pJ saved.
TEST(NestSparse, GatingChangesEnergyOnly) {
  Fixture dense;
  const auto a = dense.run();
  Fixture f;
  f.p.sparsity[kW] = Sparsity::uniform(0.5);
  f.hw.sparse.gate = {false, true};
  const auto c = f.run();
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.cycles, a.cycles);
  EXPECT_EQ(c.steps, a.steps);
  EXPECT_DOUBLE_EQ(c.mac_energy, 32);
  EXPECT_DOUBLE_EQ(c.reads[2][kW], 32);
  EXPECT_DOUBLE_EQ(a.energy - c.energy, 32 + 32);
  EXPECT_EQ(c.gated_macs, 32);
}

// The skipping array of the next two tests: 2 x 4 PEs keeping nothing (operands come each MAC), rows C:2, cols
// K:4; DRAM runs two P tiles, each PE 8 rows x 32 weights of its channel.
Mapping skippingArray(const Hardware& hw) {
  Mapping m = nestMapping(hw, dims({{Dim::P, 2}}), {Dim::P}, kOnes, {},
                          dims({{Dim::P, 8}, {Dim::C, 32}}), {Dim::P, Dim::C},
                          dims({{Dim::C, 2}}), dims({{Dim::K, 4}}));
  m.levels[2].keeps = {false, false, false};
  return m;
}

// In a tile of skippingArray, the non-zeros of the busiest PE: PE (r, k) reads weights[k][r *
// 32 .. r * 32 + 31] (rows split the reduction, columns the channels).
int busiestPe(const int (&weights)[4][64]) {
  int slowest = 0;
  for (int r = 0; r < 2; ++r) {
    for (int k = 0; k < 4; ++k) {
      int n = 0;
      for (int ci = 0; ci < 32; ++ci) n += weights[k][r * 32 + ci];
      slowest = std::max(slowest, n);
    }
  }
  return slowest;
}

// Skipping zero weights on a spatial array, against a Monte Carlo over random weight masks that
// walks the mapping: GEMM m = 16, n = 4, k = 64 on 2 x 4 PEs, rows C:2, cols K:4, two local
// tiles along P (DRAM P:2), each PE running P:8 x C:32 of one output channel per tile. A PE's
// tile reads its 32 weights 8 times each, so its steps are 8 x (non-zeros among them); the
// array starts the next tile when its slowest PE is done: a tile takes 8 x the maximum over the
// 8 PEs, who read distinct weights.
TEST(NestSparse, SkippingWaitsForTheBusiestPe) {
  const Hardware base = tinyNest(2, 4, false);  // PEs keep nothing: operands come each MAC
  for (double d : {0.2, 0.5, 0.7}) {
    Hardware hw = base;
    hw.sparse.skip = {false, true};
    Problem p = gemmProblem(1, 16, 4, 64, DType::Int8, DType::Int8, DType::Int8);
    p.sparsity[kW] = Sparsity::uniform(d);
    const Mapping m = skippingArray(hw);
    CostOptions o;
    o.ideal_memory = true;
    const auto c = evaluate(p, m, hw, o);
    ASSERT_TRUE(c.ok) << c.reason;
    std::mt19937_64 rng(3);
    std::bernoulli_distribution nz(d);
    double sum = 0;
    const int trials = 20000;
    for (int t = 0; t < trials; ++t) {
      int weights[4][64];
      for (auto& row : weights) {
        for (int& x : row) x = nz(rng) ? 1 : 0;
      }
      double steps = 0;
      for (int tile = 0; tile < 2; ++tile) {  // the same weights in both P tiles
        steps += 8.0 * busiestPe(weights);
      }
      sum += steps;
    }
    const double monte_carlo = sum / trials;
    EXPECT_NEAR(c.steps, monte_carlo, 0.02 * monte_carlo) << "density " << d;
    EXPECT_GT(c.steps, 2 * 8 * 32 * d);  // more than the mean: the imbalance counts
    EXPECT_DOUBLE_EQ(c.effective_macs, 16.0 * 4 * 64 * d);
  }
}

// PEs of different densities (weights whose channels differ): the expected maximum against a
// Monte Carlo of their binomials, exact below w = 64 and by normals above; all alike, it is
// expectedMaxBinomial.
TEST(NestSparse, ExpectedMaxMixedMatchesMonteCarlo) {
  std::mt19937_64 rng(5);
  const std::vector<double> d{0.2, 0.35, 0.5, 0.8};
  for (int64_t w : {16, 48, 500, 5000}) {
    for (int64_t copies : {1, 8}) {
      std::vector<std::binomial_distribution<int64_t>> bins;
      for (double x : d) bins.emplace_back(w, x);
      double sum = 0;
      const int trials = 4000;
      for (int t = 0; t < trials; ++t) {
        int64_t mx = 0;
        for (auto& bin : bins) {
          for (int64_t c = 0; c < copies; ++c) mx = std::max(mx, bin(rng));
        }
        sum += static_cast<double>(mx);
      }
      EXPECT_NEAR(expectedMaxMixed(w, d, copies), sum / trials, 0.01 * sum / trials)
          << "w " << w << " copies " << copies;
    }
  }
  EXPECT_DOUBLE_EQ(expectedMaxMixed(100, {0.3, 0.3}, 4), expectedMaxBinomial(100, 0.3, 8));
}

// The array of SkippingWaitsForTheBusiestPe (rows C:2, cols K:4, each PE 32 weights of its own
// channel in each of two P tiles) with the four channels at densities 0.2, 0.4, 0.6 and 0.8
// (mean 0.5, as a file's measured zeros give them): every tile waits for the PE of the densest
// channel, so it takes longer than four channels at 0.5 each; a Monte Carlo of the masks agrees
// within 2 %.
TEST(NestSparse, ChannelDensitiesSkipLikeTheirMasks) {
  Hardware hw = tinyNest(2, 4, false);
  hw.sparse.skip = {false, true};
  const std::vector<double> channels{0.2, 0.4, 0.6, 0.8};
  Problem p = gemmProblem(1, 16, 4, 64, DType::Int8, DType::Int8, DType::Int8);
  const Mapping m = skippingArray(hw);
  CostOptions o;
  o.ideal_memory = true;
  p.sparsity[kW] = Sparsity::uniform(0.5);
  const auto uniform = evaluate(p, m, hw, o);
  p.sparsity[kW].channels = std::make_shared<const std::vector<double>>(channels);
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok && uniform.ok) << c.reason;
  std::mt19937_64 rng(9);
  double sum = 0;
  const int trials = 20000;
  for (int t = 0; t < trials; ++t) {
    int weights[4][64];
    for (int k = 0; k < 4; ++k) {
      std::bernoulli_distribution nz(channels[size_t(k)]);
      for (int& x : weights[k]) x = nz(rng) ? 1 : 0;
    }
    sum += 2 * 8.0 * busiestPe(weights);  // the same weights in both P tiles of 8 rows
  }
  const double monte_carlo = sum / trials;
  EXPECT_NEAR(c.steps, monte_carlo, 0.02 * monte_carlo);
  EXPECT_GT(c.steps, uniform.steps * 1.2);  // the 0.8 channel binds: ~26 of 32 against ~19
  EXPECT_DOUBLE_EQ(c.effective_macs, uniform.effective_macs);  // the same MACs, the mean density
}

// A storage level that does not read weights where the input is zero (Sparseloop's
// leader-follower): inputs half zero. Skipped, the buffer's weight reads halve before timing
// (their port slots and energy both gone); gated, they halve after it (the same cycles as not
// gating at all, the energy of half the reads at 6 pJ/B saved).
TEST(NestSparse, StorageLevelsSkipOrGateReadsOnTheOtherOperandsZeros) {
  Fixture f;
  f.p.sparsity[kI] = Sparsity::uniform(0.5);
  const auto plain = f.run();
  f.hw.levels[1].skip_reads = {-1, 0};
  const auto skipped = f.run();
  f.hw.levels[1].skip_reads = {-1, -1};
  f.hw.levels[1].gate_reads = {-1, 0};
  const auto gated = f.run();
  ASSERT_TRUE(plain.ok && skipped.ok && gated.ok);
  ASSERT_GT(plain.reads[1][kW], 0);
  EXPECT_EQ(skipped.reads[1][kW], std::round(plain.reads[1][kW] * 0.5));
  EXPECT_EQ(gated.reads[1][kW], std::round(plain.reads[1][kW] * 0.5));
  EXPECT_EQ(skipped.reads[1][kI], plain.reads[1][kI]);  // the leader is read in full
  EXPECT_EQ(gated.cycles, plain.cycles);
  EXPECT_LE(skipped.cycles, plain.cycles);
  EXPECT_DOUBLE_EQ(plain.energy - gated.energy, (plain.reads[1][kW] - gated.reads[1][kW]) * 6);
}

// nm_indices hold N:M data only: an unstructured operand kept that way has no mapping.
TEST(NestSparse, NmIndicesRejectUnstructuredData) {
  Fixture f;
  f.p.sparsity[kW] = Sparsity::uniform(0.5);
  f.hw.levels[0].format[kW] = SparseFormat::NmIndices;
  const auto c = f.run();
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.reason.find("nm_indices"), std::string::npos) << c.reason;
}

// A compressed level holds more of a sparse operand: capacity counts stored bytes. The buffer
// keeps the whole problem, double-buffered: 2 x (16 B of inputs + 16 B of weights + 16 int32
// sums) = 192 B dense; with the weights at 2:4 in nm_indices (10 B) 180 B.
TEST(NestSparse, CapacityCountsCompressedFootprints) {
  Fixture f;
  f.hw.levels[1].pool_bytes = {2 * (16 + 16 + 64) - 1, -1, -1};  // a byte short of dense
  const auto dense = f.run();
  EXPECT_FALSE(dense.ok);
  f.p.sparsity[kW] = Sparsity::nm(2, 4);
  f.hw.levels[1].format[kW] = SparseFormat::NmIndices;
  const auto c = f.run();
  EXPECT_TRUE(c.ok) << c.reason;
}

// A PE register file that keeps weights compressed (Eyeriss v2's CSC; here a bitmask): 12 INT8
// weights of density 0.5 take 6 B of values + 12 bits of mask = 7.5 B, which an 8-byte weight
// file holds where the 12 dense bytes do not. Every weight a MAC reads from it is decoded: of the
// 24 MACs (2 rows x 12 weights) the 12 with a non-zero weight read one (the zero ones gated).
TEST(NestSparse, ACompressedRegisterFileHoldsMore) {
  Hardware hw = tinyNest(1, 1, false, 1 << 20, 8);
  hw.sparse.decode_pj = 1;
  hw.sparse.gate = {false, true};
  Problem p = gemmProblem(1, 2, 1, 12, DType::Int8, DType::Int8, DType::Int8);
  p.sparsity[kW] = Sparsity::uniform(0.5);
  Mapping m = nestMapping(hw, kOnes, {}, kOnes, {}, dims({{Dim::P, 2}, {Dim::C, 12}}),
                          {Dim::C, Dim::P}, kOnes, kOnes);
  m.levels[2].keeps = {false, true, false};
  CostOptions o;
  o.ideal_memory = true;
  EXPECT_FALSE(evaluate(p, m, hw, o).ok);  // 12 B of weights in 8
  hw.levels[2].format[kW] = SparseFormat::Bitmask;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_DOUBLE_EQ(c.writes[2][kW], 8);  // 7.5 B, a whole byte moved
  EXPECT_DOUBLE_EQ(c.decoded, 12);       // 24 MACs, half gated: 12 reads decoded
}

}  // namespace
}  // namespace tessel
