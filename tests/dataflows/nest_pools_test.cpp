// A global buffer split per tensor (DianNao's NBin, SB and NBout): each tensor's tile must fit
// its own pool, not the sum. The pools are written out by hand below and the search's mapping is
// checked against them; the same search on one shared pool of the same size breaks them, so the
// split is what keeps the mapping inside.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/search.h"

namespace tessel {
namespace {

using dataflows::nest::Hardware;

std::string design(const std::string& capacity) {
  return "name: pools\n"
         "clock: 1 GHz\n"
         "dram: {bandwidth: 16 B/cycle, latency: 10 cycles}\n"
         "global_buffer: {capacity: " +
         capacity +
         ", bandwidth: 64 B/cycle}\n"
         "array: {kind: spatial, rows: 4, cols: 4, dataflows: [nlr]}\n"
         "noc: {kind: bus, multicast: true, reduction: true}\n";
}

const char* const kPools = "{inputs: 1 KiB, weights: 2 KiB, outputs: 1 KiB}";

TEST(GlobalBufferPools, EachTensorGetsItsOwnPool) {
  const arch::Accelerator acc = arch::loadString(design(kPools), "pools.yaml");
  const arch::StorageLevel& gb = *acc.level(arch::LevelKind::GlobalBuffer);
  EXPECT_TRUE(gb.partitioned);
  EXPECT_EQ(gb.capacity_bytes, 4096u);                                   // 1 + 2 + 1 KiB
  EXPECT_TRUE(gb.holds.inputs && gb.holds.weights && gb.holds.outputs);  // from the pools
  EXPECT_EQ(gb.sharedBytes(), 1024u);                                    // the smallest pool
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const auto& local = hw.levels[static_cast<size_t>(hw.local_level)];
  EXPECT_EQ(local.pool_of, (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(local.pool_bytes, (std::array<double, 3>{1024, 2048, 1024}));
}

TEST(ScratchpadPools, TheNestSeesTwoPoolsAndTheAccumulator) {
  const arch::Accelerator acc = arch::loadString(
      "name: sp\nclock: 1 GHz\ndram: {bandwidth: 16 B/cycle, latency: 10 cycles}\n"
      "scratchpad: {capacity: {inputs: 1 KiB, weights: 2 KiB}}\naccumulator: {capacity: 4 KiB}\n"
      "array: {rows: 4, cols: 4, dataflows: [ws]}\n",
      "sp.yaml");
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const auto& local = hw.levels[static_cast<size_t>(hw.local_level)];
  EXPECT_EQ(local.pool_of, (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(local.pool_bytes, (std::array<double, 3>{1024, 2048, 4096}));
}

// GEMM 64 x 64 x 64 in INT8: 4 KiB of inputs, 4 KiB of weights, 16 KiB of INT32 sums, so no
// tensor fits whole and the search must tile each to its pool.
TEST(GlobalBufferPools, TheSearchKeepsEachTileInItsPool) {
  const auto p = dataflows::nest::gemmProblem(1, 64, 64, 64);
  const auto nlr = dataflows::loadDataflow("nlr");
  const arch::Accelerator pooled = arch::loadString(design(kPools), "pools.yaml");
  const arch::Accelerator shared = arch::loadString(design("4 KiB"), "shared.yaml");
  Hardware by_hand = dataflows::nest::hardwareOf(shared);
  auto& local = by_hand.levels[static_cast<size_t>(by_hand.local_level)];
  local.pool_of = {0, 1, 2};
  local.pool_bytes = {1024, 2048, 1024};
  const auto split = dataflows::nest::search(p, dataflows::nest::hardwareOf(pooled), nlr.nest, {});
  ASSERT_TRUE(split.ok) << split.reason;
  EXPECT_EQ(dataflows::nest::checkCapacity(p, split.mapping, by_hand), "");
  const auto one = dataflows::nest::search(p, dataflows::nest::hardwareOf(shared), nlr.nest, {});
  ASSERT_TRUE(one.ok) << one.reason;
  EXPECT_NE(dataflows::nest::checkCapacity(p, one.mapping, by_hand), "");
}

}  // namespace
}  // namespace tessel
