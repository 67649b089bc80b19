// The Gemmini tiled_matmul_auto heuristic, checked against hand-run steps of the algorithm.
#include "dataflows/mapper.h"
#include "dataflows/nest/cost.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <utility>

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
