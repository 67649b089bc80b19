// The aggregates in sim/stats.cpp, checked against hand arithmetic on the sample run.
#include <gtest/gtest.h>

#include "reports/breakdown.h"
#include "sample_run.h"

namespace tessel::reports {
namespace {

using sample::sampleRun;

TEST(ReportsStats, NamesAreSnakeCase) {
  EXPECT_EQ(sim::nameOf(sim::Cause::Compute), "compute");
  EXPECT_EQ(sim::nameOf(sim::Cause::FillDrain), "fill_drain");
  EXPECT_EQ(sim::nameOf(sim::Cause::MemoryStall), "memory_stall");
  EXPECT_EQ(sim::nameOf(sim::Cause::Noc), "noc");
  EXPECT_EQ(sim::nameOf(sim::Cause::Sfu), "sfu");
  EXPECT_EQ(sim::nameOf(sim::Cause::Host), "host");
  EXPECT_EQ(sim::nameOf(sim::Operand::Input), "input");
  EXPECT_EQ(sim::nameOf(sim::Operand::Weight), "weight");
  EXPECT_EQ(sim::nameOf(sim::Operand::Output), "output");
  EXPECT_EQ(sim::nameOf(sim::Placement::Array), "array");
  EXPECT_EQ(sim::nameOf(sim::Placement::Fused), "fused");
}

TEST(ReportsStats, EachOpsCausesSumToItsCycles) {
  for (const sim::OpStats& op : sampleRun().ops) {
    double sum = 0;
    for (double c : op.cycles_by_cause) sum += c;
    EXPECT_DOUBLE_EQ(sum, op.cycles) << op.name;
  }
}

TEST(ReportsStats, OpAggregates) {
  const sim::OpStats qkv = sampleRun().ops[0];
  EXPECT_EQ(qkv.traffic[0].total(), 5632);  // 1024 + 4096 + 512
  EXPECT_EQ(qkv.bytesAt("DRAM"), 5632);
  EXPECT_EQ(qkv.bytesAt("Scratchpad"), 15360);  // 2048 + 8192 + 1024 + 4096
  EXPECT_EQ(qkv.bytesAt("L2"), 0);              // a level the op never touches
  EXPECT_DOUBLE_EQ(qkv.energyTotal(), 3000.5);  // 1000.5 + 2000
}

TEST(ReportsStats, RunTotals) {
  const sim::RunStats run = sampleRun();
  EXPECT_DOUBLE_EQ(run.totalCycles(), 2000);  // 1500 + 300 + 0 + 200
  EXPECT_DOUBLE_EQ(run.seconds(), 2e-6);      // 2000 cycles at 1 GHz
  EXPECT_EQ(run.totalMacs(), 19200);
  EXPECT_DOUBLE_EQ(run.energyTotalPj(), 3050.5);  // 3000.5 + 50
  EXPECT_DOUBLE_EQ(run.utilization(), 0.6);       // 19200 / (2000 * 16)
  EXPECT_EQ(run.bytesAt("DRAM"), 6932);           // 5632 + 1300
  EXPECT_EQ(run.bytesAt("Scratchpad"), 15360);
  EXPECT_EQ(dramBytes(run), 6932);  // DRAM is the outermost level
}

TEST(ReportsStats, CyclesByCause) {
  const auto causes = sampleRun().cyclesByCause();
  // compute 1000, fill 200, memory 300, noc 50, sfu 300, host 150: sums to 2000.
  const std::array<double, sim::kNumCauses> expected = {1000, 200, 300, 50, 300, 150};
  EXPECT_EQ(causes, expected);
}

TEST(ReportsStats, CyclesByClassListsAllFifteenInOrder) {
  const auto rows = sampleRun().cyclesByClass();
  ASSERT_EQ(rows.size(), 15u);
  double sum = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(rows[i].first), i);
    sum += rows[i].second;
  }
  EXPECT_DOUBLE_EQ(rows[0].second, 1500);  // MatMul
  EXPECT_DOUBLE_EQ(rows[2].second, 300);   // Softmax
  EXPECT_DOUBLE_EQ(rows[4].second, 0);     // GELU: fused into the MatMul
  EXPECT_DOUBLE_EQ(rows[8].second, 0);     // Layout
  EXPECT_DOUBLE_EQ(rows[14].second, 200);  // Other (embedding)
  EXPECT_DOUBLE_EQ(sum, 2000);
}

TEST(ReportsStats, EmptyRunHasZeroUtilizationNotNan) {
  sim::RunStats run;
  EXPECT_EQ(run.totalCycles(), 0);
  EXPECT_EQ(run.utilization(), 0);
  EXPECT_EQ(dramBytes(run), 0);
}

TEST(ReportsBreakdown, ByClassCountsOpsAndFractions) {
  const auto rows = byClass(sampleRun());
  ASSERT_EQ(rows.size(), 15u);
  EXPECT_EQ(rows[0].ops, 1);
  EXPECT_DOUBLE_EQ(rows[0].fraction, 0.75);  // 1500 / 2000
  EXPECT_EQ(rows[4].ops, 1);                 // the fused GELU still counts as an op
  EXPECT_DOUBLE_EQ(rows[4].fraction, 0);
  EXPECT_DOUBLE_EQ(rows[14].fraction, 0.1);  // Other: 200 / 2000
}

TEST(ReportsBreakdown, ByCauseFractionsSumToOne) {
  double sum = 0;
  for (const CauseRow& row : byCause(sampleRun())) sum += row.fraction;
  EXPECT_DOUBLE_EQ(sum, 1.0);
}

TEST(ReportsBreakdown, TopOpsSkipZeroCycleOpsAndSortDescending) {
  const sim::RunStats run = sampleRun();
  const auto top = topOps(run, 10);
  ASSERT_EQ(top.size(), 3u);  // the fused GELU has no cycles of its own
  EXPECT_EQ(top[0]->name, "h0.attn.qkv");
  EXPECT_EQ(top[1]->name, "h0.softmax");
  EXPECT_EQ(top[2]->name, "embed, tokens");
  EXPECT_EQ(topOps(run, 1).size(), 1u);
  EXPECT_EQ(topOps(run, -1).size(), 3u);
}

}  // namespace
}  // namespace tessel::reports
