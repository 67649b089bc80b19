// The chip by the categories publications use (sim/categories.h): every component in its
// category, the rows summing to the run's area, dynamic power and leakage.
#include "sim/categories.h"

#include <gtest/gtest.h>

namespace tessel {
namespace {

const sim::CategoryRow& rowOf(const std::vector<sim::CategoryRow>& rows, const std::string& c) {
  for (const sim::CategoryRow& r : rows) {
    if (r.category == c) return r;
  }
  static const sim::CategoryRow none{"(absent)"};
  return none;
}

// 1,000,000 cycles at 1 GHz = 1 ms. One op's energy: array 2e9 pJ (2 mJ -> 2 W), register file
// 1e9 pJ (1 W), sfu 5e8 pJ (0.5 W), scratchpad 3e9 pJ (3 W), noc 4e8 pJ (0.4 W), dram 6e9 pJ
// (6 W), host 1e9 pJ (1 W). Silicon: scratchpad 2 mm2 / 10 mW, accumulator 1 mm2 / 5 mW, array
// 3 mm2 / 20 mW, register_file 0.5 mm2 / 1 mW, sfu 0.5 mm2 / 2 mW.
TEST(Categories, EachComponentInItsCategoryByHand) {
  sim::RunStats run;
  run.level_names = {"dram", "scratchpad", "accumulator"};
  run.clock_hz = 1e9;
  sim::OpStats op;
  op.cycles = 1e6;
  op.energy_pj = {{"array", 2e9}, {"register_file", 1e9}, {"sfu", 5e8}, {"scratchpad", 3e9},
                  {"noc", 4e8},   {"dram", 6e9},          {"host", 1e9}};
  run.ops.push_back(op);
  run.area_mm2 = {{"scratchpad", 2}, {"accumulator", 1}, {"array", 3}, {"register_file", 0.5},
                  {"sfu", 0.5}};
  run.leakage_mw = {{"scratchpad", 10}, {"accumulator", 5}, {"array", 20}, {"register_file", 1},
                    {"sfu", 2}};
  const std::vector<sim::CategoryRow> rows = sim::byCategory(run);
  ASSERT_EQ(rows.size(), 5u);  // compute, on-chip memory, noc, dram, host: no "other"
  const sim::CategoryRow& compute = rowOf(rows, "compute");
  EXPECT_DOUBLE_EQ(compute.area_mm2, 4.0);
  EXPECT_DOUBLE_EQ(compute.dynamic_w, 3.5);
  EXPECT_DOUBLE_EQ(compute.leakage_w, 0.023);
  const sim::CategoryRow& memory = rowOf(rows, "on-chip memory");
  EXPECT_DOUBLE_EQ(memory.area_mm2, 3.0);
  EXPECT_DOUBLE_EQ(memory.dynamic_w, 3.0);
  EXPECT_DOUBLE_EQ(memory.leakage_w, 0.015);
  EXPECT_DOUBLE_EQ(rowOf(rows, "noc").dynamic_w, 0.4);
  EXPECT_FALSE(rowOf(rows, "dram").on_die);
  EXPECT_DOUBLE_EQ(rowOf(rows, "dram").dynamic_w, 6.0);
  EXPECT_DOUBLE_EQ(rowOf(rows, "host").dynamic_w, 1.0);
  // The rows add up to the run's own totals.
  double area = 0, power = 0;
  for (const sim::CategoryRow& r : rows) area += r.area_mm2, power += r.dynamic_w + r.leakage_w;
  EXPECT_DOUBLE_EQ(area, run.areaMm2());
  EXPECT_NEAR(power, run.powerW(), 1e-12 * run.powerW());
  // A component no category knows is "other", never silently on-chip memory.
  run.ops[0].energy_pj.emplace_back("mystery", 1e9);
  EXPECT_DOUBLE_EQ(rowOf(sim::byCategory(run), "other").dynamic_w, 1.0);
}

}  // namespace
}  // namespace tessel
