// Chart primitives and the Pareto front, against references worked out independently.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "reports/html/pareto.h"
#include "reports/html/svg.h"
#include "reports/html/text.h"
#include "tests/reports/svg_marks.h"

namespace {

using namespace tessel::reports::html;
using tessel::reports::testing::elements;

// The definition, checked pair by pair.
std::vector<size_t> bruteForceFront(const std::vector<std::pair<double, double>>& p) {
  std::vector<size_t> front;
  for (size_t i = 0; i < p.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < p.size() && !dominated; ++j) {
      dominated = p[j].first <= p[i].first && p[j].second <= p[i].second &&
                  (p[j].first < p[i].first || p[j].second < p[i].second);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

TEST(ReportPareto, FrontEqualsTheBruteForceDominanceCheck) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    // Few distinct values, so ties in one coordinate and exact duplicates are common.
    std::uniform_int_distribution<int> v(0, trial % 2 ? 5 : 1000);
    std::vector<std::pair<double, double>> pts(static_cast<size_t>(trial % 40));
    for (auto& p : pts) p = {v(rng), v(rng)};
    EXPECT_EQ(paretoFront(pts), bruteForceFront(pts)) << "trial " << trial;
  }
}

TEST(ReportPareto, SmallCaseByHand) {
  // (1,5) (2,2) (3,1) trade off; (3,3) is beaten by (2,2); the duplicate (2,2) stays.
  const std::vector<std::pair<double, double>> pts = {{3, 3}, {1, 5}, {2, 2}, {3, 1}, {2, 2}};
  EXPECT_EQ(paretoFront(pts), (std::vector<size_t>{1, 2, 3, 4}));
}

TEST(ReportSvg, HeatmapHasOneCellPerPairWithItsValueInTheTooltip) {
  Heatmap h;
  h.id = "hm";
  h.x_ticks = {"16KiB", "64KiB", "256KiB"};
  h.y_ticks = {"64", "128"};
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 2; ++y) {
      const double v = 1000.0 * (x + 1) + 7 * y;
      h.cells.push_back({x, y, {v, "cell " + humanNumber(v), {{"value", exactNumber(v)}}}});
    }
  }
  const auto cells = elements(heatmapSvg(h), "hm");
  ASSERT_EQ(cells.size(), 6u);
  std::set<std::pair<std::string, std::string>> positions;
  for (size_t i = 0; i < cells.size(); ++i) {
    const double v = h.cells[i].mark.value;
    EXPECT_EQ(cells[i].attrs.at("data-value"), exactNumber(v));
    EXPECT_EQ(cells[i].title, "cell " + humanNumber(v));
    positions.insert({cells[i].attrs.at("x"), cells[i].attrs.at("y")});
  }
  EXPECT_EQ(positions.size(), 6u);  // no two cells overlap
}

TEST(ReportSvg, ScatterGreysDominatedPointsAndJoinsTheFront) {
  Scatter s;
  s.id = "sc";
  s.points = {
      {1, 5, true, true, "a", {}}, {2, 6, false, false, "b", {}}, {3, 1, true, true, "c", {}}};
  const std::string svg = scatterSvg(s);
  EXPECT_EQ(elements(svg, "sc", "circle", "front").size(), 2u);
  EXPECT_EQ(elements(svg, "sc", "circle", "dominated").size(), 1u);
  EXPECT_NE(svg.find("class=\"front-line\""), std::string::npos);
}

TEST(ReportSvg, StepSeriesHoldEachValueUntilTheNextPoint) {
  SeriesPlot p;
  p.id = "sp";
  p.step = true;
  p.series = {{"queue", "#123456", {{0, {2, "a", {{"t", "0"}}}}, {1, {0, "b", {{"t", "1"}}}}}},
              {"system", "#654321", {{0, {3, "c", {}}}, {0.5, {3, "d", {}}}, {1, {1, "e", {}}}}}};
  const std::string svg = seriesPlotSvg(p);
  const auto marks = elements(svg, "sp", "circle", "series-point");
  ASSERT_EQ(marks.size(), 5u);
  EXPECT_EQ(marks[0].attrs.at("fill"), "#123456");
  EXPECT_EQ(marks[1].attrs.at("data-t"), "1");
  EXPECT_EQ(marks[1].title, "b");
  // The queue's line: from (0, 2) across to x = 1 still at 2, then down to 0.
  const auto lines = elements(svg, "sp", "polyline", "series");
  ASSERT_EQ(lines.size(), 2u);
  const auto xy = [](const auto& m) { return m.attrs.at("cx") + "," + m.attrs.at("cy"); };
  EXPECT_EQ(lines[0].attrs.at("points"), xy(marks[0]) + " " + marks[1].attrs.at("cx") + "," +
                                             marks[0].attrs.at("cy") + " " + xy(marks[1]));
}

TEST(ReportText, NumbersForReadersAndForScripts) {
  EXPECT_EQ(humanNumber(1234567), "1.23 M");
  EXPECT_EQ(humanNumber(2000), "2.00 k");
  EXPECT_EQ(humanNumber(456), "456");
  EXPECT_EQ(humanNumber(45.6), "45.6");
  EXPECT_EQ(exactNumber(0.1), "0.1");
  EXPECT_EQ(exactNumber(1500), "1500");
  EXPECT_EQ(std::stod(exactNumber(1.0 / 3)), 1.0 / 3);  // reads back exactly
  EXPECT_EQ(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
}

}  // namespace
