// The axis rules, checked on the SVG's data attributes rather than on a screenshot: value axes
// start at 0 or carry a visible break, their unit prefix matches their ticks, and every stacked
// chart has a legend listing each series. First the rules themselves on hand-made data, then
// every chart of every kind of report.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/html/build.h"
#include "reports/html/html_report.h"
#include "reports/html/svg_axis.h"
#include "reports/json.h"
#include "tests/reports/sample_run.h"
#include "tests/reports/svg_axes.h"
#include "tests/reports/sweep_fixture.h"

namespace {

using namespace tessel::reports::html;
using namespace tessel::reports::testing;
using svgparts::valueAxis;

TEST(ReportAxes, ATinySpreadIsDrawnFromZeroNotZoomedIntoAV) {
  // The shipped SRAM sweep's cycles: 0.002% apart. From 0, unbroken.
  const auto a = valueAxis(1.52e9, 1.52003e9, 300, 20, metricUnit("cycles"));
  EXPECT_EQ(a.lo, 0);
  EXPECT_FALSE(a.broken);
  EXPECT_GE(a.hi, 1.52003e9);
  EXPECT_EQ(a.shown.name, "G cycles");
  EXPECT_EQ(a.shown.factor, 1e9);
}

TEST(ReportAxes, AVisibleSpreadFarFromZeroZoomsWithABreak) {
  const auto a = valueAxis(100, 130, 300, 20, metricUnit("cycles"));
  EXPECT_TRUE(a.broken);
  EXPECT_GT(a.lo, 0);
  EXPECT_LE(a.lo, 100);
  EXPECT_GE(a.hi, 130);
  // Values spread over more than 40% of the largest need no zoom: from 0.
  EXPECT_EQ(valueAxis(10, 100, 300, 20, metricUnit("cycles")).lo, 0);
  // Bars never break: their length is the value.
  EXPECT_EQ(valueAxis(100, 130, 300, 20, metricUnit("cycles"), false).lo, 0);
}

TEST(ReportAxes, UnitPrefixFollowsTheRange) {
  EXPECT_EQ(showUnit(metricUnit("energy_pj"), 5e11).name, "mJ");  // 0.5 J
  EXPECT_EQ(showUnit(metricUnit("energy_pj"), 5e11).factor, 1e9);
  EXPECT_EQ(showUnit(metricUnit("energy_pj"), 3050).name, "nJ");
  EXPECT_EQ(showUnit(metricUnit("seconds"), 0.0026).name, "ms");
  EXPECT_EQ(showUnit(metricUnit("seconds"), 120).name, "s");  // not "ks"
  EXPECT_EQ(showUnit(metricUnit("sram_bytes"), 3 * 1048576.0).name, "MiB");
  EXPECT_EQ(showUnit(metricUnit("utilization"), 0.5).name, "%");
  EXPECT_EQ(showUnit(metricUnit("area_mm2"), 12).name, "mm\u00b2");
  EXPECT_EQ(unitText(metricUnit("energy_pj"), 5.377e11), "538 mJ");
  EXPECT_EQ(unitText(metricUnit("cycles"), 1522595153.65), "1.52 G cycles");
  EXPECT_EQ(unitText(metricUnit("area_mm2"), 0.081193472), "0.0812 mm\u00b2");
  EXPECT_EQ(unitText(metricUnit("utilization"), 0.15379), "15.4%");
}

TEST(ReportAxes, AnEnergyAxisInMillijoulesSaysMillijoules) {
  LinePlot p;
  p.id = "lp";
  p.unit = metricUnit("energy_pj");
  p.x_ticks = {"a", "b"};
  p.series = {{"energy", "#000", {{0, {1e11, "a", {}}}, {1, {5e11, "b", {}}}}}};
  const std::string svg = linePlotSvg(p);
  EXPECT_EQ(checkValueAxes(svg, "lp"), 1);
  EXPECT_NE(svg.find("energy (mJ)"), std::string::npos);
  EXPECT_NE(svg.find("data-tick=\"5e+11\">500</text>"), std::string::npos) << svg;
  // The checker itself catches a wrong unit: the same axis claiming pJ fails.
  std::string wrong = svg;
  wrong.replace(wrong.find("data-axis-unit=\"mJ\""), 19, "data-axis-unit=\"pJ\"");
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter catcher(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    checkValueAxes(wrong, "wrong");
  }
  EXPECT_EQ(failures.size(), 2) << "the factor and the title disagree with pJ";
}

TEST(ReportAxes, StackedBarsListEverySeriesTheyDrawAndNoOther) {
  StackedBars c;
  c.id = "sb";
  c.unit = metricUnit("cycles");
  c.legend = {{"compute", "#0f0"}, {"host", "#333"}, {"noc", "#f80"}};  // noc draws nothing
  c.rows = {{"a", {{"compute", "#0f0", {10, "", {}}}, {"noc", "#f80", {0, "", {}}}}},
            {"b", {{"host", "#333", {5, "", {}}}, {"sfu", "#60f", {2, "", {}}}}}};
  const std::string svg = stackedBarsSvg(c);
  EXPECT_EQ(checkStackedLegends(svg, "sb"), 1);
  EXPECT_NE(svg.find("data-series=\"sfu\"><rect"), std::string::npos);  // added though unlisted
  EXPECT_EQ(svg.find("data-series=\"noc\"><rect"), std::string::npos);
}

std::string html(const Report& r) { return htmlReport(r); }

std::string runJson(bool with_area) {
  auto doc =
      nlohmann::json::parse(tessel::reports::toJsonString(tessel::reports::sample::sampleRun()));
  doc["totals"]["area_mm2"] = 0.0;  // whatever the sample's design has
  doc["totals"]["area_by_component"] = nlohmann::json::object();
  if (with_area) {
    doc["totals"]["area_mm2"] = 1.5;
    doc["totals"]["area_by_component"] = {{"scratchpad", 0.5}, {"array", 1.0}};
    doc["totals"]["static_energy_pj"] = 40.0;
    doc["totals"]["static_energy_by_component"] = {{"scratchpad", 30.0}, {"array", 10.0}};
    doc["totals"]["energy_by_component"]["static"] = 40.0;
  }
  return doc.dump();
}

TEST(ReportAxes, EveryChartOfARunReport) {
  for (const bool area : {false, true}) {
    const std::string h = html(runReport(runJson(area), "run.json"));
    EXPECT_GE(checkValueAxes(h, "run"), area ? 6 : 5);
    // class, cause, class x cause, energy, traffic, power by category (and area)
    EXPECT_EQ(checkStackedLegends(h, "run"), area ? 7 : 6);
  }
}

TEST(ReportAxes, EveryChartOfASweepReportWithAStringKey) {
  const std::string dir = ::testing::TempDir() + "tessel_axes_sweep";
  writeSweep(dir, sweepPoints({"gpt2", "bert"}, 3, {"ws", "os"}));
  const std::string h = html(sweepReport(dir));
  // Per workload: 3 metrics (cycles, energy, area) x (3 key pairs x 2 dataflow panels of
  // heatmap colour scales, 3 lines, 1 bar chart), the breakdown, and 3 fronts (area, SRAM,
  // energy) of 2 axes each plus the area colour scale.
  EXPECT_EQ(checkValueAxes(h, "sweep"), 2 * (3 * (3 * 2 + 3 + 1) + 1 + 7));
  EXPECT_EQ(checkStackedLegends(h, "sweep"), 2);
}

TEST(ReportAxes, EveryChartOfACompareAndAServeReport) {
  auto run = [](const std::string& df, double cycles, double energy) {
    return nlohmann::json{{"dataflow", df},          {"ok", true},          {"cycles", cycles},
                          {"seconds", cycles / 1e9}, {"energy_pj", energy}, {"utilization", 0.5},
                          {"dram_bytes", 1024}};
  };
  const nlohmann::json doc = {
      {"schema_version", 1},
      {"kind", "compare"},
      {"arch", {{"name", "g"}, {"hash", "h"}}},
      {"dataflows", {"ws", "os"}},
      {"workloads",
       {{{"workload", "resnet50"}, {"runs", {run("ws", 4.1e9, 9e11), run("os", 4.3e9, 8e11)}}},
        {{"workload", "gpt2"}, {"runs", {run("ws", 2e6, 3e8), run("os", 2.2e6, 2e8)}}}}}};
  const std::string c = html(compareReport(doc.dump(), "c.json"));
  EXPECT_EQ(checkValueAxes(c, "compare"), 4);  // 2 metrics x 2 workload panels
  std::ifstream f(std::string(TESSEL_SOURCE_DIR) + "/tests/reports/data/serve.json");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string s = html(serveReport(ss.str(), "serve.json"));
  EXPECT_GE(checkValueAxes(s, "serve"), 4);
  EXPECT_EQ(checkStackedLegends(s, "serve"), 1);
}

}  // namespace
