// Golden stats for the shipped Gemmini default, each number derived by hand from the model in
// docs/analytical-model.md. If one changes, either the model or a config changed: update the
// derivation, not just the number.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "models/workload.h"
#include "sim/run.h"

namespace tessel {
namespace {

// The local tile from an op's flattened mapping, "m=80 n=96 k=736".
std::string tileOf(const sim::OpStats& op) {
  for (const auto& [key, value] : op.mapping) {
    if (key == "local_tile") return value;
  }
  return "";
}

sim::RunStats runShipped(const std::string& arch, const std::string& workload,
                         const std::vector<std::string>& overrides = {}) {
  const auto acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + arch + ".yaml", overrides);
  const auto g = models::build(workload, models::WorkloadOptions{});
  sim::RunOptions o;
  o.plan.mapper = "gemmini-auto";  // the tiles derived below are gemmini-auto's
  return sim::simulate(g, acc, dataflows::loadDataflow("ws"), o);
}

TEST(SimGolden, GemminiDefaultQkvGemm) {
  // gemm M=512, K=768, N=2304 (GPT-2's fused QKV at seq 512), INT8, WS.
  // Mapper: tile 80 x 96 x 736 (see DataflowsGemminiAuto.GptQkvOnDefaultConfig): 7 m tiles
  // (6 x 80 + 32), 24 n tiles (all 96), 2 k tiles (736 + 32).
  // DRAM loops m -> n -> k, so A and B change every tile and C every other (f = 1, 1, 1/2).
  // Array: the weights swap once per 16x16 block, ceil(k/16) x 6 blocks per tile, each block
  // streaming the tile's m rows (80 or 32, never under R = 16, so every later preload hides):
  // 168 x (46 + 2) x 6 = 48,384 swaps, 512 x 768 x 2304 / 256 = 3,538,944 steps (every block
  // full), + the first preload 16, the skew 30 and the edge register 1, once for the op:
  // 3,538,991 (wsSequence over all swaps). The scratchpad (90.8 MB at 64 B/cycle: 1.42 M cycles)
  // and the dual-ported accumulator (453 MB at 256 B/cycle: 1.77 M) stay under it.
  // DMA: 16 requests of 64 B over 100 cycles of latency = 10.24 B/cycle (below the 16 B bus).
  // Off-chip: A 9,437,184 + B 12,386,304 + C 1,179,648 = 23,003,136 B = 2,246,400 cycles. The
  // first tile's loads ((58880 + 70656) / 10.24 = 12,650, after 100 of latency) are the
  // prologue and the last tile's store (7680 / 10.24 = 750) the epilogue; the rest,
  // 2,246,400 - 13,400, overlaps the first 335 tiles: each tile moves its own A and B and its C
  // (stored by every other tile), at 10.24 B/cycle, times g = (2,233,000 / 2,246,400) x 336/335
  // = 0.997002. Per tile, work (steps + 47/336 of the op's pipeline cycles) against the bursts:
  // half the tiles move A + B, the other half A + B + the whole C tile, each bounded by
  // pingPong(work, move, 100) = max(work, move, (move + 100 + work) / 2):
  //   m80 k736: work 22,080.14; moves 12,612.1 | 13,359.8 -> 22,080.14 (the array binds)
  //   m80 k32:  work 960.14; moves 548.4 | 1,296.1 -> (960.14 + 1,296.1) / 2 = 1,128.12
  //   m32 k736: work 8,832.14; moves 9,172.4 | 9,471.5 -> 9,321.97 (the transfers bind)
  //   m32 k32:  work 384.14; moves 398.8, whose buffer halves need (398.8 + 100 + 384.14) / 2
  //             = 441.47 | 697.9 -> 569.69
  // (the output halves, (work + (31 + C) / 2) / 2, never bind). Counts 144, 144, 24, 24:
  // 3,579,389.37 over 336 tiles; the first 335 overlap the rest (x 335/336) and the last tile's
  // work waits alone (3,538,991 / 336): 3,579,269.13; + 100 + 12,650 + 750
  // = 3,592,769.13 cycles, 53,778.13 of them memory stall.
  const auto run = runShipped("gemmini-default", "gemm:M=512,K=768,N=2304");
  ASSERT_EQ(run.ops.size(), 1u);
  const auto& op = run.ops[0];
  EXPECT_NEAR(op.cycles, 3592769.13, 0.05);
  EXPECT_DOUBLE_EQ(op.cycles_by_cause[static_cast<size_t>(sim::Cause::Compute)], 3538944.0);
  EXPECT_DOUBLE_EQ(op.cycles_by_cause[static_cast<size_t>(sim::Cause::FillDrain)], 47.0);
  EXPECT_NEAR(op.cycles_by_cause[static_cast<size_t>(sim::Cause::MemoryStall)], 53778.13, 0.05);
  // DRAM: A is read once per n tile (24 x 512*768 = 9,437,184 B), B once per m tile
  // (7 x 768*2304 = 12,386,304 B); C written once (512*2304 = 1,179,648 B).
  EXPECT_EQ(op.traffic[0].read_bytes[0], 9437184);
  EXPECT_EQ(op.traffic[0].read_bytes[1], 12386304);
  EXPECT_EQ(op.traffic[0].write_bytes[2], 1179648);
  // Accumulator: each output is accumulated once per 16-deep k block (48) at 4 B:
  // 512*2304*48*4 = 226,492,416 B written.
  EXPECT_EQ(op.traffic[2].write_bytes[2], 226492416);
}

TEST(SimGolden, RebalancedSramRefetchesLess) {
  // The survey's step 1 on the same GEMM: 64 KiB scratchpad, 256 KiB accumulator. Usable
  // halves: 32 KiB and 128 KiB (128 blocks of 16x16 int32). Start m = n = floor(sqrt(128)) = 11
  // blocks; n or m -> 12 needs 132 blocks (no); k grows while (11k + 11k) * 256 B <= 32 KiB,
  // i.e. k <= 5. Tile 176 x 176 x 80: 3 m tiles, 14 n tiles, 10 k tiles.
  const auto run = runShipped("gemmini-default", "gemm:M=512,K=768,N=2304",
                              {"scratchpad.capacity=64KiB", "accumulator.capacity=256KiB"});
  const auto& op = run.ops[0];
  EXPECT_EQ(tileOf(op), "m=176 n=176 k=80");
  // A is re-read once per n tile (14 x 393,216 B), B once per m tile (3 x 1,769,472 B): 10.8 MB
  // instead of the default's 21.8 MB (24 and 7 re-reads).
  EXPECT_EQ(op.traffic[0].read_bytes[0], 14 * 512 * 768);
  EXPECT_EQ(op.traffic[0].read_bytes[1], 3 * 768 * 2304);
}

}  // namespace
}  // namespace tessel
