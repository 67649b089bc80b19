// SCALE-Sim's closed forms by hand, the knobs' directions, and knob errors.
#include "sim/scalesim/fold_timing.h"

#include <gtest/gtest.h>

#include "sim/scalesim/knobs.h"
#include "util/error.h"

namespace tessel::sim::scalesim {
namespace {

TEST(ScaleSimFoldTiming, OsByHand) {
  // conv 28x28, 3x3, C=16, 32 filters, stride 1 on 32x32: M = 26*26 = 676, N = 32, K = 144.
  // os: Sr = 676 -> ceil(676/32) = 22 row folds, Sc = 32 -> 1 col fold; a fold is
  // T + R + C - 2 = 144 + 62 = 206 lines; Total = 22 * 206 - 1 = 4531 (SCALE-Sim: 4531).
  const FoldTiming f = foldTiming(Flow::Os, 676, 32, 144, 32, 32, Knobs{});
  EXPECT_EQ(f.row_folds, 22);
  EXPECT_EQ(f.col_folds, 1);
  EXPECT_EQ(f.fold_cycles, 206);
  EXPECT_EQ(f.total_cycles, 4531);
  // 21 full folds + one of 4 rows: (21 + 4/32) / 22 = 0.9602272727...
  EXPECT_DOUBLE_EQ(f.mapping_efficiency, (21 + 4.0 / 32) / 22);
}

TEST(ScaleSimFoldTiming, WsByHand) {
  // AlexNet conv1 (SCALE-Sim's golden trace): 227x227, 11x11, C=3, 96 filters, stride 4 on
  // 32x32: E = 55, M = 3025, K = 363, N = 96. ws: Sr = K = 363 -> 12 row folds, Sc = 96 ->
  // 3 col folds, T = M = 3025; a fold is T + 2R + C - 2 = 3119; Total = 36 * 3119 - 1 = 112283,
  // the golden COMPUTE_REPORT's. Compute util: 363*96*3025 / (36 * 1024 * (T + 2R + 2C - 3)).
  const FoldTiming f = foldTiming(Flow::Ws, 3025, 96, 363, 32, 32, Knobs{});
  EXPECT_EQ(f.total_cycles, 112283);
  EXPECT_DOUBLE_EQ(f.mapping_efficiency, 0.9453125);
  EXPECT_NEAR(f.compute_utilization * 100, 90.78000992063492, 1e-12);
  EXPECT_EQ(f.ifmap_sram_reads, 3294225);   // golden DETAILED_ACCESS_REPORT
  EXPECT_EQ(f.filter_sram_reads, 34848);
  EXPECT_EQ(f.ofmap_sram_writes, 3484800);
}

TEST(ScaleSimFoldTiming, IsByHand) {
  // gemm M=7, N=5, K=3 on 16x8: is: Sr = K = 3, Sc = M = 7, T = N = 5: one fold of
  // T + 2R + C - 2 = 5 + 32 + 8 - 2 = 43 lines; Total = 42 (SCALE-Sim: 42).
  EXPECT_EQ(foldTiming(Flow::Is, 7, 5, 3, 16, 8, Knobs{}).total_cycles, 42);
}

TEST(ScaleSimFoldTiming, KnobsMoveCyclesTheExpectedWay) {
  for (Flow flow : {Flow::Os, Flow::Ws, Flow::Is}) {
    for (int64_t dim : {4, 16}) {
      Knobs scalesim, overlap, drain;
      overlap.fold_overlap = true;
      drain.tessel_drain = true;
      const auto base = foldTiming(flow, 676, 32, 144, dim, dim, scalesim).total_cycles;
      // Overlapping folds hides fill and drain: never slower, faster with several folds.
      EXPECT_LT(foldTiming(flow, 676, 32, 144, dim, dim, overlap).total_cycles, base);
      EXPECT_EQ(foldTiming(flow, 4, 4, 4, 4, 4, overlap).total_cycles,
                foldTiming(flow, 4, 4, 4, 4, 4, scalesim).total_cycles);  // one fold
      // tessel's tile drains longer (os: R more cycles plus the edge register; ws/is: +1).
      EXPECT_GT(foldTiming(flow, 676, 32, 144, dim, dim, drain).total_cycles, base);
    }
  }
}

TEST(ScaleSimKnobs, ParseAndReject) {
  EXPECT_FALSE(parseKnobs({}).fold_overlap);
  EXPECT_TRUE(parseKnobs(splitKnobs("fold_overlap=on")).fold_overlap);
  const Knobs k = parseKnobs(splitKnobs("drain=tessel,memory=tessel,other_ops=tessel"));
  EXPECT_TRUE(k.tessel_drain && k.memory_stalls && !k.other_ops_zero);
  for (const char* bad : {"fold_overlap=maybe", "fold_overlp=on", "fold_overlap", "=on"}) {
    try {
      parseKnobs(splitKnobs(bad));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.where().yaml_path, "--scalesim-timing") << bad;
    }
  }
  EXPECT_THROW(flowOf("rs"), ConfigError);
}

}  // namespace
}  // namespace tessel::sim::scalesim
