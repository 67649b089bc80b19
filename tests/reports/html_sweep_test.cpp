// The sweep report against the fixture's own numbers: the points read (also from an interrupted
// sweep), the best point, the heatmap minima over the third key, the Pareto fronts, failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "reports/html/build.h"
#include "reports/html/html_report.h"
#include "tests/reports/svg_marks.h"
#include "tests/reports/sweep_fixture.h"
#include "util/error.h"

namespace {

using namespace tessel::reports::testing;
using tessel::reports::html::Report;
using tessel::reports::html::sweepReport;

std::string dir(const std::string& name) { return ::testing::TempDir() + "tessel_sweep_" + name; }

const tessel::reports::html::Section& section(const Report& r, const std::string& id) {
  for (const auto& s : r.sections) {
    if (s.id == id) return s;
  }
  throw std::runtime_error("no section " + id);
}

std::string svgOf(const Report& r, const std::string& id) {
  for (const auto& s : r.sections) {
    for (const auto& c : s.charts) {
      if (c.id == id) return c.svg + "<!--caption:" + c.caption + "-->";
    }
  }
  return "";
}

TEST(ReportSweep, OneSectionPerWorkloadAndTheBestPointNamed) {
  const auto pts = sweepPoints({"gpt2", "bert"}, 3);
  writeSweep(dir("two"), pts);
  const Report r = sweepReport(dir("two"));
  ASSERT_EQ(r.sections.size(), 3u);  // gpt2, bert, all points
  EXPECT_EQ(r.sections[0].heading, "Workload gpt2");
  EXPECT_EQ(r.sections[1].heading, "Workload bert");
  // Best of gpt2: largest memories, shortest seq: index 6 (sp 256, acc 64)? Recompute it.
  size_t best = 0;
  for (size_t i = 0; i < 12; ++i) {
    if (pts[i].line["status"] == "ok" &&
        pts[i].line["metrics"]["cycles"] < pts[best].line["metrics"]["cycles"]) {
      best = i;
    }
  }
  const auto& note = section(r, "sweep-0").notes[0];
  EXPECT_EQ(note.id, "sweep-0-best");
  EXPECT_EQ(note.data[0].second, std::to_string(best));
  EXPECT_NE(note.text.find("scratchpad.capacity=256KiB, accumulator.capacity=256KiB"),
            std::string::npos)
      << note.text;
  EXPECT_NE(note.text.find("workload.seq=64"), std::string::npos);
  // Its by_class metrics, as one bar: MatMul 3/4 and Softmax 1/4 of its cycles.
  std::map<std::string, double> by_class;
  for (const auto& m : elements(svgOf(r, "sweep-0-best-breakdown"), "sweep-0-best-breakdown")) {
    by_class[m.attrs.at("data-class")] = std::stod(m.attrs.at("data-cycles"));
  }
  const double cycles = pts[best].line["metrics"]["cycles"];
  EXPECT_EQ(by_class,
            (std::map<std::string, double>{{"MatMul", cycles * 0.75}, {"Softmax", cycles * 0.25}}));
}

TEST(ReportSweep, HeatmapCellsAreTheMinimumOverTheOtherKey) {
  const auto pts = sweepPoints({"gpt2"});
  writeSweep(dir("heat"), pts);
  const Report r = sweepReport(dir("heat"));
  // Swept numeric keys: scratchpad (0), accumulator (1), seq (2); this is scratchpad x accumulator.
  const std::string svg = svgOf(r, "sweep-0-cycles-heatmap-0-1");
  const auto cells = elements(svg, "sweep-0-cycles-heatmap-0-1");
  ASSERT_EQ(cells.size(), 6u);  // 3 scratchpads x 2 accumulators
  std::map<std::pair<double, double>, double> want;
  for (const auto& p : pts) {
    const std::pair<double, double> k = {p.line["numeric"]["scratchpad.capacity"],
                                         p.line["numeric"]["accumulator.capacity"]};
    const double c = p.line["metrics"]["cycles"];
    want[k] = want.count(k) ? std::min(want[k], c) : c;
  }
  for (const auto& c : cells) {
    const double v = std::stod(c.attrs.at("data-value"));
    EXPECT_EQ(v, (want.at({std::stod(c.attrs.at("data-x")), std::stod(c.attrs.at("data-y"))})));
  }
  EXPECT_NE(svg.find("best (minimum) cycles over workload.seq"), std::string::npos);
}

TEST(ReportSweep, ParetoTableIsTheBruteForceFront) {
  const auto pts = sweepPoints({"gpt2"});
  writeSweep(dir("pareto"), pts);
  const Report r = sweepReport(dir("pareto"));
  std::vector<std::string> want;
  for (const auto& p : pts) {
    bool dominated = false;
    for (const auto& q : pts) {
      const double px = p.line["metrics"]["sram_bytes"], py = p.line["metrics"]["cycles"];
      const double qx = q.line["metrics"]["sram_bytes"], qy = q.line["metrics"]["cycles"];
      dominated = dominated || (qx <= px && qy <= py && (qx < px || qy < py));
    }
    if (!dominated) want.push_back(p.line["index"].dump());
  }
  std::vector<std::string> got;
  for (const auto& row : r.table("pareto")->rows) {
    if (row[1].exact == "sram_bytes vs cycles") got.push_back(row[2].exact);
  }
  EXPECT_EQ(got, want);
  const auto front =
      elements(svgOf(r, "sweep-0-pareto-sram"), "sweep-0-pareto-sram", "circle", "front");
  EXPECT_EQ(front.size(), want.size());
}

TEST(ReportSweep, InterruptedSweepReadsPointsSortedFirstCopyKeptTornLineSkipped) {
  auto pts = sweepPoints({"gpt2"}, 2);
  std::reverse(pts.begin(), pts.end());  // completion order, not index order
  auto dup = pts[0];
  dup.line["metrics"]["cycles"] = 1.0;  // a second copy of the same index: ignored
  pts.push_back(dup);
  writeSweep(dir("partial"), pts, "points.jsonl", "{\"index\": 99, \"par");
  const Report r = sweepReport(dir("partial"));
  const auto* t = r.table("points");
  ASSERT_EQ(t->rows.size(), 12u);
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(t->rows[i][0].exact, std::to_string(i));
  EXPECT_NE(t->rows[11][6].exact, "1");  // cycles of index 11 from its first line
  // The failed point is listed with its reason and plotted nowhere.
  EXPECT_EQ(t->rows[2][1].exact, "failed");
  EXPECT_EQ(t->rows[2].back().exact.rfind("infeasible: no mapping", 0), 0u);
  const std::string html = tessel::reports::html::htmlReport(r);
  EXPECT_EQ(html.find("data-index=\"2\""), std::string::npos);
  EXPECT_NE(html.find("interrupted"), std::string::npos);
}

TEST(ReportSweep, AllPointsFailedListsThemAndPlotsNothing) {
  auto pts = sweepPoints({"gpt2"});
  for (auto& p : pts) {
    p.line.erase("metrics");
    p.line["status"] = "failed";
    p.line["error"] = "infeasible: scratchpad too small";
  }
  writeSweep(dir("failed"), pts);
  const Report r = sweepReport(dir("failed"));
  EXPECT_TRUE(r.sections[0].charts.empty());
  EXPECT_EQ(r.sections[0].notes[0].text, "No point of this workload ran.");
  EXPECT_EQ(r.table("points")->rows.size(), 12u);
  EXPECT_TRUE(r.table("pareto")->rows.empty());
  EXPECT_EQ(r.headlines[3].exact, "12");  // failed
}

TEST(ReportSweep, NotASweepIsAConfigErrorNamingTheFile) {
  const std::string d = dir("bad");
  writeSweep(d, sweepPoints({"gpt2"}));
  std::ofstream(d + "/sweep.json") << "{\"schema\": \"other/1\"}";
  try {
    sweepReport(d);
    FAIL();
  } catch (const tessel::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("sweep.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("tessel.sweep/1"), std::string::npos);
  }
  std::filesystem::remove(d + "/sweep.json");
  EXPECT_THROW(sweepReport(d), tessel::ConfigError);
}

}  // namespace
