// Impossible combinations of individually valid values. Line numbers refer to kTiny (tiny.h):
// a 16x16 array of int8 inputs/weights with int32 accumulation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tiny.h"

namespace tessel::arch {
namespace {

using testing::loadError;
using ::testing::StartsWith;
using testing::tinyPlus;
using testing::tinyWith;

std::vector<std::string> warningsOf(const std::string& yaml,
                                    const std::vector<std::string>& overrides = {}) {
  return loadString(yaml, "tiny.yaml", overrides).warnings;
}

// A design that cannot hold one full array tile still maps (partial tiles): a warning, located.
TEST(ArchCrossCheckTest, ScratchpadSmallerThanOneArrayTile) {
  // One tile of inputs and weights: 16 x 16 x (1 + 1) B = 512 B > 256 B. 256 B is a whole
  // number of 4 x 16 B rows, so the row check passes first.
  EXPECT_EQ(warningsOf(tinyWith(7, "  capacity: 256 B")),
            std::vector<std::string>{
                "tiny.yaml:7:13: at 'scratchpad.capacity': scratchpad capacity 256 B cannot hold "
                "one 16x16 array tile of inputs and weights (512 B): ops map to partial tiles "
                "and part of the array idles"});
  EXPECT_TRUE(warningsOf(testing::join(testing::kTiny)).empty());
}

TEST(ArchCrossCheckTest, AccumulatorSmallerThanOneTileOfOutputs) {
  // 16 x 16 x int32 = 1 KiB > 512 B (= 4 rows in each of the 2 banks of 64 B rows).
  EXPECT_EQ(warningsOf(tinyWith(10, "  capacity: 512 B")),
            std::vector<std::string>{
                "tiny.yaml:10:13: at 'accumulator.capacity': accumulator capacity 512 B cannot "
                "hold one 16x16 array tile of outputs (1 KiB): ops map to partial tiles and part "
                "of the array idles"});
}

TEST(ArchCrossCheckTest, ParametersWithoutAnEffectYetAreWarnedAbout) {
  const auto w = warningsOf(testing::join(testing::kTiny), {"scratchpad.latency=5 cycles"});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "<-p scratchpad.latency=5 cycles>: at 'scratchpad.latency': scratchpad.latency is read "
            "but not modeled by the analytical engine yet: it does not change any result");
  // The NoC and the PE register files are modeled by the loop-nest cost model: no warning.
  EXPECT_TRUE(warningsOf(testing::join(testing::kTiny),
                         {"noc.multicast=true", "noc.reduction=true", "noc.kind=bus",
                          "array.register_file={weights: 64 B}"})
                  .empty());
}

TEST(ArchCrossCheckTest, HoldsIsAPlacementOrAnError) {
  // The scratchpad may drop weights (they stream into the array, TPU-like), never take outputs.
  EXPECT_NO_THROW(
      loadString(testing::join(testing::kTiny), "tiny.yaml", {"scratchpad.holds=[inputs]"}));
  EXPECT_THAT(loadError(testing::join(testing::kTiny), {"scratchpad.holds=[outputs]"}),
              ::testing::HasSubstr("at 'scratchpad.holds': scratchpad.holds [outputs] is not a "
                                   "placement tessel models"));
  EXPECT_THAT(loadError(testing::join(testing::kTiny), {"accumulator.holds=[inputs, outputs]"}),
              ::testing::HasSubstr("accumulator.holds [inputs, outputs] is not a placement"));
}

TEST(ArchCrossCheckTest, AccumulatorRowsMustTakeOneArrayRowOfOutputs) {
  // One array row of outputs is 16 cols x 4 B = 64 B.
  EXPECT_EQ(loadError(tinyWith(11, "  row_width: 32 B")),
            "tiny.yaml:11:14: at 'accumulator.row_width': row_width 32 B is narrower than one "
            "array row of outputs (16 cols x int32 = 64 B); leave row_width out to derive it from "
            "array.cols");
  EXPECT_EQ(loadError(tinyWith(11, "  row_width: 66 B")),  // 66 = 16.5 int32 values
            "tiny.yaml:11:14: at 'accumulator.row_width': row_width 66 B is not a whole number "
            "of int32 elements");
}

TEST(ArchCrossCheckTest, CapacityMustBeWholeRowsInEveryBank) {
  // 1000 B over 4 banks of 16 B rows = 15.6 rows per bank: with the row width given as well,
  // the user's two numbers disagree.
  EXPECT_EQ(loadError(tinyWith(7, "  capacity: 1000 B"), {"scratchpad.row_width=16B"}),
            "tiny.yaml:7:13: at 'scratchpad.capacity': capacity 1000 B is not a whole number of "
            "rows across the banks (4 banks x 16 B)");
}

TEST(ArchCrossCheckTest, LessThanOneRowPerBankIsAnError) {
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"accumulator.capacity=64B"}),
            "<-p accumulator.capacity=64B>: at 'accumulator.capacity': capacity 64 B is less than "
            "one row in every bank (2 banks x 64 B = 128 B)");
}

TEST(ArchCrossCheckTest, ADerivedRowWidthUsesWholeRows) {
  // row_width left out: 14 cols x int8 = 14 B, 4 banks = 56 B stripes; 1 KiB holds 18 whole
  // stripes = 1008 B, used, with a warning. (Given explicitly, the same numbers are an error.)
  const std::string yaml = testing::join(testing::kTiny);
  const auto acc = loadString(yaml, "tiny.yaml",
                              {"scratchpad={capacity: 1KiB, banks: 4}", "array.cols=14",
                               "accumulator={capacity: 2KiB, banks: 2}"});
  EXPECT_EQ(acc.level(LevelKind::Scratchpad)->capacity_bytes, 1008u);
  ASSERT_FALSE(acc.warnings.empty());
  EXPECT_THAT(acc.warnings[0], ::testing::HasSubstr("1008 B in whole rows is used"));
}

TEST(ArchCrossCheckTest, DataflowTheArrayDoesNotSupport) {
  // 'rs' is the second item of line 15, at column 19.
  EXPECT_EQ(loadError(tinyWith(15, "  dataflows: [ws, rs]")),
            "tiny.yaml:15:19: at 'array.dataflows[1]': a systolic array cannot run dataflow 'rs'; "
            "systolic arrays support ws, os, is (kind: spatial runs all five)");
  std::string spatial = tinyPlus({"  kind: spatial"});
  spatial.replace(spatial.find("[ws, os]"), 8, "[ws, rs]");
  EXPECT_NO_THROW(loadString(spatial, "tiny.yaml"));
}

TEST(ArchCrossCheckTest, NeitherScratchpadPlusAccumulatorNorGlobalBuffer) {
  auto lines = testing::kTiny;
  for (int n = 6; n <= 11; ++n) lines[n - 1] = "# removed";
  // Reported at the top-level mapping, which starts at line 1, column 1.
  EXPECT_EQ(loadError(testing::join(lines)),
            "tiny.yaml:1:1: no local memory: give scratchpad + accumulator (Gemmini-like) or "
            "global_buffer (Eyeriss-like)");
}

TEST(ArchCrossCheckTest, BothMemoryFormsAtOnce) {
  EXPECT_EQ(loadError(tinyPlus({"global_buffer: {capacity: 64 KiB, bandwidth: 32 B/cycle}"})),
            "tiny.yaml:16:1: at 'global_buffer': give either scratchpad + accumulator "
            "(Gemmini-like) or global_buffer (Eyeriss-like), not both");
}

TEST(ArchCrossCheckTest, ScratchpadWithoutAccumulator) {
  auto lines = testing::kTiny;
  for (int n = 9; n <= 11; ++n) lines[n - 1] = "# removed";
  EXPECT_THAT(loadError(testing::join(lines)),
              StartsWith("tiny.yaml:6:1: at 'scratchpad': a scratchpad needs an accumulator"));
}

TEST(ArchCrossCheckTest, AccumulatorDtypeMustMatchTheArray) {
  EXPECT_EQ(loadError(tinyWith(11, "  dtype: int16")),
            "tiny.yaml:11:10: at 'accumulator.dtype': accumulator dtype 'int16' differs from "
            "array.accum_dtype 'int32'");
}

TEST(ArchCrossCheckTest, ThroughputMustCoverTheInputDtype) {
  // A flow mapping is located at its key: line 16, column 3.
  EXPECT_EQ(loadError(tinyPlus({"  throughput: {fp16: 0.5}"})),
            "tiny.yaml:16:3: at 'array.throughput': throughput gives no MAC rate for "
            "array.input_dtype 'int8'");
  const std::string zero = "  throughput: {int8: 0}";
  EXPECT_EQ(loadError(tinyPlus({zero})),
            "tiny.yaml:16:" + std::to_string(testing::col(zero, "0}")) +
                ": at 'array.throughput.int8': must be greater than zero (leave out dtypes the "
                "array cannot run)");
}

TEST(ArchCrossCheckTest, GlobalBufferNeedsABandwidth) {
  auto lines = testing::kTiny;
  for (int n = 6; n <= 11; ++n) lines[n - 1] = "# removed";
  lines.push_back("global_buffer: {capacity: 64 KiB}");  // line 16; no row_width, no bandwidth
  EXPECT_EQ(loadError(testing::join(lines)),
            "tiny.yaml:16:1: at 'global_buffer': global_buffer needs 'bandwidth' when it has no "
            "row_width");
}

}  // namespace
}  // namespace tessel::arch
