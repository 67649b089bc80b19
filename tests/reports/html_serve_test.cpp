// The serve report against a serve JSON written by hand in the shape serveJsonString writes
// (tests/reports/data/serve.json): 3 service profiles and a variant, 9 grid configurations
// (single batch 1 and 4, fused batch 1; 1, 2 and 4 workers) and one "input uint8" run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "reports/html/build.h"
#include "reports/html/html_report.h"
#include "reports/html/markdown.h"
#include "reports/html/tables.h"
#include "tests/reports/schema_doc.h"
#include "tests/reports/svg_marks.h"
#include "util/error.h"

namespace {

using tessel::reports::html::Report;
using tessel::reports::testing::elements;
using Json = nlohmann::ordered_json;

const std::string kFixture = std::string(TESSEL_SOURCE_DIR) + "/tests/reports/data/serve.json";

Json fixture() {
  std::ifstream f(kFixture);
  std::stringstream ss;
  ss << f.rdbuf();
  return Json::parse(ss.str());
}

Report report() { return tessel::reports::html::serveReport(fixture().dump(), "serve.json"); }

const tessel::reports::html::Chart& chart(const Report& r, const std::string& id) {
  for (const auto& s : r.sections) {
    for (const auto& c : s.charts) {
      if (c.id == id) return c;
    }
  }
  throw std::runtime_error("no chart " + id);
}

// The ConfigError's message for a serve JSON edited by `edit`.
template <class Edit>
std::string errorOf(Edit edit) {
  Json doc = fixture();
  edit(doc);
  try {
    tessel::reports::html::serveReport(doc.dump(), "bad-serve.json");
  } catch (const tessel::ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ReportServe, FixtureHasEveryDocumentedFieldAndNothingElse) {
  const auto documented = tessel::reports::schemaPaths("## Serve JSON (`tessel serve --json`)");
  ASSERT_GT(documented.size(), 40u);
  std::set<std::string> written, actual;
  tessel::reports::jsonPaths(fixture(), "", written);
  for (std::string path : written) {
    // Variant profiles are documented as "every field of service_times[], then variant".
    const std::string v = "variant_service_times[].";
    if (path.rfind(v, 0) == 0 && path != v + "variant") path = path.substr(8);
    actual.insert(path);
  }
  auto covered = [](const std::string& pattern, const std::string& path) {
    return tessel::reports::matchesPattern(pattern, path, '.');
  };
  for (const std::string& p : documented) {
    bool found = false;
    for (const std::string& a : actual) found = found || covered(p, a);
    EXPECT_TRUE(found) << "documented but not in the fixture: " << p;
  }
  for (const std::string& a : actual) {
    bool found = false;
    for (const std::string& p : documented) found = found || covered(p, a);
    EXPECT_TRUE(found) << "in the fixture but not documented: " << a;
  }
}

TEST(ReportServe, LoadReportRecognizesAServeJson) {
  const Report r = tessel::reports::html::loadReport(kFixture);
  EXPECT_EQ(r.kind, "serve");
  EXPECT_EQ(r.title, "Serving resnet50 on gemmini-2core");
  EXPECT_EQ(r.tableNames(), "service_times, configurations");
  EXPECT_EQ(r.headlines.at(1).exact, "2051.282051");  // single, batch 4, 4 workers
}

TEST(ReportServe, TablesHoldEveryProfileAndConfigurationInMs) {
  const Report r = report();
  const auto* st = r.table("service_times");
  ASSERT_EQ(st->rows.size(), 4u);  // 3 profiles + the input uint8 variant
  std::vector<std::string> row;
  for (const auto& c : st->rows[1]) row.push_back(c.exact);
  EXPECT_EQ(row,
            (std::vector<std::string>{"single", "4", "", "2", "1.6", "6", "7.8", "0.8", "0.4"}));
  EXPECT_EQ(st->rows[3][2].exact, "input uint8");
  EXPECT_EQ(st->rows[3][4].exact, "0.1");
  EXPECT_EQ(st->rows[1][6].text, "7.800");
  const auto* cf = r.table("configurations");
  ASSERT_EQ(cf->rows.size(), 10u);
  row.clear();
  for (const auto& c : cf->rows[2]) row.push_back(c.exact);
  EXPECT_EQ(row, (std::vector<std::string>{"single", "1", "4", "", "769.230769", "5.2", "5.3",
                                           "5.5", "5.6", "1", "0.115385", "1.4", "2"}));
  EXPECT_EQ(cf->rows[9][3].exact, "input uint8");
  const std::string csv = tessel::reports::html::tableCsv(*cf);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 11);  // header + one per configuration
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "cores,batch,workers,variant,throughput,p50_ms,p90_ms,p99_ms,max_ms,"
            "accelerator_utilization,host_utilization,mean_submit_depth,max_submit_depth");
}

TEST(ReportServe, LinesAgainstWorkersPlotTheGridOnly) {
  const Json doc = fixture();
  const Report r = report();
  const auto tp = elements(chart(r, "serve-throughput").svg, "serve-throughput");
  ASSERT_EQ(tp.size(), 9u);  // the input uint8 run is not on a line
  for (const auto& m : tp) {
    const Json& c = doc["configurations"][std::stoul(m.attrs.at("data-config"))];
    EXPECT_EQ(c["variant"], "");
    EXPECT_EQ(m.attrs.at("data-workers"), std::to_string(c["workers"].get<int>()));
    EXPECT_EQ(std::stod(m.attrs.at("data-throughput")), c["throughput"].get<double>());
  }
  const auto p99 = elements(chart(r, "serve-p99").svg, "serve-p99");
  ASSERT_EQ(p99.size(), 9u);
  EXPECT_EQ(p99[0].attrs.at("data-p99_s"), "0.0026");  // single batch 1, 1 worker
  EXPECT_EQ(elements(chart(r, "serve-service-times").svg, "serve-service-times").size(), 12u);
}

TEST(ReportServe, QueueDepthOverTimeCarriesEverySample) {
  const Json doc = fixture();
  const Report r = report();
  std::vector<std::string> ids;
  for (const auto& s : r.sections) {
    if (s.id != "queues") continue;
    for (const auto& c : s.charts) ids.push_back(c.id);
  }
  // Per core mode: the most workers at batch 1, then the best throughput (the first on a tie).
  EXPECT_EQ(ids, (std::vector<std::string>{"serve-depth-2", "serve-depth-5", "serve-depth-8",
                                           "serve-depth-7"}));
  for (const std::string& id : ids) {
    const Json& depth = doc["configurations"][std::stoul(id.substr(12))]["depth"];
    std::map<std::string, std::vector<std::pair<double, double>>> got;
    for (const auto& m : elements(chart(r, id).svg, id)) {
      got[m.attrs.at("data-series")].emplace_back(std::stod(m.attrs.at("data-t")),
                                                  std::stod(m.attrs.at("data-value")));
    }
    ASSERT_EQ(got["submit"].size(), depth.size()) << id;
    ASSERT_EQ(got["in_system"].size(), depth.size()) << id;
    for (size_t i = 0; i < depth.size(); ++i) {
      EXPECT_EQ(got["submit"][i],
                std::make_pair(depth[i][0].get<double>(), depth[i][1].get<double>()));
      EXPECT_EQ(got["in_system"][i].second, depth[i][2].get<double>());
    }
  }
}

TEST(ReportServe, MarkdownAndHtmlRender) {
  const Report r = report();
  const std::string md = tessel::reports::html::markdownReport(r);
  EXPECT_NE(md.find("### Simulated configurations (`configurations`)"), std::string::npos);
  EXPECT_NE(md.find("### Service time per job (ms) (`service_times`)"), std::string::npos);
  EXPECT_NE(md.find("| single | 4 | 4 |  | 2.05 k | 7.800 | 7.900 | 8.100 | 8.200 | 100.00% |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("single cores: batch 4 gives 2.67x"), std::string::npos);
  const std::string html = tessel::reports::html::htmlReport(r);
  EXPECT_NE(html.find("id=\"serve-depth-2\""), std::string::npos);
  EXPECT_NE(html.find("id=\"serve-recommendation-0\""), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
}

TEST(ReportServe, BadInputNamesTheFileAndTheField) {
  struct Case {
    std::function<void(Json&)> edit;
    std::string says;
  } cases[] = {
      {[](Json& d) { d.erase("configurations"); },
       "expected an array at 'configurations', which is missing"},
      {[](Json& d) { d["configurations"][1]["latency_s"]["p99"] = "slow"; },
       "expected a number at 'configurations[1].latency_s.p99', found string"},
      {[](Json& d) { d["service_times"][0]["job_s"] = Json::array(); }, "'service_times[0].job_s'"},
      {[](Json& d) { d["service_times"][2]["job_s"][0] = nullptr; },
       "expected a number at 'service_times[2].job_s[0]', found null"},
      {[](Json& d) {
         d["configurations"][3]["depth"][1] = {0.1, 2};
       },
       "at 'configurations[3].depth[1]'"},
      {[](Json& d) { d["configurations"][0]["batch"] = 1.5; },
       "expected an integer at 'configurations[0].batch'"},
      {[](Json& d) { d["recommendations"]["text"][0] = 7; }, "'recommendations.text[0]'"},
      {[](Json& d) { d["arch"] = "gemmini"; }, "expected an object at 'arch', found string"},
      {[](Json& d) { d["schema_version"] = 2; }, "expected schema_version 1"},
  };
  for (const Case& c : cases) {
    const std::string msg = errorOf(c.edit);
    EXPECT_NE(msg.find("bad-serve.json"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
  }
  EXPECT_NE(errorOf([](Json& d) { d["tool_version"] = 3; }).find("'tool_version'"),
            std::string::npos);
  // Through loadReport, as `tessel report` reads it.
  const std::string path = ::testing::TempDir() + "tessel_serve_cut.json";
  Json doc = fixture();
  doc["configurations"][0].erase("throughput");
  std::ofstream(path) << doc.dump();
  try {
    tessel::reports::html::loadReport(path);
    FAIL() << "no error";
  } catch (const tessel::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'configurations[0].throughput'"), std::string::npos);
  }
}

// Every node of the fixture removed, or replaced by a value of another type: the report is
// built or refused with a ConfigError, never another exception.
void pointers(const Json& node, const Json::json_pointer& at,
              std::vector<Json::json_pointer>& out) {
  if (!at.empty()) out.push_back(at);
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) pointers(child, at / key, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) pointers(node[i], at / i, out);
  }
}

TEST(ReportServe, AnyFieldMissingOrMistypedIsAConfigError) {
  const Json doc = fixture();
  std::vector<Json::json_pointer> all;
  pointers(doc, Json::json_pointer(), all);
  ASSERT_GT(all.size(), 300u);
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
        tessel::reports::html::serveReport(bad.dump(), "mutated.json");
      } catch (const tessel::ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("mutated.json"), std::string::npos) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << at.to_string() << " (mutation " << mutation << "): " << e.what();
      }
    }
  }
}

}  // namespace
