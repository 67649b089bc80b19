// The clocked systolic grid: PE and controller rules without a simulator, then whole GEMMs on
// the grid (each in a forked child: one elaboration per process) compared bit for bit with a
// naive INT32 GEMM, and their cycle counts with dataflows/nest/tile_timing.h.
#include "sim/systemc/pe_grid/pe_grid.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dataflows/nest/tile_timing.h"
#include "sim/systemc/pe_grid/pe_core.h"
#include "sim/systemc/pe_grid/schedule.h"
#include "tests/systemc/in_child.h"

namespace {

using namespace tessel::sim::pe_grid;
namespace nest = tessel::dataflows::nest;
constexpr Dataflow kWs = Dataflow::WeightStationary;
constexpr Dataflow kOs = Dataflow::OutputStationary;

OperandReg op(int v, bool tag = false, int row = 0) { return {int8_t(v), true, tag, uint8_t(row)}; }

// ---- PE rules (plain C++) ----

TEST(PeGridCore, WsLatchesAddressedWeightAfterTheMultiplyOnTheSameEdge) {
  PeCore pe(kWs, 1);
  EXPECT_TRUE(pe.step({}, op(5, false, 2), {}).down.valid);  // row 2's weight passes on
  EXPECT_EQ(pe.weight(0), 0);
  PeOutputs o = pe.step(op(3), op(7, false, 1), {10, true});  // multiply with old w0 = 0
  EXPECT_EQ(o.sum.value, 10);
  EXPECT_FALSE(o.down.valid);  // kept here, not passed on
  EXPECT_EQ(pe.weight(0), 7);
  pe.step({}, op(-2, true, 1), {});  // shadow buffer
  EXPECT_EQ(pe.step(op(3), {}, {10, true}).sum.value, 10 + 21);
  o = pe.step(op(3, true), {}, {10, true});
  EXPECT_EQ(o.sum.value, 10 - 6);
  EXPECT_EQ(o.right.value, 3);
}

TEST(PeGridCore, OsAccumulatesThenShiftsTheResultDownTheDrainChain) {
  PeCore pe(kOs, 0);
  pe.step(op(2), op(3), {});
  PeOutputs o = pe.step(op(4, /*last*/ true), op(5), {});
  EXPECT_FALSE(o.sum.valid);  // the result enters the drain register on this edge
  EXPECT_EQ(pe.accumulator(), 0);
  o = pe.step({}, {}, {99, true});
  EXPECT_EQ(o.sum.value, 2 * 3 + 4 * 5);  // leaves one edge later
  o = pe.step({}, {}, {});
  EXPECT_EQ(o.sum.value, 99);  // then the value from above follows
}

// ---- controller rules (plain C++) ----

TEST(PeGridSchedule, WsPreloadsBottomRowFirstThenStreamsSkewedA) {
  const std::vector<int8_t> a = {1, 2, 3, 4};  // 2×2
  const std::vector<int8_t> b = {5, 6, 7, 8};  // 2×2
  const Schedule s({2, 2, kWs, true, 0}, {2, 2, 2}, a.data(), b.data());
  EXPECT_EQ(s.tiles(), 1);
  EXPECT_EQ(s.top(0, 0).row, 1);  // B[1][0]
  EXPECT_EQ(s.top(0, 0).value, 7);
  EXPECT_EQ(s.top(1, 0).value, 5);
  EXPECT_FALSE(s.top(0, 1).valid);  // column 1 skewed by one
  EXPECT_EQ(s.top(2, 1).value, 6);
  EXPECT_EQ(s.left(2, 0).value, 1);  // A[0][0] after the R-cycle preload
  EXPECT_FALSE(s.left(2, 1).valid);  // row 1 skewed by one
  EXPECT_EQ(s.left(3, 1).value, 2);  // A[0][1]
  EXPECT_EQ(s.left(4, 1).value, 4);  // A[1][1]
  EXPECT_FALSE(s.left(5, 1).valid);
}

TEST(PeGridSchedule, OsStreamsAandBSkewedAndFlagsTheLastK) {
  const std::vector<int8_t> a = {1, 2, 3, 4, 5, 6};  // 2×3
  const std::vector<int8_t> b = {1, 2, 3};           // 3×1
  const Schedule s({2, 2, kOs, true, 0}, {2, 3, 1}, a.data(), b.data());
  EXPECT_EQ(s.period(), 3);
  EXPECT_EQ(s.left(3, 1).value, 6);  // A[1][2] on edge 2 + row skew 1
  EXPECT_TRUE(s.left(3, 1).tag);
  EXPECT_EQ(s.top(2, 0).value, 3);
  EXPECT_EQ(s.top(2, 1).value, 0);  // column 1 is padding
}

// ---- timing formulas ----

TEST(PeGridTiming, DoubleBufferingHidesThePreloadBehindStreamsOfAtLeastRRows) {
  EXPECT_EQ(nest::wsTileCycles(4, 4, 7), 4 + 7 + 6 + 1);
  EXPECT_EQ(nest::wsSequenceCycles(4, 4, 7, 3, true), 2 * 7 + nest::wsTileCycles(4, 4, 7));
  EXPECT_EQ(nest::wsSequenceCycles(4, 4, 2, 3, true), 2 * 4 + nest::wsTileCycles(4, 4, 2));
  EXPECT_EQ(nest::wsSequenceCycles(4, 4, 7, 3, false), 2 * 10 + nest::wsTileCycles(4, 4, 7));
  EXPECT_EQ(nest::osSequenceCycles(4, 4, 2, 2), 4 + 2 + 6 + 4 + 1);
}

// ---- whole GEMMs on the grid, one forked child each ----

struct Case {
  GridConfig cfg;
  GemmShape shape;
  bool extremes = false;  // operands only -128 and 127
  unsigned seed = 1;
};

struct Outcome {
  bool complete = false;
  int64_t mismatches = -1, cycles = -1, period = -1;
  std::vector<int64_t> tiles;
};

std::vector<int8_t> randomInt8(size_t n, std::mt19937& rng, bool extremes) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = int8_t(extremes ? (rng() & 1 ? 127 : -128) : d(rng));
  return v;
}

// Runs the case in a child; the child compares with a naive GEMM and sends back the counts.
Outcome run(const Case& k) {
  const auto child = tessel::testing::inChild([&] {
    std::mt19937 rng(k.seed);
    const auto [m, kk, n] = k.shape;
    const auto a = randomInt8(size_t(m) * size_t(kk), rng, k.extremes);
    const auto b = randomInt8(size_t(kk) * size_t(n), rng, k.extremes);
    const GridResult r = runSystolicGemm(k.cfg, k.shape, a, b);
    int64_t bad = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        int32_t ref = 0;
        for (int x = 0; x < kk; ++x) ref += int32_t(a[size_t(i * kk + x)]) * b[size_t(x * n + j)];
        bad += r.c[size_t(i * n + j)] != ref;
      }
    }
    std::ostringstream os;
    os << r.complete << ' ' << bad << ' ' << r.cycles << ' ' << r.issue_period;
    for (int64_t t : r.tile_cycles) os << ' ' << t;
    return os.str();
  });
  EXPECT_TRUE(child.ok) << child.output;
  Outcome o;
  std::istringstream is(child.output);
  is >> o.complete >> o.mismatches >> o.cycles >> o.period;
  for (int64_t t; is >> t;) o.tiles.push_back(t);
  return o;
}

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

// The GEMM is exact and every count equals tile_timing.h.
void expectExactAndTimed(const Case& k) {
  const Outcome o = run(k);
  const auto [R, C] = std::pair{k.cfg.rows, k.cfg.cols};
  const auto [M, K, N] = k.shape;
  const bool ws = k.cfg.dataflow == kWs;
  const int tiles = ws ? ceilDiv(K, R) * ceilDiv(N, C) : ceilDiv(M, R) * ceilDiv(N, C);
  const int64_t tile = ws ? nest::wsTileCycles(R, C, M) : nest::osTileCycles(R, C, K);
  const int64_t total = ws ? nest::wsSequenceCycles(R, C, M, tiles, k.cfg.double_buffered)
                           : nest::osSequenceCycles(R, C, K, tiles);
  EXPECT_TRUE(o.complete);
  EXPECT_EQ(o.mismatches, 0);
  EXPECT_EQ(o.cycles, total);
  ASSERT_EQ(o.tiles.size(), size_t(tiles));
  for (int64_t t : o.tiles) EXPECT_EQ(t, tile);
}

TEST(PeGridWs, FourByFourWithShapesThatDoNotDivide) {
  expectExactAndTimed({{4, 4, kWs}, {7, 5, 6}});
}
TEST(PeGridWs, SixteenBySixteen) { expectExactAndTimed({{16, 16, kWs}, {33, 20, 17}, false, 2}); }
TEST(PeGridWs, OneByOne) { expectExactAndTimed({{1, 1, kWs}, {3, 4, 5}}); }
TEST(PeGridWs, NonSquareArrays) {
  expectExactAndTimed({{8, 4, kWs}, {9, 13, 10}, false, 3});
  expectExactAndTimed({{4, 8, kWs}, {9, 13, 10}, false, 4});
}
TEST(PeGridWs, ExtremeValues) { expectExactAndTimed({{4, 4, kWs}, {6, 9, 5}, true}); }
TEST(PeGridWs, StreamsShorterThanThePreloadExposeIt) {
  expectExactAndTimed({{8, 8, kWs}, {3, 20, 12}, false, 5});  // M < R: period R
}
TEST(PeGridWs, SingleBufferedWeightsSerializePreloadAndStream) {
  expectExactAndTimed({{4, 4, kWs, false}, {7, 9, 6}, false, 6});
  expectExactAndTimed({{8, 4, kWs, false}, {2, 17, 5}, false, 7});
}
TEST(PeGridWs, OneTileIsTheTileFormula) {
  const Outcome o = run({{16, 16, kWs}, {16, 16, 16}});
  EXPECT_EQ(o.mismatches, 0);
  EXPECT_EQ(o.cycles, nest::wsTileCycles(16, 16, 16));  // 16 + 16 + 30 + 1
}

TEST(PeGridOs, FourByFourWithShapesThatDoNotDivide) {
  expectExactAndTimed({{4, 4, kOs}, {7, 5, 6}});
}
TEST(PeGridOs, SixteenBySixteen) { expectExactAndTimed({{16, 16, kOs}, {33, 20, 17}, false, 2}); }
TEST(PeGridOs, OneByOne) { expectExactAndTimed({{1, 1, kOs}, {3, 4, 5}}); }
TEST(PeGridOs, NonSquareArrays) {
  expectExactAndTimed({{8, 4, kOs}, {9, 13, 10}, false, 3});
  expectExactAndTimed({{4, 8, kOs}, {9, 13, 10}, false, 4});
}
TEST(PeGridOs, ExtremeValues) { expectExactAndTimed({{4, 4, kOs}, {6, 9, 5}, true}); }
TEST(PeGridOs, ShortReductionsWaitForTheDrain) {
  expectExactAndTimed({{8, 8, kOs}, {20, 3, 12}, false, 5});  // K < R: period R
}
TEST(PeGridOs, OneTileIsTheTileFormula) {
  const Outcome o = run({{16, 16, kOs}, {16, 16, 16}});
  EXPECT_EQ(o.mismatches, 0);
  EXPECT_EQ(o.cycles, nest::osTileCycles(16, 16, 16));  // 16 + 30 + 16 + 1
}

// The issue periods are tight: one cycle less corrupts the result or loses outputs.
bool broken(const Outcome& o) { return !o.complete || o.mismatches != 0; }
TEST(PeGridTight, SingleBufferedWsOneCycleEarlierOverwritesLiveWeights) {
  Case k{{4, 4, kWs, false, -1}, {7, 9, 6}, false, 8};
  EXPECT_TRUE(broken(run(k)));
}
TEST(PeGridTight, DoubleBufferedWsOneCycleEarlierBreaks) {
  EXPECT_TRUE(broken(run({{8, 8, kWs, true, -1}, {3, 20, 12}})));  // preload-bound
  EXPECT_TRUE(broken(run({{4, 4, kWs, true, -1}, {7, 9, 6}})));    // stream-bound
}
TEST(PeGridTight, OsOneCycleEarlierCollidesInTheDrainChain) {
  EXPECT_TRUE(broken(run({{8, 8, kOs, true, -1}, {20, 3, 12}})));
}

TEST(PeGrid, SecondRunInOneProcessFailsClearly) {
  const auto child = tessel::testing::inChild([] {
    const std::vector<int8_t> a(4, 1), b(4, 1);
    runSystolicGemm({2, 2, kWs}, {2, 2, 2}, a, b);
    runSystolicGemm({2, 2, kWs}, {2, 2, 2}, a, b);
    return std::string("second run returned");
  });
  EXPECT_FALSE(child.ok);
  EXPECT_NE(child.output.find("once per process"), std::string::npos) << child.output;
}

TEST(PeGrid, RejectsMismatchedOperands) {
  const std::vector<int8_t> a(5), b(4);
  EXPECT_THROW(runSystolicGemm({2, 2, kWs}, {2, 2, 2}, a, b), std::invalid_argument);
}

}  // namespace
