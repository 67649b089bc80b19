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
  // WS on 4x4, tile m=8 x n=4 x k=4: one weight block (one swap). Preload R = 4 cycles, 8 input
  // rows stream one per cycle, the last one crosses the skew of (4-1) rows + (4-1) columns = 6,
  // and the accumulator captures the bottom PE's register one edge later (+1):
  // 4 + 8 + 6 + 1 = 19, the PE grid's wsTileCycles(4, 4, 8) (tile_timing.h).
  EXPECT_DOUBLE_EQ(tileCycles(testing::tinyArch(), "ws", 8, 4, 4), 19.0);
}

TEST(SimTileCycles, OutputStationary4x4) {
  // OS on 4x4, tile m=8 x n=4 x k=4: rows = m -> 2 blocks of 4x4 outputs (2 swaps), each
  // streaming k=4. A block issues every max(k, R) = 4 cycles; the last one streams 4, crosses the
  // skew 6, drains its R = 4 rows and passes the edge register (+1): 4 + (4 + 6 + 4 + 1) = 19,
  // osSequenceCycles(4, 4, 4, 2). In the model's terms: 8 steps + 2 x max(0, 4-4) exposed + the
  // first drain 4 + tail 6 + 1 = 19.
  EXPECT_DOUBLE_EQ(tileCycles(testing::tinyArch(), "os", 8, 4, 4), 19.0);
  // k=2: a block still issues every max(2, 4) = 4 cycles, so 4-2 = 2 cycles per swap stay
  // exposed: 4 + (2 + 6 + 4 + 1) = 17 = osSequenceCycles(4, 4, 2, 2); the model's
  // 4 steps + 2 x 2 exposed + run start (4 - 2) + tail 7 = 17.
  EXPECT_DOUBLE_EQ(tileCycles(testing::tinyArch(), "os", 8, 4, 2), 17.0);
}

TEST(SimTileCycles, SingleBufferedWeightsExposeEveryPreload) {
  // WS tile 8 x 8 x 4 on 4x4: 2 weight blocks (n = 8 over 4 columns), each streaming m = 8.
  // Double-buffered, the second preload hides behind the first stream (period max(8, 4) = 8):
  // 8 + (4 + 8 + 6 + 1) = 27 = wsSequenceCycles(4, 4, 8, 2, true). With no second register set
  // a block issues every m + R - 1 = 11 (a column's new weights land on one edge, after the
  // bottom PE's last multiply): 11 + 19 = 30 = wsSequenceCycles(4, 4, 8, 2, false); the model's
  // 16 steps + 2 swaps x 3 exposed + run start (4 - 3) + tail 7 = 30.
  auto a = testing::tinyArch();
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 8, 8, 4), 27.0);
  a.array.weight_double_buffered = false;
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 8, 8, 4), 30.0);
}

TEST(SimTileCycles, PartialBlocks16x16) {
  // WS 16x16, tile m=100 x n=40 x k=24: blocks = ceil(24/16)*ceil(40/16) = 2*3 = 6, each
  // streams 100 rows (partial blocks use the whole array): 600 steps, every later preload hidden
  // (max(0, 16-100) = 0), the first preload 16, skew 16+16-2 = 30 and the edge register once:
  // 600 + 16 + 30 + 1 = 647 = wsSequenceCycles(16, 16, 100, 6, true). The MACs
  // (100*40*24 = 96000) need only 375 cycles at 256 MACs/cycle: partial blocks waste the rest.
  const auto a = testing::tinyArch(16);
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 100, 40, 24), 647.0);
  // A half-rate dtype streams each row in 2 cycles (m = 200 per block): 1200 + 16 + 31 = 1247.
  EXPECT_DOUBLE_EQ(tileCycles(a, "ws", 100, 40, 24, 0.5), 1247.0);
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

// The design with every DMA request max_request bytes, whatever the tile rows.
arch::Accelerator wideRequests(arch::Accelerator a) {
  a.dma.row_requests = false;
  return a;
}

double cause(const sim::OpStats& s, sim::Cause c) { return s.cycles_by_cause[static_cast<size_t>(c)]; }

TEST(SimGemmTiming, FourTilesComputeBound) {
  // gemm M=256, K=4, N=4 on the tiny 4x4 WS design. Mapper: usable accumulator 1 KiB = 16
  // blocks of 4x4 int32 -> start m = n = floor(sqrt(16)) = 4 blocks, n capped at 1, then m
  // grows while 1 x m blocks fit 16: m = 16 blocks = 64 rows -> 4 tiles of 64 x 4 x 4.
  // Array: the weights stay in the PEs for all four tiles, which follow each other without
  // draining: 4 swaps of m = 64 (each later preload hidden), 256 steps + first preload 4 + skew
  // 6 + edge register 1 = 267 = wsSequenceCycles(4, 4, 64, 4, true), 66.75 per tile.
  // Off-chip: A 1024 B and B 16 B read once, C 1024 B written: 2064 B / 16 = 129 cycles. The
  // first tile's loads are a prologue (10 latency + (256 + 16) / 16 = 27), the last tile's store
  // an epilogue (256 / 16 = 16); the rest, 129 - 17 - 16 = 96 cycles, is 32 per tile over the
  // first three, split by bytes: A and C 15.9 each, the weights 1.0 (refilled in a quarter of
  // the tiles: 4.0 then). Per tile the bounds are: work 66.75; throughput 32; bursts
  // pingPong(66.75, 31.8 or 35.7, 10) = 66.75 (the half-cycle (35.7 + 10 + 66.75) / 2 = 56.2
  // stays under); output half (66.75 + 7 tail + 15.9 store) / 2 = 44.8. So the work binds:
  // 3 tiles x 66.75 overlapping the rest, then the last tile's 66.75 alone, = 267:
  // 27 + 267 + 16 = 310.
  // Requests of 64 B (dma.row_requests: false): the 4 B rows of this GEMM would stream at
  // 16 x 4 / 10 = 6.4 B/cycle (DataflowsGemminiAuto.BertProjectionTilesOnBothSramSplits tests
  // that mechanism); this derivation is about the array and the double buffering.
  const auto s = runGemm(wideRequests(testing::tinyArch()), "gemm:M=256,K=4,N=4", "ws");
  EXPECT_EQ(s.mapping.at(1).second, "gemmini-auto");
  EXPECT_DOUBLE_EQ(s.cycles, 310.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::Compute), 256.0);     // 256*4*4 MACs / 16 PEs
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::FillDrain), 11.0);    // 267 array cycles - 256
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
  // epilogue 256/4 = 64, the rest 516 - 68 - 64 = 384 = 128 per tile over the first three
  // tiles, split by bytes: A and C 63.5 each, the weights 1.0 (4.0 in the quarter of the tiles
  // that refill them). That throughput binds: work 66.75 (FourTilesComputeBound); bursts move
  // A and C (127.0) in three quarters of the tiles, those and the weights (131.0) in the last
  // quarter, pingPong = the move each time (its half-cycle, (131 + 10 + 66.75) / 2 = 103.9, is
  // shorter), averaging the same 128; output half (66.75 + 7 + 63.5) / 2 = 68.6. The rest overlaps the first three tiles
  // (3 x 128 = 384), the last tile's work waits for its operands, alone (66.75):
  // 78 + 384 + 66.75 + 64 = 592.75.
  const auto s = runGemm(testing::tinyArch(4, 4.0), "gemm:M=256,K=4,N=4", "ws");
  EXPECT_DOUBLE_EQ(s.cycles, 592.75);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 592.75 - 267.0);
}

TEST(SimGemmTiming, IdealMemoryIsTheArrayTime) {
  // The array alone: 267 (FourTilesComputeBound).
  const auto s = runGemm(testing::tinyArch(4, 4.0), "gemm:M=256,K=4,N=4", "ws", true);
  EXPECT_DOUBLE_EQ(s.cycles, 267.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 0.0);
}

TEST(SimGemmTiming, ANarrowAccumulatorStallsTheArray) {
  // gemm 16x16x16, WS on 16x16, ideal memory, one tile: array time = 16 preload + 16 stream +
  // 30 skew + 1 edge register = 63 cycles (wsTileCycles(16, 16, 16)). The accumulator takes 256
  // sums (1 KiB) and reads 256 for the store (1 KiB). At 8 B/cycle on one port: 2 KiB / 8 = 256
  // cycles, so 193 cycles of delivery stall (cause noc); with two ports reads and writes
  // overlap: 1 KiB / 8 = 128.
  auto a = testing::tinyArch(16);
  a.levels[2].bandwidth = 8;
  const auto one = runGemm(a, "gemm:M=16,K=16,N=16", "ws", true);
  EXPECT_DOUBLE_EQ(cause(one, sim::Cause::Compute) + cause(one, sim::Cause::FillDrain), 63.0);
  EXPECT_DOUBLE_EQ(one.cycles, 256.0);
  EXPECT_DOUBLE_EQ(cause(one, sim::Cause::Noc), 193.0);
  a.levels[2].ports = 2;
  EXPECT_DOUBLE_EQ(runGemm(a, "gemm:M=16,K=16,N=16", "ws", true).cycles, 128.0);
}

TEST(SimGemmTiming, SingleTileOutputStationary) {
  // gemm M=8, K=4, N=4, OS: one tile 8x4x4, 19 array cycles (see OutputStationary4x4).
  // Loads 32 + 16 B: 10 + 3 = 13 prologue; store 32 B: 2 epilogue; nothing else moves, and one
  // tile's output half, (19 + 7 tail) / 2, stays under its work: 13 + 19 + 2 = 34.
  const auto s = runGemm(wideRequests(testing::tinyArch()), "gemm:M=8,K=4,N=4", "os");
  EXPECT_DOUBLE_EQ(s.cycles, 34.0);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::Compute), 8.0);
  // OS keeps outputs in the PEs: one accumulator write per output (one k pass), 4 B each.
  EXPECT_EQ(s.traffic[2].write_bytes[2], 32 * 4);
}

TEST(SimGemmTiming, ReloadsFollowTheLoopOrder) {
  // gemm M=128, K=4096, N=8 on 4x4 (16 KiB scratchpad, 2 KiB accumulator): tiled_matmul_auto
  // starts at m = 4 blocks (sqrt of the 16 usable accumulator blocks), n = 2 (all of 8) and
  // k = (8 KiB / 2 / 16 B = 256 input blocks) / 4 = 64 blocks; m grows to 5 (20 x 8 x 4 B of
  // outputs fit 1 KiB; 6 would need (24 + 8) x 260 B of inputs, over 8 KiB), k while
  // (20 + 8) x k <= 8192: k = 292 (73 blocks). Tile 20 x 8 x 292: m has 7 tiles and k 15.
  // With loop order m -> n -> k and several k tiles, A is read once per n tile (1) and B once
  // per m tile (7).
  const auto s = runGemm(testing::tinyArch(), "gemm:M=128,K=4096,N=8", "ws");
  bool found = false;
  for (const auto& [key, value] : s.mapping) {
    if (key == "dram") found = value.rfind("m=7 k=15", 0) == 0;
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(s.traffic[0].read_bytes[0], 128 * 4096);
  EXPECT_EQ(s.traffic[0].read_bytes[1], 4096 * 8 * 7);
  EXPECT_EQ(s.traffic[0].write_bytes[2], 128 * 8);
}

TEST(SimGemmTiming, OutputStationary16x16TwoTiles) {
  // 16x16 array, accumulator 8 KiB (usable 4 KiB = 4 blocks of 16x16 int32), gemm M=64, K=32,
  // N=32, OS. Mapper: m = n = floor(sqrt(4)) = 2 blocks (n is at its max 2; m -> 3 needs 6
  // blocks), k grows to its max 2: tile 32 x 32 x 32, two tiles along m.
  auto a = testing::tinyArch(16);
  a.levels[2].capacity_bytes = 8 * 1024;
  const auto s = runGemm(a, "gemm:M=64,K=32,N=32", "os");
  // Per tile: rows = m (2 blocks) x cols = n (2 blocks) = 4 output blocks, each streams k = 32:
  // 8 blocks back to back, each 16-cycle shift-out hidden behind the next 32-cycle stream:
  // 256 steps + first drain 16 + skew 30 + edge register 1 = 303 = osSequenceCycles(16, 16,
  // 32, 8), 151.5 per tile. Gemmini's software moves B in again for the second tile (an
  // output-stationary tiled_matmul_outer keeps no operand between calls), so the numbers below
  // are the model's with B twice: 545.5 cycles. Before that mechanism, with B once:
  // Off-chip: A twice (2048 B), B once (1024 B), C once (2048 B):
  // 320 cycles. Prologue 10 + (1024 + 1024)/16 = 138, epilogue 1024/16 = 64; the rest,
  // 320 - 128 - 64 = 128, falls on the first tile: A 51.2 and C 51.2 every tile, B (25.6 over
  // two tiles) 51.2 in the half of the tiles that refill it. Bursts: the half that moves A and
  // C, pingPong(151.5, 102.4, 10) = 151.5; the half that also moves B, 153.6 cycles, binds on
  // its buffer halves: (153.6 + 10 + 151.5) / 2 = 157.55; averaged, 154.525 per tile (output
  // half (151.5 + 31 + 51.2) / 2 = 116.85 and throughput 128 stay under). The first tile takes
  // 154.525, the last its work alone, 151.5: 138 + 306.025 + 64 = 508.025. With B twice
  // (1024 B more, 64 cycles of transfers, all on the second tile's refill), 545.5.
  EXPECT_DOUBLE_EQ(s.cycles, 545.5);
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::Compute), 256.0);  // 65536 MACs / 256 PEs
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::FillDrain), 47.0);  // 303 - 256
  EXPECT_DOUBLE_EQ(cause(s, sim::Cause::MemoryStall), 242.5);  // 545.5 - 303
  EXPECT_EQ(s.traffic[0].read_bytes[1], 2048);  // B once per call
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
