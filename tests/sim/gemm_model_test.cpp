// Hand-derived cycle and byte counts for small GEMMs on the analytical engine.
#include "sim/analytical/gemm_model.h"

#include <gtest/gtest.h>

#include "dataflows/mapper.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "sim/engine.h"
#include "tests/sim/tiny_arch.h"

namespace tessel {
namespace {

using dataflows::loadDataflow;
using sim::analytical::evaluateGemm;
using sim::analytical::MemoryModel;
using sim::analytical::tileArrayCycles;

TEST(SimTileCycles, WeightStationary4x4) {
  // WS on 4x4, tile m=8 x n=4 x k=4: one weight block. Preload 4 cycles (weights shift down
  // the rows), 8 input rows stream one per cycle, and the last row's result leaves column 3
  // after the skew of (4-1) rows + (4-1) columns = 6: 4 + 8 + 6 = 18. Cycle by cycle: row i
  // reaches PE row r at 4+i+r, its sum for column c leaves at 4+i+3+c+1; i=7, c=3 -> 18.
  const auto a = testing::tinyArch();
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("ws"), 8, 4, 4, 1.0), 18.0);
}

TEST(SimTileCycles, OutputStationary4x4) {
  // OS on 4x4, tile m=8 x n=4 x k=4: rows = m -> 2 blocks of 4x4 outputs, each streaming k=4.
  // Shift-out of a block (4 cycles) hides behind the next block's 4-cycle stream (double
  // buffered, max(0, 4-4) = 0) except the last: 4 + 2*4 + 0 + 6 = 18.
  const auto a = testing::tinyArch();
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("os"), 8, 4, 4, 1.0), 18.0);
  // k=2: each block streams 2 cycles, so 4-2 = 2 swap cycles per block stay exposed:
  // 4 + 2*2 + 1*2 + 6 = 16.
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("os"), 8, 4, 2, 1.0), 16.0);
}

TEST(SimTileCycles, SingleBufferedWeightsExposeEveryPreload) {
  // WS tile 8 x 8 x 4 on 4x4: 2 weight blocks (n = 8 over 4 columns), each preloads 4 cycles
  // with no second register set: 4 + 2*8 + 1*4 + 6 = 30 (double-buffered: 4 + 16 + 0 + 6 = 26).
  auto a = testing::tinyArch();
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("ws"), 8, 8, 4, 1.0), 26.0);
  a.array.weight_double_buffered = false;
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("ws"), 8, 8, 4, 1.0), 30.0);
}

TEST(SimTileCycles, PartialBlocks16x16) {
  // WS 16x16, tile m=100 x n=40 x k=24: blocks = ceil(24/16)*ceil(40/16) = 2*3 = 6, each
  // streams 100 rows: 16 + 6*100 + 5*max(0, 16-100) + (16+16-2) = 16 + 600 + 30 = 646. The MACs
  // (100*40*24 = 96000) need only 375 cycles at 256 MACs/cycle: partial blocks waste the rest.
  const auto a = testing::tinyArch(16);
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("ws"), 100, 40, 24, 1.0), 646.0);
  // A half-rate dtype streams each row in 2 cycles: 16 + 6*200 + 30 = 1246.
  EXPECT_DOUBLE_EQ(tileArrayCycles(a.array, loadDataflow("ws"), 100, 40, 24, 0.5), 1246.0);
}

struct GemmCase {
  models::Graph graph;
  std::vector<dataflows::OpPlan> plans;
};

GemmCase planGemm(const arch::Accelerator& a, const std::string& workload, const std::string& df) {
  GemmCase c{models::build(workload, models::WorkloadOptions{}), {}};
  c.plans = dataflows::plan(c.graph, a, loadDataflow(df), dataflows::PlanOptions{});
  return c;
}

TEST(SimGemmModel, FourTilesComputeBound) {
  // gemm M=256, K=4, N=4 on the tiny 4x4 WS design. Mapper: usable accumulator 1 KiB = 16
  // blocks of 4x4 int32 -> start m = n = floor(sqrt(16)) = 4 blocks, n capped at 1, then m
  // grows while 1 x m blocks fit 16: m = 16 blocks = 64 rows -> 4 tiles of 64 x 4 x 4.
  const auto a = testing::tinyArch();
  GemmCase c = planGemm(a, "gemm:M=256,K=4,N=4", "ws");
  const auto& p = c.plans[0];
  ASSERT_EQ(p.mapping.tile_m, 64);
  ASSERT_EQ(p.mapping.tile_n, 4);
  ASSERT_EQ(p.mapping.tile_k, 4);
  // Each tile: 4 + 64 + 6 = 74 array cycles. A tile = 256 B in, C tile = 256 B out; B (16 B)
  // loads once (n and k have one tile each). Steady tile: max(74, 10 + 512/16 = 42) = 74.
  // First tile's loads are a prologue: 10 + (256+16)/16 = 27; last store an epilogue:
  // 10 + 256/16 = 26. Total 27 + 4*74 + 26 = 349.
  const auto cost = evaluateGemm(p, a, loadDataflow("ws"), MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cost.cycles, 349.0);
  EXPECT_DOUBLE_EQ(cost.compute, 256.0);    // 256*4*4 MACs / 16 PEs
  EXPECT_DOUBLE_EQ(cost.fill_drain, 40.0);  // 296 array cycles - 256
  EXPECT_DOUBLE_EQ(cost.memory, 53.0);      // 27 + 26
  // DRAM: A 1024 B and B 16 B read once each, C 1024 B written.
  EXPECT_DOUBLE_EQ(cost.read[0][0], 1024.0);
  EXPECT_DOUBLE_EQ(cost.read[0][1], 16.0);
  EXPECT_DOUBLE_EQ(cost.write[0][2], 1024.0);
  // Scratchpad: A streams once per column block (1), B is preloaded once per tile (4 x 16 B).
  EXPECT_DOUBLE_EQ(cost.read[1][0], 1024.0);
  EXPECT_DOUBLE_EQ(cost.read[1][1], 64.0);
  // Accumulator: every output written once (one k block) at 4 B, and read once by the store.
  EXPECT_DOUBLE_EQ(cost.write[2][2], 4096.0);
  EXPECT_DOUBLE_EQ(cost.read[2][2], 4096.0);
}

TEST(SimGemmModel, FourTilesMemoryBound) {
  // Same GEMM with DRAM at 4 B/cycle. Steady tiles: max(74, 10 + 512/4 = 138) = 138.
  // First: prologue 10 + 272/4 = 78, then max(74, store 10 + 256/4 = 74) = 74. Last:
  // max(74, loads 74) = 74, epilogue 74. Total 78 + 74 + 2*138 + 74 + 74 = 576.
  const auto a = testing::tinyArch(4, 4.0);
  GemmCase c = planGemm(a, "gemm:M=256,K=4,N=4", "ws");
  const auto cost = evaluateGemm(c.plans[0], a, loadDataflow("ws"), MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cost.cycles, 576.0);
  EXPECT_DOUBLE_EQ(cost.memory, 576.0 - 296.0);
}

TEST(SimGemmModel, IdealMemoryIsTheArrayTime) {
  const auto a = testing::tinyArch(4, 4.0);
  GemmCase c = planGemm(a, "gemm:M=256,K=4,N=4", "ws");
  const auto cost = evaluateGemm(c.plans[0], a, loadDataflow("ws"), MemoryModel(a, true));
  EXPECT_DOUBLE_EQ(cost.cycles, 296.0);
  EXPECT_DOUBLE_EQ(cost.memory, 0.0);
}

TEST(SimGemmModel, ANarrowAccumulatorStallsTheArray) {
  // gemm 16x16x16, WS on 16x16, ideal memory, one tile: array time = 16 preload + 16 stream +
  // 30 skew = 62 cycles. The accumulator takes 256 sums (1 KiB) and reads 256 for accumulation
  // and the store (1 KiB). At 8 B/cycle on one port: 2 KiB / 8 = 256 cycles, so 194 cycles of
  // delivery stall (cause noc); with two ports reads and writes overlap: 1 KiB / 8 = 128.
  auto a = testing::tinyArch(16);
  a.levels[2].bandwidth = 8;
  GemmCase c = planGemm(a, "gemm:M=16,K=16,N=16", "ws");
  const auto one = evaluateGemm(c.plans[0], a, loadDataflow("ws"), MemoryModel(a, true));
  EXPECT_DOUBLE_EQ(one.array_cycles, 62.0);
  EXPECT_DOUBLE_EQ(one.cycles, 256.0);
  EXPECT_DOUBLE_EQ(one.noc, 194.0);
  a.levels[2].ports = 2;
  const auto two = evaluateGemm(c.plans[0], a, loadDataflow("ws"), MemoryModel(a, true));
  EXPECT_DOUBLE_EQ(two.cycles, 128.0);
}

TEST(SimGemmModel, SingleTileOutputStationary) {
  // gemm M=8, K=4, N=4, OS: one tile 8x4x4, 18 array cycles (see OutputStationary4x4).
  // Loads 32 + 16 B: 10 + 3 = 13 prologue; store 32 B: 10 + 2 = 12 epilogue. 13 + 18 + 12.
  const auto a = testing::tinyArch();
  GemmCase c = planGemm(a, "gemm:M=8,K=4,N=4", "os");
  const auto cost = evaluateGemm(c.plans[0], a, loadDataflow("os"), MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cost.cycles, 43.0);
  EXPECT_DOUBLE_EQ(cost.compute, 8.0);
  // OS keeps outputs in the PEs: one accumulator write per output per k tile (1).
  EXPECT_DOUBLE_EQ(cost.write[2][2], 32.0 * 4);
}

TEST(SimGemmModel, ReloadsFollowTheLoopOrder) {
  // gemm M=128, K=4096, N=8 on 4x4: the mapper's tile is 32 x 8 x 204 (k limited by the 8 KiB
  // scratchpad half), so k has 21 tiles. With loop order m -> n -> k and several k tiles, A and
  // B reload on every iteration: DRAM reads = |A| * tiles_n + |B| * tiles_m.
  const auto a = testing::tinyArch();
  GemmCase c = planGemm(a, "gemm:M=128,K=4096,N=8", "ws");
  const auto& p = c.plans[0];
  const int64_t tm = p.mapping.tilesAlong(p.problem, dataflows::Dim::M);
  const int64_t tn = p.mapping.tilesAlong(p.problem, dataflows::Dim::N);
  const int64_t tk = p.mapping.tilesAlong(p.problem, dataflows::Dim::K);
  ASSERT_GT(tk, 1) << p.mapping.brief();
  const auto cost = evaluateGemm(p, a, loadDataflow("ws"), MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cost.read[0][0], 128.0 * 4096 * tn);
  EXPECT_DOUBLE_EQ(cost.read[0][1], 4096.0 * 8 * tm);
  EXPECT_EQ(p.mapping.brief(), "ws m=32 n=8 k=204");
  EXPECT_EQ(tk, 21);
  EXPECT_DOUBLE_EQ(cost.write[0][2], 128.0 * 8);
}

TEST(SimGemmModel, OutputStationary16x16TwoTiles) {
  // 16x16 array, accumulator 8 KiB (usable 4 KiB = 4 blocks of 16x16 int32), gemm M=64, K=32,
  // N=32, OS. Mapper: m = n = floor(sqrt(4)) = 2 blocks (n is at its max 2; m -> 3 needs 6
  // blocks), k grows to its max 2: tile 32 x 32 x 32, two tiles along m.
  auto a = testing::tinyArch(16);
  a.levels[2].capacity_bytes = 8 * 1024;
  GemmCase c = planGemm(a, "gemm:M=64,K=32,N=32", "os");
  const auto& p = c.plans[0];
  ASSERT_EQ(p.mapping.brief(), "os m=32 n=32 k=32");
  // Per tile: rows = m (2 blocks) x cols = n (2 blocks) = 4 output blocks, each streams k = 32;
  // the 16-cycle shift-out hides behind the next block's 32-cycle stream but the last:
  // 16 + 4*32 + 0 + (16+16-2) = 174.
  // Tile 0 loads A and B (1 KiB each): prologue 10 + 2048/16 = 138; its store (1 KiB) overlaps:
  // max(174, 10 + 64) = 174. Tile 1 reloads only A (B's k and n did not move): max(174, 74);
  // its store is the epilogue, 74. Total 138 + 174 + 174 + 74 = 560.
  const auto cost = evaluateGemm(p, a, loadDataflow("os"), MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cost.cycles, 560.0);
  EXPECT_DOUBLE_EQ(cost.compute, 256.0);  // 65536 MACs / 256 PEs
  EXPECT_DOUBLE_EQ(cost.fill_drain, 92.0);
  EXPECT_DOUBLE_EQ(cost.memory, 212.0);
  EXPECT_DOUBLE_EQ(cost.read[0][1], 1024.0);  // B once
  EXPECT_DOUBLE_EQ(cost.read[0][0], 2048.0);  // A twice (two m tiles, one each)
  // Outputs stay in the PEs: one accumulator write per output (one k tile), 4 B each.
  EXPECT_DOUBLE_EQ(cost.write[2][2], 2 * 1024.0 * 4);
  // A streams once per column block (2), B once per row block (2): 2 x 1 KiB per tile each.
  EXPECT_DOUBLE_EQ(cost.read[1][0], 4096.0);
  EXPECT_DOUBLE_EQ(cost.read[1][1], 4096.0);
}

}  // namespace
}  // namespace tessel
