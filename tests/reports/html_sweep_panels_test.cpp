// The sweep report's choices: a non-numeric key (dataflow) gets one panel or line per value
// instead of being reduced to its best; `--metric` picks the charts; the latency-energy-area
// front is the brute-force one. Against the fixture's own numbers (sweep_fixture.h).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "reports/html/build.h"
#include "tests/reports/svg_axes.h"
#include "tests/reports/svg_marks.h"
#include "tests/reports/sweep_fixture.h"
#include "util/error.h"

namespace {

using namespace tessel::reports::testing;
using tessel::reports::html::Report;
using tessel::reports::html::ReportOptions;
using tessel::reports::html::sweepReport;

std::string dir(const std::string& name) { return ::testing::TempDir() + "tessel_panels_" + name; }

std::string svgOf(const Report& r, const std::string& id) {
  for (const auto& s : r.sections) {
    for (const auto& c : s.charts) {
      if (c.id == id) return c.svg;
    }
  }
  return "";
}

// The dataflow-swept fixture, one workload; written once.
const std::vector<FixturePoint>& points() {
  static const std::vector<FixturePoint> pts = [] {
    auto p = sweepPoints({"gpt2"}, -1, {"ws", "os"});
    writeSweep(dir("df"), p);
    return p;
  }();
  return pts;
}

TEST(ReportSweepPanels, AStringKeyGetsOneHeatmapPanelPerValueNotItsBest) {
  const auto& pts = points();
  const Report r = sweepReport(dir("df"));
  const std::string fig = svgOf(r, "sweep-0-cycles-heatmap-0-1");
  ASSERT_FALSE(fig.empty());
  for (const auto& [panel, df] : {std::pair{0, "ws"}, {1, "os"}}) {
    const std::string id = "sweep-0-cycles-heatmap-0-1-p" + std::to_string(panel);
    EXPECT_NE(fig.find("id=\"" + id + "\""), std::string::npos);
    EXPECT_NE(fig.find("data-panel=\"dataflow=" + std::string(df) + "\">"), std::string::npos);
    // Each cell: the minimum over seq of this dataflow's points only.
    std::map<std::pair<double, double>, double> want;
    for (const auto& p : pts) {
      if (p.line["params"]["dataflow"] != df) continue;
      const std::pair<double, double> k = {p.line["numeric"]["scratchpad.capacity"],
                                           p.line["numeric"]["accumulator.capacity"]};
      const double c = p.line["metrics"]["cycles"];
      want[k] = want.count(k) ? std::min(want[k], c) : c;
    }
    const auto cells = elements(fig, id);
    ASSERT_EQ(cells.size(), 6u) << id;
    for (const auto& c : cells) {
      EXPECT_EQ(c.attrs.at("data-panel"), "dataflow=" + std::string(df));
      EXPECT_EQ(std::stod(c.attrs.at("data-value")),
                want.at({std::stod(c.attrs.at("data-x")), std::stod(c.attrs.at("data-y"))}));
    }
  }
  EXPECT_EQ(fig.find("-p2\""), std::string::npos);  // two values, two panels
}

TEST(ReportSweepPanels, AStringKeyGetsOneLinePerValueAndOneBarPerValue) {
  const Report r = sweepReport(dir("df"));
  const std::string line = svgOf(r, "sweep-0-energy_pj-line-2");  // against workload.seq
  std::map<std::string, int> per_series;
  for (const auto& m : elements(line, "sweep-0-energy_pj-line-2", "circle"))
    ++per_series[m.attrs.at("data-series")];
  EXPECT_EQ(per_series, (std::map<std::string, int>{{"dataflow=ws", 2}, {"dataflow=os", 2}}));
  const auto bars = elements(svgOf(r, "sweep-0-cycles-panels"), "sweep-0-cycles-panels");
  ASSERT_EQ(bars.size(), 2u);
  // os takes 1.2x the cycles of ws at every point, so its best is 1.2x ws's best.
  EXPECT_NEAR(std::stod(bars[1].attrs.at("data-value")) / std::stod(bars[0].attrs.at("data-value")),
              1.2, 1e-12);
}

TEST(ReportSweepPanels, DefaultMetricsAreLatencyEnergyAndAreaWhenRecorded) {
  points();
  const Report r = sweepReport(dir("df"));
  for (const char* m : {"cycles", "energy_pj", "area_mm2"}) {
    EXPECT_FALSE(svgOf(r, std::string("sweep-0-") + m + "-line-0").empty()) << m;
  }
  EXPECT_TRUE(svgOf(r, "sweep-0-utilization-line-0").empty());
  // Without an area, no area charts.
  writeSweep(dir("plain"), sweepPoints({"gpt2"}));
  const Report plain = sweepReport(dir("plain"));
  EXPECT_FALSE(svgOf(plain, "sweep-0-energy_pj-line-0").empty());
  EXPECT_TRUE(svgOf(plain, "sweep-0-area_mm2-line-0").empty());
}

TEST(ReportSweepPanels, MetricOptionPicksTheChartsAndRejectsAnUnknownName) {
  points();
  const Report r = sweepReport(dir("df"), ReportOptions{{"utilization"}});
  EXPECT_FALSE(svgOf(r, "sweep-0-utilization-line-0").empty());
  EXPECT_TRUE(svgOf(r, "sweep-0-cycles-line-0").empty());
  EXPECT_EQ(r.sections[0].notes[0].data[1].second, "utilization");  // the best note's metric
  try {
    sweepReport(dir("df"), ReportOptions{{"cycles", "watts"}});
    FAIL();
  } catch (const tessel::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--metric watts"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("energy_pj"), std::string::npos) << e.what();
  }
  EXPECT_THROW(
      tessel::reports::html::loadReport(dir("df") + "/sweep.json", ReportOptions{{"cycles"}}),
      tessel::ConfigError);
}

TEST(ReportSweepPanels, LatencyEnergyAreaFrontIsTheBruteForceOne) {
  const auto& pts = points();
  const Report r = sweepReport(dir("df"));
  auto coords = [](const FixturePoint& p) {
    return std::vector<double>{p.line["metrics"]["cycles"], p.line["metrics"]["energy_pj"],
                               p.line["metrics"]["area_mm2"]};
  };
  std::set<std::string> want;
  for (const auto& p : pts) {
    bool dominated = false;
    for (const auto& q : pts) {
      const auto a = coords(q), b = coords(p);
      dominated = dominated || (a[0] <= b[0] && a[1] <= b[1] && a[2] <= b[2] && a != b);
    }
    if (!dominated) want.insert(p.line["index"].dump());
  }
  ASSERT_GT(want.size(), 2u);  // the fixture trades the three off
  ASSERT_LT(want.size(), pts.size());
  std::set<std::string> got_table, got_chart;
  for (const auto& row : r.table("pareto")->rows) {
    if (row[1].exact == "cycles vs energy_pj vs area_mm2") got_table.insert(row[2].exact);
  }
  const auto marks = elements(svgOf(r, "sweep-0-pareto-energy"), "sweep-0-pareto-energy", "circle");
  EXPECT_EQ(marks.size(), pts.size());
  for (const auto& m : marks) {
    if (m.attrs.at("data-front") == "1") got_chart.insert(m.attrs.at("data-index"));
    EXPECT_TRUE(m.attrs.count("fill")) << "coloured by area";
  }
  EXPECT_EQ(got_table, want);
  EXPECT_EQ(got_chart, want);
}

TEST(ReportSweepPanels, TheSweepsOwnFrontAndFindingsFromSummaryJson) {
  writeSweep(dir("summary"), sweepPoints({"gpt2"}, -1, {"ws", "os"}));
  auto write = [](const nlohmann::json& objectives) {
    const nlohmann::json summary = {
        {"schema", "tessel.sweep-summary/1"},
        {"pareto",
         {{"objectives", objectives},
          {"fronts", {{{"workload", "gpt2"}, {"candidates", 24}, {"indices", {0, 5}}}}}}},
        {"notes", {{{"key", "workload.seq"}, {"message", "workload.seq changed no result"}}}}};
    std::ofstream(dir("summary") + "/summary.json") << summary.dump();
  };
  auto fronts = [](const Report& r) {
    std::set<std::string> on;
    for (const auto& m :
         elements(svgOf(r, "sweep-0-pareto-energy"), "sweep-0-pareto-energy", "circle")) {
      if (m.attrs.at("data-front") == "1") on.insert(m.attrs.at("data-index"));
    }
    return on;
  };
  write({{{"metric", "area_mm2"}, {"direction", "min"}},
         {{"metric", "cycles"}, {"direction", "min"}},
         {{"metric", "energy_pj"}, {"direction", "min"}}});
  const Report r = sweepReport(dir("summary"));
  EXPECT_EQ(fronts(r), (std::set<std::string>{"0", "5"}));  // the sweep's verdict, not ours
  ASSERT_EQ(r.sections[0].id, "findings");
  EXPECT_EQ(r.sections[0].notes[0].text, "workload.seq changed no result");
  // A front of other objectives is only a note; the chart's front is computed here.
  write({{{"metric", "cycles"}, {"direction", "min"}},
         {{"metric", "utilization"}, {"direction", "max"}}});
  EXPECT_GT(fronts(sweepReport(dir("summary"))).size(), 2u);
}

// The shipped SRAM sweep's case: cycles 0.002% apart (host softmax dominates). The lines are
// drawn from 0, unbroken, and a note says how flat they are; energy zooms with a break.
TEST(ReportSweepPanels, ANearlyFlatMetricIsDrawnFromZeroAndSaidToBe) {
  auto pts = sweepPoints({"gpt2"});
  for (auto& p : pts) {
    p.line["metrics"]["cycles"] = 1.52e9 + 1000.0 * p.line["index"].get<double>();
    p.line["metrics"]["energy_pj"] = 8e11 + 2e10 * (p.line["index"].get<int>() % 12);
  }
  writeSweep(dir("flat"), pts);
  const Report r = sweepReport(dir("flat"));
  std::string range;
  for (const auto& n : r.sections[0].notes) {
    if (n.id == "sweep-0-cycles-range") range = n.text;
  }
  EXPECT_NE(range.find("differ by 0.00072% at most"), std::string::npos) << range;
  EXPECT_NE(range.find("nearly flat"), std::string::npos) << range;
  auto yAxis = [&](const std::string& id) {
    const auto g = groups(svgOf(r, id), "axis y");
    return g.empty() ? std::map<std::string, std::string>{} : g[0].attrs;
  };
  EXPECT_EQ(yAxis("sweep-0-cycles-line-0").at("data-axis-min"), "0");
  EXPECT_EQ(yAxis("sweep-0-cycles-line-0").at("data-axis-break"), "false");
  // Best energy per scratchpad size: 800, 880 and 960 mJ, 17% apart: zoomed, with a break.
  EXPECT_EQ(yAxis("sweep-0-energy_pj-line-0").at("data-axis-break"), "true");
}

}  // namespace
