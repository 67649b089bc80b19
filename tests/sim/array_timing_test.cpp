// Hand-derived cycle and byte counts for small GEMMs: the tile timing of a systolic array (WS and
// OS, partial blocks, single-buffered weights, a half-rate dtype) and whole ops through the
// analytical engine, whose one loop-nest model costs gemmini-auto's tiles as well as the
// search's nests.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/hardware.h"
#include "dataflows/plan.h"
#include "dataflows/tile_as_nest.h"
#include "models/workload.h"
#include "sim/engine.h"
#include "tests/sim/tiny_arch.h"

namespace tessel {
namespace {

using dataflows::loadDataflow;
namespace nest = dataflows::nest;

// The array's busy time on one local tile of m x n x k (the whole problem, local memories
// large enough), free memory.
double tileCycles(arch::Accelerator a, const std::string& df, int64_t m, int64_t n, int64_t k,
                  double rate = 1) {
  a.levels[1].capacity_bytes = a.levels[2].capacity_bytes = 64u << 20;
  const nest::Hardware hw = nest::hardwareOf(a);
  dataflows::Problem p;
  p.m = m, p.n = n, p.k = k;
  p.loops = nest::gemmProblem(1, m, n, k);
  dataflows::Mapping tile;
  tile.tile_m = m, tile.tile_n = n, tile.tile_k = k;
  const auto mapping = dataflows::tileAsNest(tile, p, hw, loadDataflow(df));
  EXPECT_TRUE(mapping.has_value());
  nest::CostOptions o;
  o.ideal_memory = true;
  o.mac_rate = rate;
  const nest::Cost c = nest::evaluate(p.loops, *mapping, hw, o);
  EXPECT_TRUE(c.ok) << c.reason;
  return c.array;
}

TEST(SimTileCycles, WeightStationary4x4) {
  // WS on 4x4, tile m=8 x n=4 x k=4: one weight block. Preload 4 cycles (weights shift down
  // the rows), 8 input rows stream one per cycle, and the last row's result leaves column 3
  // after the skew of (4-1) rows + (4-1) columns = 6: 4 + 8 + 6 = 18. Cycle by cycle: row i
  // reaches PE row r at 4+i+r, its sum for column c leaves at 4+i+3+c+1; i=7, c=3 -> 18.
  EXPECT_DOUBLE_EQ(tileCycles(testing::tinyArch(), "ws", 8, 4, 4), 18.0);
}

TEST(SimTileCycles, OutputStationary4x4) {
  // OS on 4x4, tile m=8 x n=4 x k=4: rows = m -> 2 blocks of 4x4 outputs, each streaming k=4.
  // Shift-out of a block (4 cycles) hides behind the next block's 4-cycle stream (double
  // buffered, max(0, 4-4) = 0) except the last: 4 + 2*4 + 0 + 6 = 18.
  EXPECT_DOUBLE_EQ(tileCycles(testing::tinyArch(), "os", 8, 4, 4), 18.0);
  // k=2: each block streams 2 cycles, so 4-2 = 2 swap cycles per block stay exposed:
  // 4 + 2*2 + 1*2 + 6 = 16.
  EXPECT_DOUBLE_EQ(tileCycles(testing::tinyArch(), "os", 8, 4, 2), 16.0);
}

TEST(SimTileCycles, SingleBufferedWeightsExposeEveryPreload) {
  // WS tile 8 x 8 x 4 on 4x4: 2 weight blocks (n = 8 over 4 columns), each preloads 4 cycles
  // with no second register set: 4 + 2*8 + 1*4 + 6 = 30 (double-buffered: 4 + 16 + 0 + 6 = 26).
  auto a = testing::tinyArch();
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 8, 8, 4), 26.0);
  a.array.weight_double_buffered = false;
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 8, 8, 4), 30.0);
}

TEST(SimTileCycles, PartialBlocks16x16) {
  // WS 16x16, tile m=100 x n=40 x k=24: blocks = ceil(24/16)*ceil(40/16) = 2*3 = 6, each
  // streams 100 rows: 16 + 6*100 + 5*max(0, 16-100) + (16+16-2) = 16 + 600 + 30 = 646. The MACs
  // (100*40*24 = 96000) need only 375 cycles at 256 MACs/cycle: partial blocks waste the rest.
  const auto a = testing::tinyArch(16);
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 100, 40, 24), 646.0);
  // A half-rate dtype streams each row in 2 cycles: 16 + 6*200 + 30 = 1246.
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 100, 40, 24, 0.5), 1246.0);
}

// One GEMM planned by gemmini-auto and timed by the analytical engine.
sim::OpStats runGemm(const arch::Accelerator& a, const std::string& workload, const std::string& df,
                     bool ideal = false) {
  const models::Graph g = models::build(workload, models::WorkloadOptions{});
  dataflows::PlanOptions po;
  po.mapper = "gemmini-auto";
  const auto plans = dataflows::plan(g, a, loadDataflow(df), po);
  sim::EngineOptions eo;
  eo.ideal_memory = ideal;
  return sim::makeEngine("analytical", a, loadDataflow(df), eo)->evaluate(plans.at(0));
}

double cause(const sim::OpStats& s, sim::Cause c) { return s.cycles_by_cause[static_cast<size_t>(c)]; }

TEST(SimGemmTiming, FourTilesComputeBound) {
  // gemm M=256, K=4, N=4 on the tiny 4x4 WS design. Mapper: usable accumulator 1 KiB = 16
  // blocks of 4x4 int32 -> start m = n = floor(sqrt(16)) = 4 blocks, n capped at 1, then m
  // grows while 1 x m blocks fit 16: m = 16 blocks = 64 rows -> 4 tiles of 64 x 4 x 4.
  // Each tile: 4 + 64 + 6 = 74 array cycles, 296 in all. Off-chip: A 1024 B and B 16 B read
  // once, C 1024 B written: 2064 B / 16 = 129 cycles. The first tile's loads are a prologue
  // (10 latency + (256 + 16) / 16 = 27), the last tile's store an epilogue (256 / 16 = 16); the
  // other 129 - 17 - 16 = 96 cycles hide under the 296 of the array: 27 + 296 + 16 = 339.
  const auto s = runGemm(testing::tinyArch(), "gemm:M=256,K=4,N=4", "ws");
  EXPECT_EQ(s.mapping.at(1).second, "gemmini-auto");
  EXPECT_DOUBLE_EQ(s.cycles, 339.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::Compute), 256.0);     // 256*4*4 MACs / 16 PEs
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::FillDrain), 40.0);    // 296 array cycles - 256
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 43.0);  // 27 + 16
  EXPECT_EQ(s.traffic[0].read_bytes[0], 1024);
  EXPECT_EQ(s.traffic[0].read_bytes[1], 16);
  EXPECT_EQ(s.traffic[0].write_bytes[2], 1024);
  // Scratchpad: A streams once (one column block); B is written once and read once: the PEs
  // keep it across the four tiles, as m is the only loop.
  EXPECT_EQ(s.traffic[1].read_bytes[0], 1024);
  EXPECT_EQ(s.traffic[1].read_bytes[1], 16);
  // Accumulator: every output written once (one k block) at 4 B, and read once by the store.
  EXPECT_EQ(s.traffic[2].write_bytes[2], 4096);
  EXPECT_EQ(s.traffic[2].read_bytes[2], 4096);
}

TEST(SimGemmTiming, FourTilesMemoryBound) {
  // Same GEMM with DRAM at 4 B/cycle: 2064 B take 516 cycles. Prologue 10 + 272/4 = 78,
  // epilogue 256/4 = 64, the other 516 - 68 - 64 = 384 overlap the 296 array cycles and
  // exceed them: 78 + 384 + 64 = 526.
  const auto s = runGemm(testing::tinyArch(4, 4.0), "gemm:M=256,K=4,N=4", "ws");
  EXPECT_DOUBLE_EQ(s.cycles, 526.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 526.0 - 296.0);
}

TEST(SimGemmTiming, IdealMemoryIsTheArrayTime) {
  const auto s = runGemm(testing::tinyArch(4, 4.0), "gemm:M=256,K=4,N=4", "ws", true);
  EXPECT_DOUBLE_EQ(s.cycles, 296.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 0.0);
}

TEST(SimGemmTiming, ANarrowAccumulatorStallsTheArray) {
  // gemm 16x16x16, WS on 16x16, ideal memory, one tile: array time = 16 preload + 16 stream +
  // 30 skew = 62 cycles. The accumulator takes 256 sums (1 KiB) and reads 256 for the store
  // (1 KiB). At 8 B/cycle on one port: 2 KiB / 8 = 256 cycles, so 194 cycles of delivery stall
  // (cause noc); with two ports reads and writes overlap: 1 KiB / 8 = 128.
  auto a = testing::tinyArch(16);
  a.levels[2].bandwidth = 8;
  const auto one = runGemm(a, "gemm:M=16,K=16,N=16", "ws", true);
  EXPECT_DOUBLE_EQ(cause(one, sim::Cause::Compute) + cause(one, sim::Cause::FillDrain), 62.0);
  EXPECT_DOUBLE_EQ(one.cycles, 256.0);
  EXPECT_DOUBLE_EQ(cause(one, sim::Cause::Noc), 194.0);
  a.levels[2].ports = 2;
  EXPECT_DOUBLE_EQ(runGemm(a, "gemm:M=16,K=16,N=16", "ws", true).cycles, 128.0);
}

TEST(SimGemmTiming, SingleTileOutputStationary) {
  // gemm M=8, K=4, N=4, OS: one tile 8x4x4, 18 array cycles (see OutputStationary4x4).
  // Loads 32 + 16 B: 10 + 3 = 13 prologue; store 32 B: 2 epilogue; nothing else moves.
  const auto s = runGemm(testing::tinyArch(), "gemm:M=8,K=4,N=4", "os");
  EXPECT_DOUBLE_EQ(s.cycles, 33.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::Compute), 8.0);
  // OS keeps outputs in the PEs: one accumulator write per output (one k pass), 4 B each.
  EXPECT_EQ(s.traffic[2].write_bytes[2], 32 * 4);
}

TEST(SimGemmTiming, ReloadsFollowTheLoopOrder) {
  // gemm M=128, K=4096, N=8 on 4x4: the mapper's tile is 32 x 8 x 204 (k limited by the 8 KiB
  // scratchpad half), so m has 4 tiles and k 21. With loop order m -> n -> k and several k
  // tiles, A is read once per n tile (1) and B once per m tile (4).
  const auto s = runGemm(testing::tinyArch(), "gemm:M=128,K=4096,N=8", "ws");
  bool found = false;
  for (const auto& [key, value] : s.mapping) {
    if (key == "dram") found = value.rfind("m=4 k=21", 0) == 0;
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(s.traffic[0].read_bytes[0], 128 * 4096);
  EXPECT_EQ(s.traffic[0].read_bytes[1], 4096 * 8 * 4);
  EXPECT_EQ(s.traffic[0].write_bytes[2], 128 * 8);
}

TEST(SimGemmTiming, OutputStationary16x16TwoTiles) {
  // 16x16 array, accumulator 8 KiB (usable 4 KiB = 4 blocks of 16x16 int32), gemm M=64, K=32,
  // N=32, OS. Mapper: m = n = floor(sqrt(4)) = 2 blocks (n is at its max 2; m -> 3 needs 6
  // blocks), k grows to its max 2: tile 32 x 32 x 32, two tiles along m.
  auto a = testing::tinyArch(16);
  a.levels[2].capacity_bytes = 8 * 1024;
  const auto s = runGemm(a, "gemm:M=64,K=32,N=32", "os");
  // Per tile: rows = m (2 blocks) x cols = n (2 blocks) = 4 output blocks, each streams k = 32;
  // the 16-cycle shift-out hides behind the next block's 32-cycle stream but the last:
  // 16 + 4*32 + 0 + (16+16-2) = 174, 348 for both. Off-chip: A twice (2048 B), B once
  // (1024 B), C once (2048 B): 320 cycles. Prologue 10 + (1024 + 1024)/16 = 138, epilogue
  // 1024/16 = 64; the other 320 - 128 - 64 = 128 hide under 348: 138 + 348 + 64 = 550.
  EXPECT_DOUBLE_EQ(s.cycles, 550.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::Compute), 256.0);  // 65536 MACs / 256 PEs
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::FillDrain), 92.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 202.0);
  EXPECT_EQ(s.traffic[0].read_bytes[1], 1024);  // B once
  EXPECT_EQ(s.traffic[0].read_bytes[0], 2048);  // A twice (two m tiles, one each)
  // Outputs stay in the PEs: one accumulator write per output (one k pass), 4 B each.
  EXPECT_EQ(s.traffic[2].write_bytes[2], 2 * 1024 * 4);
  // A streams once per column block (2), B once per row block (2): 2 x 1 KiB per tile each.
  EXPECT_EQ(s.traffic[1].read_bytes[0], 4096);
  EXPECT_EQ(s.traffic[1].read_bytes[1], 4096);
}

// Gemmini's im2col unit expands the input on the way to the array: DRAM sends the raw rows.
// A 3x3 conv, pad 1, on 14x14x32 -> 48: the im2col matrix is 196 x 288 = 56,448 elements, the
// raw input 14 x 14 x 32 = 6,272 (1/9 of it). One n tile (all 48 filters): DRAM reads the raw
// input once; the scratchpad sends the expanded stream once per 16-column block: 3 x 56,448.
TEST(SimGemmTiming, HardwareIm2colReadsRawInputRowsFromDram) {
  const auto a = arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  const auto s = runGemm(a, "conv:H=14,W=14,C=32,K=48,R=3,S=3,pad=1", "ws");
  EXPECT_EQ(s.traffic[0].read_bytes[0], 6272);
  EXPECT_EQ(s.traffic[1].write_bytes[0], 6272);
  EXPECT_EQ(s.traffic[1].read_bytes[0], 3 * 56448);
}

}  // namespace
}  // namespace tessel
