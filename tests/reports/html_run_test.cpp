// The run report's charts and tables, checked against the run JSON they came from (the hand-made
// sample run: MatMul 1500 = compute 1000 + fill 200 + memory 300, Softmax 300 = sfu, Other 200 =
// host 150 + noc 50, GELU fused at 0 cycles).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "reports/html/build.h"
#include "reports/html/html_report.h"
#include "reports/html/markdown.h"
#include "reports/json.h"
#include "tests/reports/sample_run.h"
#include "tests/reports/svg_marks.h"
#include "util/error.h"

namespace {

using tessel::reports::html::Report;
using tessel::reports::testing::elements;

std::string sampleJson() {
  return tessel::reports::toJsonString(tessel::reports::sample::sampleRun());
}

const tessel::reports::html::Chart& chart(const Report& r, const std::string& id) {
  for (const auto& s : r.sections) {
    for (const auto& c : s.charts) {
      if (c.id == id) return c;
    }
  }
  throw std::runtime_error("no chart " + id);
}

TEST(ReportRun, ByClassSegmentsAreProportionalToTheJsonCycles) {
  const std::string text = sampleJson();
  const auto doc = nlohmann::json::parse(text);
  const Report r = tessel::reports::html::runReport(text, "sample.json");
  const auto marks = elements(chart(r, "chart-by-class").svg, "chart-by-class");
  std::map<std::string, double> want;  // classes with cycles; zero ones are not drawn
  for (const auto& e : doc["breakdown"]["by_class"]) {
    if (e["cycles"].get<double>() > 0) want[e["class"]] = e["cycles"].get<double>();
  }
  ASSERT_EQ(want.size(), 3u);  // MatMul, Softmax, Other
  ASSERT_EQ(marks.size(), want.size());
  const double px_per_cycle =
      std::stod(marks[0].attrs.at("width")) / want.at(marks[0].attrs.at("data-class"));
  for (const auto& m : marks) {
    const std::string cls = m.attrs.at("data-class");
    EXPECT_EQ(std::stod(m.attrs.at("data-cycles")), want.at(cls)) << cls;
    // Widths print with 2 decimals: 0.01 px of rounding at most.
    EXPECT_NEAR(std::stod(m.attrs.at("width")), want.at(cls) * px_per_cycle, 0.011) << cls;
    EXPECT_NE(m.title.find(cls), std::string::npos);
  }
  EXPECT_DOUBLE_EQ(want.at("MatMul"), 1500);  // the sample's own arithmetic
}

TEST(ReportRun, ClassByCauseSumsEachClasssOpCauses) {
  const std::string text = sampleJson();
  const auto doc = nlohmann::json::parse(text);
  const Report r = tessel::reports::html::runReport(text, "sample.json");
  std::map<std::pair<std::string, std::string>, double> want;
  for (const auto& op : doc["ops"]) {
    for (const auto& [cause, v] : op["cycles_by_cause"].items()) {
      if (v.get<double>() > 0) want[{op["class"], cause}] += v.get<double>();
    }
  }
  std::map<std::pair<std::string, std::string>, double> got;
  for (const auto& m : elements(chart(r, "chart-class-by-cause").svg, "chart-class-by-cause")) {
    got[{m.attrs.at("data-class"), m.attrs.at("data-cause")}] =
        std::stod(m.attrs.at("data-cycles"));
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ((got[{"MatMul", "memory_stall"}]), 300);
  EXPECT_EQ((got[{"Other", "host"}]), 150);
}

TEST(ReportRun, HeadlinesAndLayerTableCarryTheExactNumbers) {
  const Report r = tessel::reports::html::runReport(sampleJson(), "sample.json");
  std::map<std::string, std::string> exact;
  for (const auto& h : r.headlines) exact[h.key] = h.exact;
  EXPECT_EQ(exact["cycles"], "2000");      // 1500 + 300 + 0 + 200
  EXPECT_EQ(exact["dram_bytes"], "6932");  // 5632 + 1300
  EXPECT_EQ(exact["macs"], "19200");
  const auto* layers = r.table("layers");
  ASSERT_NE(layers, nullptr);
  ASSERT_EQ(layers->rows.size(), 4u);
  EXPECT_EQ(layers->rows[0][1].exact, "h0.attn.qkv");
  EXPECT_EQ(layers->rows[0][5].exact, "1500");
  EXPECT_EQ(layers->rows[0][7].exact, "5632");  // its DRAM reads and writes
  EXPECT_EQ(layers->rows[3][7].exact, "1300");
  EXPECT_EQ(r.tableNames(), "classes, causes, layers");
}

// The sample run with a design that has an area and leaks (the silicon model's totals).
std::string siliconJson() {
  auto doc = nlohmann::json::parse(sampleJson());
  doc["totals"]["area_mm2"] = 1.5;
  doc["totals"]["area_by_component"] = {{"scratchpad", 0.5}, {"array", 1.0}};
  doc["totals"]["static_energy_pj"] = 40.0;
  doc["totals"]["static_energy_by_component"] = {{"scratchpad", 30.0}, {"array", 10.0}};
  doc["totals"]["energy_by_component"]["static"] = 40.0;
  return doc.dump();
}

TEST(ReportRun, EnergyChartSplitsEveryComponentStaticIncluded) {
  const std::string text = siliconJson();
  const auto doc = nlohmann::json::parse(text);
  const Report r = tessel::reports::html::runReport(text, "sample.json");
  std::map<std::pair<std::string, std::string>, double> got;
  for (const auto& m :
       elements(chart(r, "chart-energy-by-component").svg, "chart-energy-by-component")) {
    got[{m.attrs.at("data-row"), m.attrs.at("data-component")}] =
        std::stod(m.attrs.at("data-energy_pj"));
  }
  std::map<std::pair<std::string, std::string>, double> want;
  for (const auto& [c, v] : doc["totals"]["energy_by_component"].items()) {
    if (v.get<double>() > 0) want[{"all energy", c}] = v.get<double>();
  }
  want[{"static", "scratchpad"}] = 30, want[{"static", "array"}] = 10;
  EXPECT_EQ(got, want);
  EXPECT_EQ((got[{"all energy", "static"}]), 40);
}

TEST(ReportRun, TrafficChartSplitsEachLevelsBytesByOperand) {
  const std::string text = sampleJson();
  const auto doc = nlohmann::json::parse(text);
  const Report r = tessel::reports::html::runReport(text, "sample.json");
  std::map<std::string, double> per_level;
  std::set<std::string> operands;
  for (const auto& m : elements(chart(r, "chart-traffic-by-level").svg, "chart-traffic-by-level")) {
    per_level[m.attrs.at("data-level")] += std::stod(m.attrs.at("data-bytes"));
    operands.insert(m.attrs.at("data-operand"));
  }
  for (const auto& [level, bytes] : doc["totals"]["bytes_by_level"].items()) {
    if (bytes.get<double>() > 0) {
      EXPECT_EQ(per_level[level], bytes.get<double>()) << level;
    }
  }
  EXPECT_EQ(per_level["DRAM"], 6932);  // the sample's DRAM traffic
  EXPECT_TRUE(operands.count("input") && operands.count("output"));
}

TEST(ReportRun, AreaChartOnlyWhenTheDesignHasAnArea) {
  const Report with = tessel::reports::html::runReport(siliconJson(), "s.json");
  std::map<std::string, double> area;
  for (const auto& m :
       elements(chart(with, "chart-area-by-component").svg, "chart-area-by-component")) {
    area[m.attrs.at("data-component")] = std::stod(m.attrs.at("data-mm2"));
  }
  EXPECT_EQ(area, (std::map<std::string, double>{{"scratchpad", 0.5}, {"array", 1.0}}));
  auto no_area = nlohmann::json::parse(sampleJson());
  no_area["totals"]["area_mm2"] = 0.0;
  no_area["totals"]["area_by_component"] = nlohmann::json::object();
  const Report without = tessel::reports::html::runReport(no_area.dump(), "s.json");
  EXPECT_THROW(chart(without, "chart-area-by-component"), std::runtime_error);
  EXPECT_NE(tessel::reports::html::htmlReport(without).find("No area"), std::string::npos);
}

// The chip by category: one mark per category and kind of power, the values as the JSON holds
// them; a document without totals.by_category (written before it existed) has no such chart.
TEST(ReportRun, PowerByCategoryChartSplitsDynamicAndLeakage) {
  auto doc = nlohmann::json::parse(siliconJson());
  doc["totals"]["by_category"] = {
      {{"category", "compute"}, {"on_die", true}, {"area_mm2", 1.0}, {"dynamic_w", 2.0},
       {"leakage_w", 0.5}},
      {{"category", "on-chip memory"}, {"on_die", true}, {"area_mm2", 0.5}, {"dynamic_w", 1.0},
       {"leakage_w", 0.25}},
      {{"category", "dram"}, {"on_die", false}, {"area_mm2", 0.0}, {"dynamic_w", 3.0},
       {"leakage_w", 0.0}}};
  doc["totals"]["not_modeled"] = "control";
  const Report r = tessel::reports::html::runReport(doc.dump(), "s.json");
  std::map<std::pair<std::string, std::string>, double> got;
  for (const auto& m :
       elements(chart(r, "chart-power-by-category").svg, "chart-power-by-category")) {
    got[{m.attrs.at("data-row"), m.attrs.at("data-category")}] = std::stod(m.attrs.at("data-w"));
  }
  EXPECT_EQ(got, (std::map<std::pair<std::string, std::string>, double>{
                     {{"dynamic", "compute"}, 2.0},
                     {{"dynamic", "on-chip memory"}, 1.0},
                     {{"dynamic", "dram"}, 3.0},
                     {{"leakage", "compute"}, 0.5},
                     {{"leakage", "on-chip memory"}, 0.25}}));
  doc["totals"].erase("by_category");
  const Report old = tessel::reports::html::runReport(doc.dump(), "s.json");
  EXPECT_THROW(chart(old, "chart-power-by-category"), std::runtime_error);
}

TEST(ReportRun, TextFromTheJsonIsEscaped) {
  auto doc = nlohmann::json::parse(sampleJson());
  doc["ops"][0]["name"] = "<script>alert(\"x\")</script>&";
  doc["metadata"]["workload"] = "w'<b>";
  const std::string html =
      tessel::reports::html::htmlReport(tessel::reports::html::runReport(doc.dump(), "x.json"));
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  // Self-contained: nothing is fetched.
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
}

TEST(ReportRun, MarkdownHoldsTheHeadlinesAndEveryTable) {
  const std::string md = tessel::reports::html::markdownReport(
      tessel::reports::html::runReport(sampleJson(), "s.json"));
  EXPECT_NE(md.find("| Latency | 2.00 k cycles | 2000 |"), std::string::npos) << md;
  EXPECT_NE(md.find("(`classes`)"), std::string::npos);
  EXPECT_NE(md.find("(`causes`)"), std::string::npos);
  EXPECT_NE(md.find("| 0 | h0.attn.qkv | MatMul | MatMul | array | 1,500 |"), std::string::npos)
      << md;
}

TEST(ReportRun, WrongSchemaNamesTheFileAndWhatWasExpected) {
  auto doc = nlohmann::json::parse(sampleJson());
  doc["schema_version"] = 2;
  try {
    tessel::reports::html::runReport(doc.dump(), "old.json");
    FAIL();
  } catch (const tessel::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("old.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("schema_version 1"), std::string::npos);
  }
  doc["schema_version"] = 1;
  doc["breakdown"].erase("by_class");
  EXPECT_THROW(tessel::reports::html::runReport(doc.dump(), "cut.json"), tessel::ConfigError);
}

}  // namespace
