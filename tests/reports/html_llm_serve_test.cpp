// The LLM serve report against two llm_serve JSONs: tests/reports/data/llm_serve.json, written by
// `tessel serve --arch configs/arch/npu-3core.yaml --workload llama-3.2-1b --rate 0.05,0.1
// --requests 20 --prompt-len 256 --output-len 64 --slo ttft=5,tpot=0.5` (two rates, one max
// batch and chunk, 20 requests each), and the hand-written llm_serve_trace.json: an infeasible
// point, then a trace (rate 0) of 3 requests, one queued and one preempted, arriving from 5 s (its
// two points are not one simulation's: the report does not check that).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "reports/html/build.h"
#include "reports/html/html_report.h"
#include "reports/html/llm_serve_report.h"
#include "reports/html/markdown.h"
#include "reports/html/tables.h"
#include "reports/html/text.h"
#include "tests/reports/schema_doc.h"
#include "tests/reports/svg_axes.h"
#include "tests/reports/svg_marks.h"
#include "util/error.h"

namespace {

using tessel::reports::html::Report;
using tessel::reports::testing::elements;
using Json = nlohmann::ordered_json;

const std::string kData = std::string(TESSEL_SOURCE_DIR) + "/tests/reports/data/";
const std::string kRates = kData + "llm_serve.json";
const std::string kTrace = kData + "llm_serve_trace.json";

Json fixture(const std::string& path = kRates) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return Json::parse(ss.str());
}

Report report(const std::string& path = kRates) {
  return tessel::reports::html::llmServeReport(fixture(path).dump(), "llm.json");
}

const tessel::reports::html::Chart* chart(const Report& r, const std::string& id) {
  for (const auto& s : r.sections) {
    for (const auto& c : s.charts) {
      if (c.id == id) return &c;
    }
  }
  return nullptr;
}

// The ConfigError's message for the rates fixture edited by `edit`.
std::string errorOf(const std::function<void(Json&)>& edit) {
  Json doc = fixture();
  edit(doc);
  try {
    tessel::reports::html::llmServeReport(doc.dump(), "bad-llm.json");
  } catch (const tessel::ConfigError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::string> exactRow(const tessel::reports::html::Table& t, size_t row) {
  std::vector<std::string> out;
  for (const auto& c : t.rows.at(row)) out.push_back(c.exact);
  return out;
}

TEST(ReportLlmServe, FixturesHoldEveryDocumentedFieldAndNothingElse) {
  const auto documented = tessel::reports::schemaPaths("## LLM serve JSON (`llm_serve`)");
  ASSERT_GT(documented.size(), 60u);
  std::set<std::string> actual;
  tessel::reports::jsonPaths(fixture(kRates), "", actual);
  tessel::reports::jsonPaths(fixture(kTrace), "", actual);  // adds points[].reason
  auto covered = [](const std::string& pattern, const std::string& path) {
    return tessel::reports::matchesPattern(pattern, path, '.');
  };
  for (const std::string& p : documented) {
    bool found = false;
    for (const std::string& a : actual) found = found || covered(p, a);
    EXPECT_TRUE(found) << "documented but not in the fixtures: " << p;
  }
  for (const std::string& a : actual) {
    bool found = false;
    for (const std::string& p : documented) found = found || covered(p, a);
    EXPECT_TRUE(found) << "in the fixtures but not documented: " << a;
  }
}

TEST(ReportLlmServe, LoadReportRecognizesAnLlmServeJson) {
  const Report r = tessel::reports::html::loadReport(kRates);
  EXPECT_EQ(r.kind, "llm_serve");
  EXPECT_EQ(r.title, "Serving llama-3.2-1b on npu-3core");
  EXPECT_EQ(r.tableNames(), "points");
  std::map<std::string, std::string> meta(r.metadata.begin(), r.metadata.end());
  EXPECT_EQ(meta["device"], "3 cores fused");
  EXPECT_EQ(meta["memory"],
            "8.00 GiB DRAM: weights 1.15 GiB, activations 286.50 MiB; KV cache 6.57 GiB = "
            "26,907 blocks (16.0 KiB per token)");
  EXPECT_EQ(meta["one request alone"],
            "prefill 594.32 ms, decode step 41.71 ms; reading the weights once 38.62 ms");
  EXPECT_EQ(meta["shapes simulated"], "9");
  EXPECT_NE(meta["options"].find("slo=ttft=5,tpot=0.5"), std::string::npos);
  ASSERT_EQ(r.headlines.size(), 5u);
  EXPECT_EQ(r.headlines[1].key, "goodput");
  EXPECT_EQ(r.headlines[1].exact, "0.09992020375408854");  // rate 0.1
  EXPECT_EQ(r.headlines[3].text, "706.29 ms");             // its TTFT p90
}

TEST(ReportLlmServe, TableHasOneRowPerPointWithItsNumbers) {
  const Json doc = fixture();
  const Report r = report();
  const auto* t = r.table("points");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows.size(), doc["points"].size());
  std::vector<std::string> text;
  for (const auto& c : t->rows[0]) text.push_back(c.text);
  EXPECT_EQ(text, (std::vector<std::string>{
                      "fused", "0.05",  "256",  "2,048",  "ok",     "",       "3.22",   "0.05",
                      "0.05",  "100.00%", "594.3", "601.7", "1155.1", "41.7", "52.3",   "52.6",
                      "3223.0", "3917.1", "0.15%", "40",   "0",      "14.08%", "0.55%", "65.53"}));
  // Every number as in the JSON: ms columns in ms, ratios as they are.
  const std::pair<const char*, const char*> kMs[] = {
      {"ttft_p50_ms", "/ttft_s/p50"}, {"ttft_p90_ms", "/ttft_s/p90"},
      {"ttft_p99_ms", "/ttft_s/p99"}, {"tpot_p50_ms", "/tpot_s/p50"},
      {"tpot_p90_ms", "/tpot_s/p90"}, {"tpot_p99_ms", "/tpot_s/p99"},
      {"e2e_p50_ms", "/e2e_s/p50"},   {"e2e_p99_ms", "/e2e_s/p99"}};
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < t->columns.size(); ++i) {
      if (t->columns[i].name == name) return i;
    }
    throw std::runtime_error("no column " + name);
  };
  for (size_t i = 0; i < t->rows.size(); ++i) {
    const Json& p = doc["points"][i];
    const auto& row = t->rows[i];
    for (const auto& [name, pointer] : kMs) {
      const double want = p[Json::json_pointer(pointer)].get<double>() * 1e3;
      EXPECT_NEAR(std::stod(row[column(name)].exact), want, want * 1e-11) << name;
    }
    for (const char* key : {"rate", "output_tokens_per_s", "requests_per_s",
                            "goodput_requests_per_s", "slo_attained", "utilization",
                            "mac_utilization"}) {
      EXPECT_EQ(std::stod(row[column(key)].exact), p[key].get<double>()) << key;
    }
    EXPECT_EQ(row[column("kv_peak")].exact,
              tessel::reports::html::exactNumber(p["kv_peak_blocks"].get<double>() /
                                                 doc["memory"]["kv_blocks"].get<double>()));
    EXPECT_EQ(row[column("preemptions")].exact, std::to_string(p["preemptions"].get<int>()));
  }
  const std::string csv = tessel::reports::html::tableCsv(*t);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);  // header + one per point
}

TEST(ReportLlmServe, LatencyChartsPlotEveryPercentileAgainstTheRate) {
  const Json doc = fixture();
  const Report r = report();
  for (const auto& [id, key] : {std::pair{"llm-ttft", "ttft_s"}, {"llm-tpot", "tpot_s"}}) {
    const auto* c = chart(r, id);
    ASSERT_NE(c, nullptr) << id;
    const auto marks = elements(c->svg, id);
    ASSERT_EQ(marks.size(), 6u) << id;  // 2 rates x p50, p90, p99
    for (const auto& m : marks) {
      const Json& p = doc["points"][std::stoul(m.attrs.at("data-point"))];
      EXPECT_EQ(std::stod(m.attrs.at("data-rate")), p["rate"].get<double>());
      EXPECT_EQ(std::stod(m.attrs.at("data-seconds")),
                p[key][m.attrs.at("data-percentile")].get<double>());
    }
  }
}

TEST(ReportLlmServe, KvChartIsTheShareOfTheCacheOverTime) {
  const Json doc = fixture();
  const double blocks = doc["memory"]["kv_blocks"].get<double>();
  const Report r = report();
  const auto* c = chart(r, "llm-kv");
  ASSERT_NE(c, nullptr);
  const auto marks = elements(c->svg, "llm-kv");
  double max_share = 0, max_peak = 0;
  for (size_t i = 0; i < doc["points"].size(); ++i) {
    const Json& p = doc["points"][i];
    const double peak = p["kv_peak_blocks"].get<double>() / blocks;
    max_peak = std::max(max_peak, peak);
    std::vector<const tessel::reports::testing::Element*> mine;
    for (const auto& m : marks) {
      if (m.attrs.at("data-point") == std::to_string(i)) mine.push_back(&m);
    }
    ASSERT_EQ(mine.size(), p["kv_use"].size());
    for (size_t k = 0; k < mine.size(); ++k) {
      const Json& sample = p["kv_use"][k];
      EXPECT_EQ(std::stod(mine[k]->attrs.at("data-t")),
                sample[0].get<double>() - p["kv_use"][0][0].get<double>());
      EXPECT_EQ(mine[k]->attrs.at("data-blocks"), std::to_string(sample[1].get<int>()));
      const double share = std::stod(mine[k]->attrs.at("data-share"));
      EXPECT_EQ(share, sample[1].get<double>() / blocks);
      EXPECT_LE(share, peak);
      EXPECT_EQ(std::stod(mine[k]->attrs.at("data-peak")), peak);
      max_share = std::max(max_share, share);
    }
  }
  EXPECT_EQ(max_share, max_peak);  // 40 of 26,907 blocks, sampled in the first point
  EXPECT_NEAR(max_peak, 40.0 / 26907, 1e-15);
  // The value axis covers the peak, in %.
  const auto axes = tessel::reports::testing::groups(c->svg, "axis y");
  ASSERT_EQ(axes.size(), 1u);
  EXPECT_GE(std::stod(axes[0].attrs.at("data-axis-max")), max_peak);
  EXPECT_EQ(axes[0].attrs.at("data-axis-unit"), "%");
}

// The bars of one request of the timeline, by phase.
void checkTimeline(const Json& point, const std::string& svg) {
  const Json& timeline = point["timeline"];
  const auto groups = tessel::reports::testing::groups(svg, "request");
  ASSERT_EQ(groups.size(), timeline.size());
  // Pixels per second and the pixel of 0 s, from the time axis's first and last ticks.
  const auto axis = tessel::reports::testing::groups(svg, "axis x");
  ASSERT_EQ(axis.size(), 1u);
  std::vector<std::pair<double, double>> ticks;  // (seconds, x)
  const std::regex tick("<text x=\"([^\"]*)\"[^>]*data-tick=\"([^\"]*)\"");
  for (auto m = std::sregex_iterator(axis[0].body.begin(), axis[0].body.end(), tick);
       m != std::sregex_iterator(); ++m) {
    ticks.emplace_back(std::stod((*m)[2]), std::stod((*m)[1]));
  }
  ASSERT_GE(ticks.size(), 2u);
  const double scale =
      (ticks.back().second - ticks.front().second) / (ticks.back().first - ticks.front().first);
  const double origin = ticks.front().second - ticks.front().first * scale;
  const double t0 = timeline[0]["arrival"].get<double>();
  const std::pair<const char*, const char*> kPhases[] = {
      {"arrival", "admitted"}, {"admitted", "first_token"}, {"first_token", "finish"}};
  const char* const kNames[] = {"queue", "prefill", "decode"};
  size_t drawn = 0;
  std::set<std::string> phases;
  for (size_t i = 0; i < timeline.size(); ++i) {
    const Json& r = timeline[i];
    EXPECT_EQ(groups[i].attrs.at("data-request"), std::to_string(r["id"].get<int>()));
    EXPECT_EQ(std::stod(groups[i].attrs.at("data-finish")), r["finish"].get<double>());
    const auto mine = elements(groups[i].body, "");
    size_t k = 0;
    for (size_t ph = 0; ph < 3; ++ph) {
      const double from = r[kPhases[ph].first].get<double>();
      const double seconds = r[kPhases[ph].second].get<double>() - from;
      if (!(seconds > 0)) continue;
      ASSERT_LT(k, mine.size()) << "request " << i;
      const auto& b = mine[k++];
      EXPECT_EQ(b.attrs.at("data-phase"), kNames[ph]);
      phases.insert(kNames[ph]);
      EXPECT_EQ(std::stod(b.attrs.at("data-seconds")), seconds);
      EXPECT_NEAR(std::stod(b.attrs.at("width")), seconds * scale, 0.015) << "request " << i;
      EXPECT_NEAR(std::stod(b.attrs.at("x")), origin + (from - t0) * scale, 0.015);
    }
    EXPECT_EQ(k, mine.size()) << "request " << i;
    drawn += k;
  }
  EXPECT_EQ(elements(svg, "llm-timeline").size(), drawn);
  // The legend lists the phases drawn.
  std::set<std::string> listed;
  for (const auto& e : elements(svg, "", "g", "legend-entry"))
    listed.insert(e.attrs.at("data-series"));
  EXPECT_EQ(listed, phases);
}

TEST(ReportLlmServe, TimelineBarsAreTheRequestsPhasesToScale) {
  const Json doc = fixture();
  const Report r = report();
  const auto* c = chart(r, "llm-timeline");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->svg.find("data-point=\"0\""), std::string::npos);
  checkTimeline(doc["points"][0], c->svg);
}

TEST(ReportLlmServe, TraceAndInfeasiblePoint) {
  const Json doc = fixture(kTrace);
  const Report r = report(kTrace);
  const auto* t = r.table("points");
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0][0].text, "fused");
  EXPECT_EQ(t->rows[0][4].text, "infeasible");
  EXPECT_EQ(t->rows[0][5].text, doc["points"][0]["reason"].get<std::string>());
  for (size_t i = 6; i < t->rows[0].size(); ++i) EXPECT_EQ(t->rows[0][i].exact, "") << i;
  EXPECT_EQ(t->rows[1][1].text, "trace");
  EXPECT_EQ(exactRow(*t, 1)[18], "0.875");  // 7 of 8 blocks
  // One rate: no latency chart, and a note says why.
  EXPECT_EQ(chart(r, "llm-ttft"), nullptr);
  const std::string html = tessel::reports::html::htmlReport(r);
  EXPECT_NE(html.find("id=\"llm-latency-skipped\""), std::string::npos);
  // The timeline of the first point that ran, from its first arrival (5 s).
  const auto* c = chart(r, "llm-timeline");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->svg.find("data-point=\"1\""), std::string::npos);
  checkTimeline(doc["points"][1], c->svg);
  EXPECT_EQ(elements(c->svg, "", "g", "legend-entry").size(), 3u);  // request 1 queued
  const auto kv = elements(chart(r, "llm-kv")->svg, "llm-kv");
  ASSERT_EQ(kv.size(), 5u);
  EXPECT_EQ(kv[2].attrs.at("data-share"), "0.875");
  EXPECT_EQ(kv[4].attrs.at("data-t"), "1");
}

TEST(ReportLlmServe, ChartsFollowTheAxisRules) {
  for (const std::string& path : {kRates, kTrace}) {
    const std::string html = tessel::reports::html::htmlReport(report(path));
    // TTFT, TPOT, KV share and the timeline's time; the trace has no latency charts.
    EXPECT_EQ(tessel::reports::testing::checkValueAxes(html, path), path == kRates ? 4 : 2);
  }
}

TEST(ReportLlmServe, KvChartDrawsAtMostEightPoints) {
  Json doc = fixture();
  Json points = Json::array();
  for (int i = 0; i < 10; ++i) points.push_back(doc["points"][i % 2]);
  doc["points"] = points;
  const Report r = tessel::reports::html::llmServeReport(doc.dump(), "ten.json");
  const auto* c = chart(r, "llm-kv");
  std::set<std::string> drawn;
  for (const auto& m : elements(c->svg, "llm-kv")) drawn.insert(m.attrs.at("data-point"));
  EXPECT_EQ(drawn.size(), 8u);
  EXPECT_NE(c->caption.find("The first 8 of 10 points are drawn"), std::string::npos);
}

TEST(ReportLlmServe, MarkdownAndHtmlRender) {
  const Report r = report();
  const std::string md = tessel::reports::html::markdownReport(r);
  EXPECT_NE(md.find("### Simulated points (`points`)"), std::string::npos);
  EXPECT_NE(md.find("| 0.1 | 256 | 2,048 | ok |  | 6.39 | 0.10 | 0.10 | 100.00% | 594.3 | 706.3 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("binds there: the load"), std::string::npos);
  EXPECT_NE(md.find("Chart *KV-cache use over time*"), std::string::npos);
  const std::string html = tessel::reports::html::htmlReport(r);
  for (const char* id :
       {"llm-ttft", "llm-tpot", "llm-kv", "llm-timeline", "table-points", "llm-recommendation-1"}) {
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  }
  EXPECT_EQ(html.find("<script src"), std::string::npos);
}

TEST(ReportLlmServe, BadInputNamesTheFileAndTheField) {
  struct Case {
    std::function<void(Json&)> edit;
    std::string says;
  } cases[] = {
      {[](Json& d) { d.erase("points"); }, "expected an array at 'points', which is missing"},
      {[](Json& d) { d["points"][1].erase("ttft_s"); },
       "expected an object at 'points[1].ttft_s', which is missing"},
      {[](Json& d) { d["points"][0]["tpot_s"]["p99"] = "slow"; },
       "expected a number at 'points[0].tpot_s.p99', found string"},
      {[](Json& d) { d["points"][0]["kv_use"][3] = {1.5}; }, "at 'points[0].kv_use[3]'"},
      {[](Json& d) { d["points"][1]["timeline"][2].erase("finish"); },
       "expected a number at 'points[1].timeline[2].finish', which is missing"},
      {[](Json& d) { d["points"][0]["status"] = "maybe"; }, "'points[0].status'"},
      {[](Json& d) { d["points"][0]["status"] = "infeasible"; },
       "expected a string at 'points[0].reason', which is missing"},
      {[](Json& d) { d["memory"]["kv_blocks"] = 1.5; },
       "expected an integer at 'memory.kv_blocks'"},
      {[](Json& d) { d["recommendations"][1] = 7; }, "'recommendations[1]'"},
      {[](Json& d) { d["schema_version"] = 2; }, "expected schema_version 1"},
  };
  for (const Case& c : cases) {
    const std::string msg = errorOf(c.edit);
    EXPECT_NE(msg.find("bad-llm.json"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
  }
  // Through loadReport, as `tessel report` reads it.
  const std::string path = ::testing::TempDir() + "tessel_llm_cut.json";
  Json doc = fixture();
  doc["points"][0].erase("ttft_s");
  std::ofstream(path) << doc.dump();
  try {
    tessel::reports::html::loadReport(path);
    FAIL() << "no error";
  } catch (const tessel::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'points[0].ttft_s'"), std::string::npos) << e.what();
  }
}

void pointers(const Json& node, const Json::json_pointer& at,
              std::vector<Json::json_pointer>& out) {
  if (!at.empty()) out.push_back(at);
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) pointers(child, at / key, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) pointers(node[i], at / i, out);
  }
}

// Every node of the trace fixture removed, or replaced by a value of another type: the report is
// built or refused with a ConfigError, never another exception.
TEST(ReportLlmServe, AnyFieldMissingOrMistypedIsAConfigError) {
  const Json doc = fixture(kTrace);
  std::vector<Json::json_pointer> all;
  pointers(doc, Json::json_pointer(), all);
  ASSERT_GT(all.size(), 100u);
  for (const auto& at : all) {
    for (int mutation = 0; mutation < 2; ++mutation) {
      Json bad = doc;
      if (mutation == 0) {
        Json& parent = bad[at.parent_pointer()];
        if (parent.is_object()) {
          parent.erase(at.back());
        } else {
          parent.erase(std::stoul(at.back()));
        }
      } else {
        bad[at] = bad[at].is_string() ? Json(1) : Json("x");
      }
      try {
        tessel::reports::html::htmlReport(
            tessel::reports::html::llmServeReport(bad.dump(), "mutated.json"));
      } catch (const tessel::ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("mutated.json"), std::string::npos) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << at.to_string() << " (mutation " << mutation << "): " << e.what();
      }
    }
  }
}

}  // namespace
