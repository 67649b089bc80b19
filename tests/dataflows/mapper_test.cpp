// The Gemmini tiled_matmul_auto heuristic, checked against hand-run steps of the algorithm; the
// dataflow's bound the search's gap is measured against, by hand and against brute force.
#include "dataflows/mapper.h"
#include "dataflows/nest/bound.h"
#include "dataflows/nest/candidates.h"
#include "dataflows/nest/constraints.h"
#include "dataflows/nest/cost.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <utility>

#include "tests/dataflows/nest_fixtures.h"
#include "tests/sim/tiny_arch.h"
#include "util/error.h"

namespace tessel {
namespace {

using dataflows::MapConstraints;
using dataflows::Problem;

// Gemmini defaultConfig local memories: 16x16, 256 KiB scratchpad, 64 KiB accumulator.
arch::Accelerator gemminiLike() {
  auto a = testing::tinyArch(16);
  a.levels[1].capacity_bytes = 256 * 1024;
  a.levels[2].capacity_bytes = 64 * 1024;
  return a;
}

Problem gemm(int64_t m, int64_t k, int64_t n) {
  Problem p;
  p.m = m;
  p.k = k;
  p.n = n;
  return p;
}

TEST(DataflowsGemminiAuto, GptQkvOnDefaultConfig) {
  // Usable halves: scratchpad 128 KiB, accumulator 32 KiB = 32 blocks of 16x16 int32 (1 KiB).
  // gemmini.h, tiled_matmul_auto: start tile_I = tile_J = floor(sqrt(32)) = 5 blocks and
  // tile_K = db_max_tile_k = (16384 rows / 4 / 16 = 256 input blocks) / 5 = 51, clipped to
  // 768/16 = 48. The inputs then take (5 + 5) * 48 * 256 B = 120 KiB of the 128 KiB half.
  // Round 1: n -> 6 would need (5 + 6) * 48 * 256 B = 132 KiB (no), m -> 6 would need 36
  // accumulator blocks (no), k is whole. Tile 80 x 80 x 768.
  const auto a = gemminiLike();
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(512, 768, 2304), a, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.mapping.tile_m, 80);
  EXPECT_EQ(r.mapping.tile_n, 80);
  EXPECT_EQ(r.mapping.tile_k, 768);
  // The same tile as the loop nest the engines cost: 16x16 blocks, the 80 rows of m streamed
  // through the PEs, 5 x 48 blocks per tile, 7 x 29 tiles (the last m and n tiles partial).
  EXPECT_EQ(r.mapping.brief(),
            "ws rows k:16  cols n:16 | pe m80 | scratchpad+accumulator n5 k48 | dram m7 n29");
}

// BERT-base's attention projection at sequence 512 (m = 512, k = n = 768) on both SRAM splits
// of the survey's co-design step 1; the tiles, loop counts and re-loaded bytes Gemmini's
// software makes (gemmini.h: tiled_matmul_auto picks the tile, tiled_matmul_outer walks
// i0 -> j0 -> k0 and each gemmini_loop_ws call moves in its own A and B blocks).
TEST(DataflowsGemminiAuto, BertProjectionTilesOnBothSramSplits) {
  const Problem p = gemm(512, 768, 768);
  // 256 KiB / 64 KiB: tile_I = tile_J = floor(sqrt(1024 / 2 / 16)) = 5 blocks, tile_K =
  // (16384 / 4 / 16) / 5 = 51 -> 48 (all of k). J -> 6 would need (5 + 6) x 48 x 256 B = 132 KiB
  // of the 128 KiB half. Tile 80 x 80 x 768: I0 = ceil(512 / 80) = 7, J0 = ceil(768 / 80) = 10,
  // K0 = 1: 70 loop calls. A is moved in once per j0 (10 x 512 x 768 = 3,932,160 B), B once per
  // i0 (7 x 768 x 768 = 4,128,768 B): 8,060,928 B.
  auto base = gemminiLike();
  const auto a = dataflows::makeMapper("gemmini-auto")->map(p, base, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(a.ok) << a.reason;
  EXPECT_EQ(a.mapping.tile_m, 80);
  EXPECT_EQ(a.mapping.tile_n, 80);
  EXPECT_EQ(a.mapping.tile_k, 768);
  // 64 KiB / 256 KiB: tile_I = tile_J = floor(sqrt(4096 / 2 / 16)) = 11, tile_K = (4096 / 4 /
  // 16) / 11 = 5; J or I -> 12 needs 132 accumulator blocks of the 128, K -> 6 needs
  // (11 + 11) x 6 x 256 B = 33 KiB of the 32 KiB half. Tile 176 x 176 x 80: I0 = 3, J0 = 5,
  // K0 = 10: 150 loop calls, more than twice the baseline's, but A is moved in 5 times
  // (1,966,080 B) and B 3 times (1,769,472 B): 3,735,552 B, 46% of the baseline's.
  auto rebalanced = gemminiLike();
  rebalanced.levels[1].capacity_bytes = 64 * 1024;
  rebalanced.levels[2].capacity_bytes = 256 * 1024;
  const auto b =
      dataflows::makeMapper("gemmini-auto")->map(p, rebalanced, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(b.ok) << b.reason;
  EXPECT_EQ(b.mapping.tile_m, 176);
  EXPECT_EQ(b.mapping.tile_n, 176);
  EXPECT_EQ(b.mapping.tile_k, 80);
  // The DMA requests those tiles make, one per tile row in runs of at most 64 B (requestBytes):
  // baseline A rows are 768 B (12 requests of 64 B), B rows 80 B (64 + 16: 40 B on average);
  // rebalanced A rows 80 B (40 B), B rows 176 B (64 + 64 + 48: 58.67 B).
  namespace nest = dataflows::nest;
  const nest::Problem np = nest::gemmProblem(1, 512, 768, 768);
  const auto ra = nest::requestBytes(np, a.mapping.nest, *a.mapping.hw);
  EXPECT_DOUBLE_EQ(ra[0], 64);
  EXPECT_DOUBLE_EQ(ra[1], 40);
  const auto rb = nest::requestBytes(np, b.mapping.nest, *b.mapping.hw);
  EXPECT_DOUBLE_EQ(rb[0], 40);
  EXPECT_DOUBLE_EQ(rb[1], 176.0 / 3);
  // With 16 requests in flight and a 100-cycle round trip the window streams 40 B requests at
  // 16 x 40 / 100 = 6.4 B/cycle, 64 B requests at 10.24 (offchipRate).
  nest::Hardware hw = *a.mapping.hw;
  hw.levels[0].bandwidth.fill(16);
  hw.levels[0].latency = 100;
  hw.dma_inflight = 16;
  EXPECT_DOUBLE_EQ(nest::offchipRate(hw, 0, 40), 6.4);
  EXPECT_DOUBLE_EQ(nest::offchipRate(hw, 0, 64), 10.24);
  hw.levels[0].latency = 0;  // no round trip: the level's own bandwidth
  EXPECT_DOUBLE_EQ(nest::offchipRate(hw, 0, 40), 16);
}

TEST(DataflowsGemminiAuto, SmallProblemsClampToTheirSize) {
  // 20 x 20 x 20 is 2 blocks each way; the tile covers it all, clipped to 20.
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(20, 20, 20), gemminiLike(), dataflows::loadDataflow("os"), {});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.mapping.tile_m, 20);
  EXPECT_EQ(r.mapping.tile_n, 20);
  EXPECT_EQ(r.mapping.tile_k, 20);
}

TEST(DataflowsGemminiAuto, WholeRowsForRowWiseEpilogues) {
  // A softmax epilogue on a 512 x 512 score needs n = 512 = 32 blocks: 1 x 32 blocks of int32
  // = 32 KiB fits the usable accumulator exactly; m stays 1 block (Gemmini sets tile_I = 1).
  const auto a = gemminiLike();
  const auto mapper = dataflows::makeMapper("gemmini-auto");
  const auto r =
      mapper->map(gemm(512, 64, 512), a, dataflows::loadDataflow("ws"), MapConstraints{true});
  ASSERT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.mapping.tile_n, 512);
  EXPECT_EQ(r.mapping.tile_m, 16);
  // 1024 columns need 16 x 1024 x 4 B = 64 KiB: not the 32 KiB half, but the whole accumulator
  // single-buffered; 2048 columns (128 KiB) fit neither, and the reason names the row.
  const auto wide =
      mapper->map(gemm(512, 64, 1024), a, dataflows::loadDataflow("ws"), MapConstraints{true});
  ASSERT_TRUE(wide.ok) << wide.reason;
  EXPECT_FALSE(wide.mapping.double_buffered);
  EXPECT_EQ(wide.mapping.tile_n, 1024);
  const auto wider =
      mapper->map(gemm(512, 64, 2048), a, dataflows::loadDataflow("ws"), MapConstraints{true});
  EXPECT_FALSE(wider.ok);
  EXPECT_NE(wider.reason.find("2048"), std::string::npos);
}

TEST(DataflowsGemminiAuto, APartialBlockMapsWhenNoFullBlockFits) {
  // A 1 KiB accumulator: its 512 B half cannot hold a 16x16 int32 block (1 KiB), the whole of
  // it can: a single-buffered full block comes before a partial one.
  auto a = gemminiLike();
  a.levels[2].capacity_bytes = 1024;
  const auto mapper = dataflows::makeMapper("gemmini-auto");
  const auto one = mapper->map(gemm(64, 64, 64), a, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(one.ok) << one.reason;
  EXPECT_FALSE(one.mapping.double_buffered);
  EXPECT_EQ(one.mapping.tile_m * one.mapping.tile_n * 4, 1024);
  // 768 B: no full block either way. Partial, double-buffered in 384 B: halve the largest dim
  // (m first on ties) of 16x16x16: m = 8 -> 512 B, still > 384; n = 8 -> 256 B fits, and the
  // inputs + weights (8x16 + 16x8 B) fit the 128 KiB half. Tile 8 x 8 x 16.
  a.levels[2].capacity_bytes = 768;
  const auto part = mapper->map(gemm(64, 64, 64), a, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(part.ok) << part.reason;
  EXPECT_TRUE(part.mapping.double_buffered);
  EXPECT_EQ(part.mapping.tile_m, 8);
  EXPECT_EQ(part.mapping.tile_n, 8);
  EXPECT_EQ(part.mapping.tile_k, 16);
}

TEST(DataflowsGemminiAuto, TooSmallMemoriesAreInfeasible) {
  auto a = gemminiLike();
  a.levels[2].capacity_bytes = 2;  // not one int32 output, even single-buffered
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(64, 64, 64), a, dataflows::loadDataflow("ws"), {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.reason.find("not even a 1x1x1 tile fits"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("2 B for outputs"), std::string::npos) << r.reason;
}

TEST(DataflowsGemminiAuto, NonSquareArraysMapWithBlocksOfTheirShape) {
  // WS on 8 rows x 128 cols: blocks are k = 8, n = 128 (cols), m = 128 (the longer side).
  // gemm 64x64x64 clips to one m block (64), one n block (64) and k grows to 64: the whole
  // problem, 4 KiB + 4 KiB of int8 and 16 KiB of int32, well inside the halves.
  for (auto [rows, cols] : {std::pair{8, 128}, {128, 8}, {4, 256}, {2, 256}}) {
    auto a = gemminiLike();
    a.array.rows = rows;
    a.array.cols = cols;
    const auto r = dataflows::makeMapper("gemmini-auto")
                       ->map(gemm(64, 64, 64), a, dataflows::loadDataflow("ws"), {});
    ASSERT_TRUE(r.ok) << rows << "x" << cols << ": " << r.reason;
    EXPECT_EQ(r.mapping.tile_m, 64);
    EXPECT_EQ(r.mapping.tile_n, 64);
    EXPECT_EQ(r.mapping.tile_k, 64);
  }
}

TEST(DataflowsGemminiAuto, ASmallOutputMapsOnALargeArrayWithASmallAccumulator) {
  // 128x128 with 64 KiB: one whole 128x128 int32 block is 64 KiB, more than the 32 KiB half,
  // but this GEMM's whole output is 1 x 85 x 4 = 340 B: the clipped tile fits double-buffered.
  auto a = gemminiLike();
  a.array.rows = a.array.cols = 128;
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(1, 300, 85), a, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(r.ok) << r.reason;
  EXPECT_TRUE(r.mapping.double_buffered);
  EXPECT_EQ(r.mapping.tile_m, 1);
  EXPECT_EQ(r.mapping.tile_n, 85);
  EXPECT_EQ(r.mapping.tile_k, 300);
}

// The reference: Gemmini's growth one block at a time, as the heuristic states it.
std::array<int64_t, 3> naiveGrowth(const Problem& p, int64_t dim, int64_t sp_half,
                                   int64_t acc_half) {
  const int64_t mx[3] = {(p.m + dim - 1) / dim, (p.n + dim - 1) / dim, (p.k + dim - 1) / dim};
  auto fits = [&](const int64_t b[3]) {
    const int64_t m = std::min(p.m, b[0] * dim), n = std::min(p.n, b[1] * dim);
    const int64_t k = std::min(p.k, b[2] * dim);
    return m * k + k * n <= sp_half && m * n * 4 <= acc_half;
  };
  int64_t side = 1;
  while ((side + 1) * (side + 1) * dim * dim * 4 <= acc_half) ++side;
  // tile_K starts at db_max_tile_k: the input blocks in half the usable scratchpad, over side.
  int64_t b[3] = {std::min(side, mx[0]), std::min(side, mx[1]),
                  std::clamp<int64_t>(sp_half / 2 / (dim * dim) / side, 1, mx[2])};
  if (!fits(b)) b[2] = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (int d : {1, 0, 2}) {  // n, m, k
      if (b[d] >= mx[d]) continue;
      ++b[d];
      if (fits(b))
        grew = true;
      else
        --b[d];
    }
  }
  return {std::min(p.m, b[0] * dim), std::min(p.n, b[1] * dim), std::min(p.k, b[2] * dim)};
}

TEST(DataflowsGemminiAuto, RoundGrowthEqualsGrowingOneBlockAtATime) {
  uint64_t seed = 12345;
  auto next = [&](int64_t lo, int64_t hi) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(hi - lo + 1));
  };
  const auto mapper = dataflows::makeMapper("gemmini-auto");
  for (int i = 0; i < 300; ++i) {
    auto a = gemminiLike();
    a.levels[1].capacity_bytes = static_cast<uint64_t>(next(8, 512)) * 1024;
    a.levels[2].capacity_bytes = static_cast<uint64_t>(next(2, 256)) * 1024;
    const Problem p = gemm(next(1, 3000), next(1, 3000), next(1, 3000));
    const auto r = mapper->map(p, a, dataflows::loadDataflow("ws"), {});
    ASSERT_TRUE(r.ok) << r.reason;
    // A tile the loop nest's capacity check refused was halved (and says so): not the growth.
    if (!r.mapping.double_buffered || !r.reason.empty()) continue;
    const auto want = naiveGrowth(p, 16, static_cast<int64_t>(a.levels[1].capacity_bytes / 2),
                                  static_cast<int64_t>(a.levels[2].capacity_bytes / 2));
    EXPECT_EQ(r.mapping.tile_m, want[0]) << i;
    EXPECT_EQ(r.mapping.tile_n, want[1]) << i;
    EXPECT_EQ(r.mapping.tile_k, want[2]) << i;
  }
}

TEST(DataflowsGemminiAuto, HugeCapacitiesAndExtentsMapInClosedForm) {
  // 1x1 array, 1 TiB each: one-block-at-a-time growth would take 2^34 steps along m.
  auto a = testing::tinyArch(1);
  a.levels[1].capacity_bytes = uint64_t{1} << 40;
  a.levels[2].capacity_bytes = uint64_t{1} << 40;
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(int64_t{1} << 34, 1, 1), a, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(r.ok) << r.reason;
  // Outputs: 2^34 x 4 B = 64 GiB <= the 512 GiB half: the whole of m in one tile.
  EXPECT_EQ(r.mapping.tile_m, int64_t{1} << 34);
}

TEST(DataflowsRegistry, EveryMapperAndDataflowIsRegistered) {
  for (const auto& name : dataflows::mapperNames())
    EXPECT_EQ(dataflows::makeMapper(name)->name(), name);
  EXPECT_THROW(dataflows::makeMapper("nope"), ConfigError);
  for (const char* df : {"ws", "os", "is", "rs", "nlr"}) {
    EXPECT_EQ(dataflows::loadDataflow(df).name, df);
  }
}

TEST(DataflowsYaml, ParsesAndRejectsBadFiles) {
  const auto df = dataflows::parseDataflow(
      "name: x\nstationary: weights\nspatial: {rows: k, cols: n}\nstream: m\narrays: [systolic]\n",
      "x.yaml");
  EXPECT_EQ(df.row_dim, dataflows::Dim::K);
  try {
    dataflows::parseDataflow(
        "name: x\nstationary: weigths\nspatial: {rows: k, cols: n}\nstream: m\narrays: "
        "[systolic]\n",
        "bad.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:2:13"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean 'weights'"), std::string::npos) << e.what();
  }
  // The stationary operand must not depend on the streamed dim.
  EXPECT_THROW(dataflows::parseDataflow("name: x\nstationary: inputs\nspatial: {rows: k, cols: n}\n"
                                        "stream: m\narrays: [systolic]\n",
                                        "y.yaml"),
               ConfigError);
  EXPECT_THROW(dataflows::loadDataflow("wss"), ConfigError);
  // Row-stationary and no-local-reuse exist only as loop nests: no GEMM view, so gemmini-auto
  // cannot tile them, and their nest sections are what the search maps.
  for (const char* name : {"rs", "nlr"}) {
    const auto d = dataflows::loadDataflow(name);
    EXPECT_FALSE(d.gemm_view) << name;
    EXPECT_FALSE(d.nest.rows.empty()) << name;
  }
  EXPECT_TRUE(dataflows::loadDataflow("rs").nest.pe_keeps[1]);
  EXPECT_FALSE(dataflows::loadDataflow("nlr").nest.pe_keeps[1]);
}

}  // namespace
}  // namespace tessel

// ---- The dataflow's bound (dataflows/nest/bound.h): the fewest array steps any unrolling the
// dataflow's constraints allow, against which gap_to_bound is measured.

namespace tessel::bound {
namespace {

using dataflows::nest::Bound;
using dataflows::nest::Constraints;
using dataflows::nest::dataflowBound;
using dataflows::nest::Dim;
using dataflows::nest::Factors;
namespace nest = dataflows::nest;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// MobileNet-v2's 112x112x96 stride-2 depthwise layer in the nest's terms: 96 groups of one input
// and one output channel, a 56x56 output, a 3x3 window.
nest::Problem depthwise() {
  nest::Problem p;
  p.extent = {96, 1, 1, 1, 56, 56, 3, 3};  // G N K C P Q R S
  p.stride_h = p.stride_w = 2;
  p.input_h = p.input_w = 112;
  return p;
}

Constraints axes(std::vector<Dim> rows, std::vector<Dim> cols) {
  Constraints c;
  c.rows = std::move(rows);
  c.cols = std::move(cols);
  return c;
}

// The NVDLA-like array: 64 rows x 32 columns, one MAC per PE per cycle. Systolic: its
// operands flow through whole rows and columns, so no group (depthwise channel) can have a PE
// of its own (nest::axisDims); a spatial array's NoC can give it one.
nest::Hardware nvdlaLike(bool systolic = true) {
  return testing::tinyNest(64, 32, systolic, 1 << 20, systolic ? 0 : 64);
}

TEST(DataflowBound, DepthwiseOnACRowsKColumnsArrayUsesOnePe) {
  // C on rows, K on columns (the user's dataflow): a group has C = K = 1, and G may go on
  // neither axis of a systolic array, so every unrolling is 1 x 1: steps = all the MACs,
  // 96 x 56 x 56 x 9 = 2,709,504. On every PE the ideal is 2,709,504 / 2,048 = 1,323 cycles
  // (passed in as the ideal, memory aside): the shape costs 2,048x, one PE in 2,048 is usable.
  const nest::Problem p = depthwise();
  const Bound b = dataflowBound(p, nvdlaLike(), axes({Dim::C}, {Dim::K}), 1, 1323);
  EXPECT_EQ(b.steps, 2709504);
  EXPECT_EQ(b.cycles, 2709504);
  EXPECT_DOUBLE_EQ(b.shapeCost(), 2709504.0 / 1323);
  EXPECT_DOUBLE_EQ(b.share, 1.0 / 2048);
  EXPECT_EQ(b.spatial, "rows -  cols -");
  EXPECT_EQ(b.unused, "1 of 64 rows and 1 of 32 columns usable");
  EXPECT_EQ(b.unused_why, "rows take C=1, columns K=1; G=96 has no place on the array");
  // A mapping 3x slower than the bound is 2 above it (gap_to_bound), whatever the ideal.
  EXPECT_DOUBLE_EQ(b.gap(3 * 2709504.0), 2);
}

TEST(DataflowBound, DepthwiseUnderWeightStationaryTakesTheWindowOnTheRows) {
  // ws puts C, R and S on the rows: R x S = 9 of the 64 rows, still 1 of 32 columns. Steps =
  // 96 x 56 x 56 = 301,056 (each PE one tap of the window); share 9 / 2,048; on every PE the
  // compute ideal is 1,323, so the shape costs 301,056 / 1,323 = 227.6x.
  const Bound b =
      dataflowBound(depthwise(), nvdlaLike(), dataflows::loadDataflow("ws").nest, 1, 1323);
  EXPECT_EQ(b.steps, 301056);
  EXPECT_DOUBLE_EQ(b.share, 9.0 / 2048);
  EXPECT_EQ(b.spatial, "rows R:3 S:3  cols -");
  EXPECT_EQ(b.unused, "9 of 64 rows and 1 of 32 columns usable");
  // When memory binds harder (here 400,000 cycles of off-chip transfers) the shape costs nothing.
  const Bound slow =
      dataflowBound(depthwise(), nvdlaLike(), dataflows::loadDataflow("ws").nest, 1, 400000);
  EXPECT_EQ(slow.cycles, 400000);
  EXPECT_EQ(slow.shapeCost(), 1);
}

TEST(DataflowBound, DepthwiseOnASpatialArrayPutsTheGroupsOnBothAxes) {
  // A spatial array may also unroll G on either axis (nest::axisDims). ws then takes R x S x G
  // on the rows (at most 64: G <= 7) and G on the columns (<= 32); all 96 groups at once needs
  // g_rows x g_cols >= 96, so steps = 56 x 56 = 3,136 (P and Q may not be unrolled). The fewest
  // PEs for it: g_rows x g_cols = 96 exactly (7 x 14 = 98 is more), 9 x 96 = 864 PEs; of the
  // ties the search visits the largest g_rows first: 6 x 16. Share 2,709,504 / (3,136 x 2,048).
  const Bound b = dataflowBound(depthwise(), nvdlaLike(/*systolic=*/false),
                                dataflows::loadDataflow("ws").nest, 1, 1323);
  EXPECT_EQ(b.steps, 3136);
  EXPECT_EQ(b.rowsUsed() * b.colsUsed(), 864);
  EXPECT_EQ(b.spatial, "rows G:6 R:3 S:3  cols G:16");
  EXPECT_DOUBLE_EQ(b.share, 2709504.0 / (3136 * 2048));
  EXPECT_EQ(b.unused, "54 of 64 rows and 16 of 32 columns usable");
}

TEST(DataflowBound, AGemmThatFillsTheArrayCostsNothingForItsShape) {
  // m=128 n=256 k=64 under ws on 64 x 32: k = 64 fills the rows, n = 256 is 8 passes of 32
  // columns: steps = 128 x 1 x 8 = 1,024 = MACs / PEs (128 x 256 x 64 / 2,048). Ratio 1.
  const nest::Problem p = nest::gemmProblem(1, 128, 256, 64);
  const Bound b = dataflowBound(p, nvdlaLike(), dataflows::loadDataflow("ws").nest, 1, 1024);
  EXPECT_EQ(b.steps, 1024);
  EXPECT_EQ(b.shapeCost(), 1);
  EXPECT_EQ(b.share, 1);
  EXPECT_EQ(b.spatial, "rows k:64  cols n:32");
  EXPECT_EQ(b.unused, "");
}

TEST(DataflowBound, PartialFoldsTakeTheFewestPesForTheirPasses) {
  // k = 96 on 64 rows: two passes whatever the factor from 48 to 64; 48 is the fewest PEs for
  // them. m=10 n=32: steps = 10 x 2 x 1 = 20, share = 96 / (2 x 64) = 0.75.
  const nest::Problem p = nest::gemmProblem(1, 10, 32, 96);
  const Bound b = dataflowBound(p, nvdlaLike(), dataflows::loadDataflow("ws").nest, 1, 0);
  EXPECT_EQ(b.steps, 20);
  EXPECT_DOUBLE_EQ(b.share, 0.75);
  EXPECT_EQ(b.spatial, "rows k:48  cols n:32");
  EXPECT_EQ(b.unused, "48 of 64 rows usable");
}

// The fewest steps by plain nested loops: every factor 1..axis for each dim an axis may take,
// the product within the axis, steps = product over dims of ceil(extent / spatial).
double bruteForceSteps(const nest::Problem& p, const Constraints& c, int rows, int cols) {
  std::vector<std::pair<Dim, bool>> slots;  // (dim, on the columns)
  for (Dim d : c.rows) slots.emplace_back(d, false);
  for (Dim d : c.cols) slots.emplace_back(d, true);
  double best = INFINITY;
  Factors spatial = nest::kOnes;
  std::function<void(size_t, int64_t, int64_t)> walk = [&](size_t i, int64_t r, int64_t k) {
    if (i == slots.size()) {
      double steps = 1;
      for (Dim d : nest::kAllDims)
        steps *= static_cast<double>(ceilDiv(p.of(d), spatial[nest::at(d)]));
      best = std::min(best, steps);
      return;
    }
    const auto [d, on_cols] = slots[i];
    for (int64_t f = 1; (on_cols ? k : r) * f <= (on_cols ? cols : rows); ++f) {
      spatial[nest::at(d)] *= f;
      walk(i + 1, on_cols ? r : r * f, on_cols ? k * f : k);
      spatial[nest::at(d)] /= f;
    }
  };
  walk(0, 1, 1);
  return best;
}

TEST(DataflowBound, EqualsBruteForceAndAMappingReachesIt) {
  // Random small convolutions on 4 x 6 arrays, spatial and systolic, under every shipped
  // dataflow's constraints and a made-up one that lets K on both axes: the bound's steps equal
  // the brute force's over the dims each axis may take; the mapping with its unrolling (no PE
  // loops, DRAM loops covering the rest) breaks no constraint (violation() is the definition of
  // what a dataflow allows) and costs exactly those steps in the cost model: no bound is out of
  // reach, and no allowed unrolling beats it.
  std::mt19937 rng(19);
  std::uniform_int_distribution<int64_t> ext(1, 9);
  std::vector<Constraints> all;
  for (const char* df : {"ws", "os", "is", "rs", "nlr"})
    all.push_back(dataflows::loadDataflow(df).nest);
  all.push_back(axes({Dim::C, Dim::K}, {Dim::K, Dim::Q}));
  for (bool systolic : {false, true}) {
    const auto hw = testing::tinyNest(4, 6, systolic, 1 << 30, systolic ? 0 : 1 << 20);
    for (int trial = 0; trial < 40; ++trial) {
      nest::Problem p;
      for (Dim d : nest::kAllDims) p.extent[nest::at(d)] = ext(rng);
      for (const Constraints& c : all) {
        const Bound b = dataflowBound(p, hw, c, 1, 0);
        ASSERT_EQ(b.steps,
                  bruteForceSteps(p, axes(nest::axisDims(c.rows, hw), nest::axisDims(c.cols, hw)),
                                  hw.rows, hw.cols))
            << p.describe();
        nest::Mapping m = nest::skeleton(p, hw, c, b.rows, b.cols, false);
        for (Dim d : nest::kAllDims) {
          const size_t i = nest::at(d);
          m.levels[0].factor[i] = ceilDiv(p.of(d), b.rows[i] * b.cols[i]);
          if (m.levels[0].factor[i] > 1) m.levels[0].order.push_back(d);
        }
        ASSERT_EQ(nest::checkShape(m, p, hw), "") << p.describe();
        // Keeps and loop orders aside (the skeleton's, not the dataflow's business here).
        const std::string broken = nest::violation(m, c, hw, p);
        EXPECT_EQ(broken.find("unrolls"), std::string::npos) << broken << " " << p.describe();
        EXPECT_EQ(nest::evaluate(p, m, hw, {}).steps, b.steps) << p.describe();
      }
    }
  }
}

}  // namespace
}  // namespace tessel::bound
