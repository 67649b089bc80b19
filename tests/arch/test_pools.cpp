// A global buffer split per tensor: each pool is a buffer of its own, so the split buffer's
// silicon is the sum of three one-pool buffers of the pools' sizes, each loaded on its own; and
// the splits tessel cannot model are refused at the value.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "tests/arch/tiny.h"

namespace tessel::arch {
namespace {

using testing::loadError;

std::string design(const std::string& buffer) {
  return "name: pools\n"
         "clock: 1 GHz\n"
         "dram: {bandwidth: 16 B/cycle, latency: 10 cycles}\n"
         "global_buffer: " +
         buffer +
         "\n"
         "array: {kind: spatial, rows: 4, cols: 4, dataflows: [nlr]}\n";
}

double componentOf(const std::vector<std::pair<std::string, double>>& parts) {
  for (const auto& [name, v] : parts) {
    if (name == "global_buffer") return v;
  }
  ADD_FAILURE() << "no global_buffer component";
  return 0;
}

const StorageLevel& buffer(const Accelerator& acc) { return *acc.level(LevelKind::GlobalBuffer); }

TEST(GlobalBufferPools, SiliconIsThreeBuffersOfThePoolsSizes) {
  const std::string rows = ", banks: 2, row_width: 64 B}";
  const Accelerator split = loadString(
      design("{capacity: {inputs: 2 KiB, weights: 32 KiB, outputs: 2 KiB}" + rows), "split.yaml");
  double area = 0, leakage = 0, macros = 0;
  for (const char* size : {"2 KiB", "32 KiB", "2 KiB"}) {
    const Accelerator one =
        loadString(design(std::string("{capacity: ") + size + rows), "one.yaml");
    area += componentOf(one.silicon.area_mm2);
    leakage += componentOf(one.silicon.leakage_mw);
    for (const auto& s : one.silicon.sram) macros += s.component == "global_buffer" ? s.macros : 0;
  }
  EXPECT_NEAR(componentOf(split.silicon.area_mm2), area, 1e-12);
  EXPECT_NEAR(componentOf(split.silicon.leakage_mw), leakage, 1e-12);
  double split_macros = 0;
  for (const auto& s : split.silicon.sram)
    split_macros += s.component == "global_buffer" ? s.macros : 0;
  EXPECT_EQ(split_macros, macros);
  // The 2 KiB pools are small macros, mostly periphery: three buffers cost more silicon than
  // one of 36 KiB.
  const Accelerator whole = loadString(design("{capacity: 36 KiB" + rows), "whole.yaml");
  EXPECT_GT(componentOf(split.silicon.area_mm2), componentOf(whole.silicon.area_mm2));
  // An access reads the pool that holds the tensor: a 2 KiB pool's byte costs less than the
  // 32 KiB pool's.
  EXPECT_LT(buffer(split).readPj(0), buffer(split).readPj(1));
}

TEST(GlobalBufferPools, AGlobalBufferGivesEveryTensorAPool) {
  EXPECT_THAT(
      loadError(design("{capacity: {inputs: 2 KiB, weights: 2 KiB}, bandwidth: 8 B/cycle}")),
      ::testing::HasSubstr(
          "at 'global_buffer.capacity': global_buffer.capacity gives [inputs, weights] a "
          "pool; a global buffer without a bypass path holds all three tensors"));
  EXPECT_THAT(
      loadError(design("{capacity: {inputs: 2 KiB, weights: 2 KiB}, bandwidth: 8 B/cycle, "
                       "holds: [inputs, weights, outputs]}")),
      ::testing::HasSubstr("global_buffer holds outputs but its capacity gives them no pool"));
}

TEST(GlobalBufferPools, EachPoolIsWholeRowsAcrossItsBanks) {
  const std::string error = loadError(design(
      "{capacity: {inputs: 192 B, weights: 2 KiB, outputs: 2 KiB}, banks: 2, row_width: 64 B}"));
  EXPECT_THAT(error, ::testing::HasSubstr(
                         "tiny.yaml:4:17: at 'global_buffer.capacity': the inputs pool's 192 B "
                         "is not a whole number of rows across the banks "
                         "(2 banks x 64 B)"));
}

// A scratchpad split per tensor (ShiDianNao's NBin and SB) beside an accumulator: its pools are
// inputs and weights, the accumulator keeps the outputs.
std::string scratchpadDesign(const std::string& capacity) {
  return "name: split-scratchpad\n"
         "clock: 1 GHz\n"
         "dram: {bandwidth: 16 B/cycle, latency: 10 cycles}\n"
         "scratchpad: {capacity: " +
         capacity +
         ", banks: 2}\n"
         "accumulator: {capacity: 4 KiB}\n"
         "array: {rows: 4, cols: 4, dataflows: [ws]}\n";
}

TEST(ScratchpadPools, InputsAndWeightsEachGetABufferAndTheAccumulatorTheOutputs) {
  const Accelerator acc =
      loadString(scratchpadDesign("{inputs: 1 KiB, weights: 2 KiB}"), "split.yaml");
  const StorageLevel& sp = *acc.level(LevelKind::Scratchpad);
  EXPECT_TRUE(sp.partitioned);
  EXPECT_TRUE(sp.holds.inputs && sp.holds.weights && !sp.holds.outputs);
  EXPECT_EQ(sp.capacity_bytes, 3072u);
  EXPECT_EQ(sp.sharedBytes(), 1024u);
  // Without pools the scratchpad still holds inputs and weights by default.
  const Accelerator one = loadString(scratchpadDesign("3 KiB"), "one.yaml");
  EXPECT_TRUE(one.level(LevelKind::Scratchpad)->holds.weights);
  EXPECT_FALSE(one.level(LevelKind::Scratchpad)->holds.outputs);
  EXPECT_THAT(loadError(scratchpadDesign("{inputs: 1 KiB, outputs: 2 KiB}")),
              ::testing::HasSubstr("scratchpad.capacity gives [inputs, outputs] a pool; a "
                                   "scratchpad's pools are inputs and weights"));
}

}  // namespace
}  // namespace tessel::arch
