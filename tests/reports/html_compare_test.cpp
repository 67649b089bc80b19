// The comparison report against a comparison JSON written by hand in the shape compareJson
// writes: one bar per (workload, dataflow) that ran, with its own cycles and energy.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "reports/html/build.h"
#include "reports/html/tables.h"
#include "tests/reports/svg_marks.h"

namespace {

using tessel::reports::testing::elements;

nlohmann::json run(const std::string& df, double cycles, double energy) {
  return {{"dataflow", df},          {"ok", true},          {"cycles", cycles},
          {"seconds", cycles / 1e9}, {"energy_pj", energy}, {"utilization", 0.5},
          {"dram_bytes", 1024}};
}

std::string comparison() {
  nlohmann::json w1 = {{"workload", "gemm:M=64,K=96,N=80"},
                       {"runs",
                        {run("ws", 1000, 5e6),
                         run("os", 1200, 4e6),
                         {{"dataflow", "rs"}, {"ok", false}, {"reason", "systolic arrays only"}}}},
                       {"winners", {{"latency", "ws"}, {"energy", "os"}}}};
  nlohmann::json w2 = {{"workload", "resnet50"},
                       {"runs", {run("ws", 9000, 7e6), run("os", 8000, 8e6)}},
                       {"winners", {{"latency", "os"}, {"energy", "ws"}}}};
  return nlohmann::json{{"schema_version", 1},
                        {"kind", "compare"},
                        {"tool_version", "0.1.0"},
                        {"arch", {{"name", "gemmini"}, {"hash", "ab"}}},
                        {"dataflows", {"ws", "os", "rs"}},
                        {"workloads", {w1, w2}}}
      .dump();
}

TEST(ReportCompare, OneBarPerRunThatRanWithItsOwnNumbers) {
  const auto r = tessel::reports::html::compareReport(comparison(), "cmp.json");
  const auto& charts = r.sections.at(0).charts;
  ASSERT_EQ(charts.size(), 2u);
  std::map<std::pair<std::string, std::string>, double> cycles, energy;
  for (const auto& m : elements(charts[0].svg, "chart-compare-cycles")) {
    cycles[{m.attrs.at("data-workload"), m.attrs.at("data-dataflow")}] =
        std::stod(m.attrs.at("data-cycles"));
  }
  for (const auto& m : elements(charts[1].svg, "chart-compare-energy")) {
    energy[{m.attrs.at("data-workload"), m.attrs.at("data-dataflow")}] =
        std::stod(m.attrs.at("data-energy_pj"));
  }
  const std::map<std::pair<std::string, std::string>, double> want_cycles = {
      {{"gemm:M=64,K=96,N=80", "ws"}, 1000},
      {{"gemm:M=64,K=96,N=80", "os"}, 1200},
      {{"resnet50", "ws"}, 9000},
      {{"resnet50", "os"}, 8000}};
  EXPECT_EQ(cycles, want_cycles);  // rs refused: no bar
  EXPECT_EQ((energy[{"resnet50", "os"}]), 8e6);
  // One panel per workload, each on its own axis: within a panel heights are proportional to
  // cycles (1200 vs 1000), and each panel's tallest bar is as tall as the other's (9000 and 1200
  // both fill their panel's axis up to its first round tick), not 9000/1200 taller.
  const auto marks = elements(charts[0].svg, "chart-compare-cycles");
  ASSERT_EQ(marks.size(), 4u);
  EXPECT_NEAR(std::stod(marks[1].attrs.at("height")) / std::stod(marks[0].attrs.at("height")), 1.2,
              0.01);
  EXPECT_NEAR(std::stod(marks[3].attrs.at("height")) / std::stod(marks[2].attrs.at("height")),
              8000.0 / 9000, 0.01);
  EXPECT_GT(std::stod(marks[1].attrs.at("height")) / std::stod(marks[2].attrs.at("height")), 0.5);
  EXPECT_EQ(elements(charts[0].svg, "chart-compare-cycles", "g", "panel").size(), 2u);
  const auto* t = r.table("dataflows");
  ASSERT_EQ(t->rows.size(), 5u);
  EXPECT_EQ(t->rows[2][2].exact, "refused");
  EXPECT_EQ(t->rows[2].back().exact, "systolic arrays only");
  EXPECT_NE(r.sections[0].notes[0].text.find("latency best with ws"), std::string::npos);
}

}  // namespace
