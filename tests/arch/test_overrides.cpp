// -p overrides on accelerator files: applied before validation, located at the option.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tiny.h"

namespace tessel::arch {
namespace {

using testing::loadError;

const std::string kGemmini = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";

TEST(ArchOverrideTest, ChangesTheValue) {
  const Accelerator a = loadFile(kGemmini, {"accumulator.capacity=256KiB"});
  EXPECT_EQ(a.level(LevelKind::Accumulator)->capacity_bytes, 262144u);  // 256 x 1024
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->capacity_bytes, 262144u);   // untouched
}

TEST(ArchOverrideTest, ListsItemsAndWholeSections) {
  const Accelerator a = loadFile(
      kGemmini, {"array.dataflows[1]=is", "sfu={ops: [gelu, softmax], lanes: 8}", "clock=2 GHz"});
  EXPECT_EQ(a.array.dataflows, (std::vector<std::string>{"ws", "is"}));
  ASSERT_TRUE(a.sfu.has_value());
  EXPECT_EQ(a.sfu->lanes, 8);
  EXPECT_DOUBLE_EQ(a.clock_hz, 2e9);
  EXPECT_DOUBLE_EQ(a.levels[0].latency, 200);  // "100 ns" re-converted at the new 2 GHz
}

TEST(ArchOverrideTest, NullRemovesAKeySoASweepCanTakeOutAnSfu) {
  const std::string survey = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-survey-model.yaml";
  ASSERT_TRUE(loadFile(survey).sfu.has_value());
  EXPECT_FALSE(loadFile(survey, {"sfu=null"}).sfu.has_value());
  EXPECT_FALSE(loadFile(survey, {"sfu=~"}).sfu.has_value());
  // A required key removed is reported as missing, at the file.
  EXPECT_THROW(loadFile(kGemmini, {"clock=null"}), ConfigError);
}

TEST(ArchOverrideTest, LaterOverridesWin) {
  const Accelerator a = loadFile(kGemmini, {"scratchpad.banks=8", "scratchpad.banks=2"});
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->banks, 2);
}

TEST(ArchOverrideTest, AppliedBeforeValidation) {
  // 256 B cannot hold a tile; the override makes the file valid before anything checks it.
  EXPECT_NO_THROW(loadString(testing::tinyWith(7, "  capacity: 256 B"), "tiny.yaml",
                             {"scratchpad.capacity=1KiB"}));
}

TEST(ArchOverrideTest, ReachesSectionsThatExistByDefault) {
  // kTiny has no host:, dma: or noc: section; their defaults still take -p.
  const Accelerator a =
      loadString(testing::join(testing::kTiny), "tiny.yaml",
                 {"host.clock=3 GHz", "host.link.latency=10 cycles", "dma.max_inflight=4"});
  EXPECT_DOUBLE_EQ(a.host.clock_hz, 3e9);
  EXPECT_DOUBLE_EQ(a.host.link_latency, 10);
  EXPECT_EQ(a.dma.max_inflight, 4);
  EXPECT_DOUBLE_EQ(a.host.flops, 32e9);  // the rest keep their defaults
  // Sections with required parameters must be given whole.
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"l2.capacity=1MiB"}),
            "<-p l2.capacity=1MiB>: at 'l2': unknown key 'l2' in the top level (a missing "
            "section can be given whole: -p 'l2={...}')");
}

TEST(ArchOverrideTest, UnknownPathIsAnErrorWithASuggestion) {
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"acumulator.capacity=1KiB"}),
            "<-p acumulator.capacity=1KiB>: at 'acumulator': unknown key 'acumulator' in the top "
            "level; did you mean 'accumulator'?");
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"accumulator.capcity=1KiB"}),
            "<-p accumulator.capcity=1KiB>: at 'accumulator.capcity': unknown key 'capcity' in "
            "'accumulator'; did you mean 'capacity'?");
}

TEST(ArchOverrideTest, BadValuesAndFailedChecksNameTheOption) {
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"accumulator.capacity=lots"}),
            "<-p accumulator.capacity=lots>: at 'accumulator.capacity': expected a size like "
            "'256 KiB', got 'lots'");
  EXPECT_EQ(loadError(testing::join(testing::kTiny),
                      {"accumulator.row_width=64B", "accumulator.capacity=500B"}),
            "<-p accumulator.capacity=500B>: at 'accumulator.capacity': capacity 500 B is not a "
            "whole number of rows across the banks (2 banks x 64 B)");
  // Below the smallest rate that keeps times finite: rejected where it was given.
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"dram.bandwidth=1e-300 B/cycle"}),
            "<-p dram.bandwidth=1e-300 B/cycle>: at 'dram.bandwidth': must be 0 or at least "
            "1e-06 B/cycle, got '1e-300 B/cycle' (1e-300 B/cycle): so small a value makes "
            "times and rates degenerate");
  EXPECT_THAT(
      loadError(testing::join(testing::kTiny), {"scratchpad.capacity=9223372036854775808 B"}),
      ::testing::HasSubstr("must be at most 1.1259e+15 B (1 PiB)"));
  EXPECT_THAT(loadError(testing::join(testing::kTiny), {"array.rows=2000000"}),
              ::testing::HasSubstr("must be at most 1.04858e+06"));
  EXPECT_THAT(loadError(testing::join(testing::kTiny), {"array.dataflows[5]=is"}),
              ::testing::HasSubstr("index 5 is out of range"));
}

}  // namespace
}  // namespace tessel::arch
