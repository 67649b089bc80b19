// `tessel report` end to end: a real run's JSON as HTML, Markdown and CSV with the run's own
// numbers, a serve JSON's table as CSV, a sweep's charts picked with --metric, and bad input
// refused with exit 2 without writing (or damaging) the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli_runner.h"
#include "tests/reports/sweep_fixture.h"

namespace {

using tessel::testing::runTessel;
using tessel::testing::slurp;

std::string temp(const std::string& name) { return ::testing::TempDir() + "tessel_report_" + name; }

// One small real run, written once.
const std::string& runJson() {
  static const std::string path = [] {
    const std::string p = temp("run.json");
    const auto r = runTessel("run -q --arch " + std::string(TESSEL_SOURCE_DIR) +
                             "/configs/arch/gemmini-default.yaml --workload gemm:M=64,K=64,N=64 "
                             "--json " +
                             p);
    EXPECT_EQ(r.code, 0) << r.out;
    return p;
  }();
  return path;
}

TEST(ReportCli, CsvOfClassesHasTheRunsBreakdown) {
  const std::string out = temp("classes.csv");
  const auto r = runTessel("report " + runJson() + " -o " + out + " --table classes");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto run = nlohmann::json::parse(slurp(runJson()));
  std::istringstream csv(slurp(out));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "class,cycles,fraction,ops");
  for (const auto& e : run["breakdown"]["by_class"]) {
    ASSERT_TRUE(std::getline(csv, line));
    const std::string cls = line.substr(0, line.find(','));
    EXPECT_EQ(cls, e["class"].get<std::string>());
    const size_t a = line.find(',') + 1;
    EXPECT_EQ(std::stod(line.substr(a, line.find(',', a) - a)), e["cycles"].get<double>()) << line;
  }
}

TEST(ReportCli, HtmlAndMarkdownCarryTheTotals) {
  const auto run = nlohmann::json::parse(slurp(runJson()));
  const std::string html = temp("r.html"), md = temp("r.md");
  ASSERT_EQ(runTessel("report " + runJson() + " -o " + html + " --title 'GEMM <64>'").code, 0);
  ASSERT_EQ(runTessel("report " + runJson() + " -o " + md).code, 0);
  const std::string h = slurp(html);
  const std::string cycles = "data-cycles=\"";
  EXPECT_NE(h.find("<h1>GEMM &lt;64&gt;</h1>"), std::string::npos);
  const size_t at = h.find("id=\"totals\"");
  ASSERT_NE(at, std::string::npos);
  const size_t v = h.find(cycles, at) + cycles.size();
  EXPECT_EQ(std::stod(h.substr(v, h.find('"', v) - v)), run["totals"]["cycles"].get<double>());
  EXPECT_NE(slurp(md).find("### Per-layer results (`layers`)"), std::string::npos);
}

TEST(ReportCli, ServeJsonAsCsvHasOneRowPerConfiguration) {
  const std::string input = std::string(TESSEL_SOURCE_DIR) + "/tests/reports/data/serve.json";
  const auto doc = nlohmann::json::parse(slurp(input));
  const std::string out = temp("configurations.csv");
  const auto r = runTessel("report " + input + " -o " + out + " --table configurations");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string csv = slurp(out);
  EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')),
            doc["configurations"].size() + 1);
  const auto bad = runTessel("report " + input + " -o " + out + " --table layers");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("its tables: service_times, configurations"), std::string::npos)
      << bad.out;
}

TEST(ReportCli, MetricPicksTheSweepsChartsAndRefusesAMetricItLacks) {
  const std::string dir = temp("sweep");
  tessel::reports::testing::writeSweep(dir, tessel::reports::testing::sweepPoints({"gpt2"}));
  const std::string out = temp("sweep.html");
  const auto r = runTessel("report " + dir + " -o " + out + " --metric energy_pj,utilization");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string h = slurp(out);
  EXPECT_NE(h.find("id=\"sweep-0-energy_pj-line-0\""), std::string::npos);
  EXPECT_NE(h.find("id=\"sweep-0-utilization-line-0\""), std::string::npos);
  EXPECT_EQ(h.find("id=\"sweep-0-cycles-line-0\""), std::string::npos);
  std::ofstream(out) << "old report";
  const auto bad = runTessel("report " + dir + " -o " + out + " --metric cycles,nope");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("--metric nope"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("sram_bytes"), std::string::npos) << bad.out;  // what it could chart
  EXPECT_EQ(slurp(out), "old report");
}

TEST(ReportCli, BadInputExitsTwoAndLeavesTheOutputAlone) {
  const std::string out = temp("kept.html");
  std::ofstream(out) << "old report";
  const std::string bad = temp("bad.json");
  std::ofstream(bad) << "{\"schema_version\": 1, \"totals\": ";
  const std::string other = temp("other.json");
  std::ofstream(other) << "{\"hello\": 1}";
  struct Case {
    std::string args, says;
  } cases[] = {
      {"report /nonexistent/run.json -o " + out, "no such file"},
      {"report " + bad + " -o " + out, "not valid JSON"},
      {"report " + other + " -o " + out, "expected a run JSON"},
      {"report " + runJson() + " -o " + temp("r.pdf"),
       "expected an output ending in .html, .md or .csv"},
      {"report " + runJson() + " -o " + temp("t.csv"), "one of: classes, causes, layers"},
      {"report " + runJson() + " -o " + temp("t.csv") + " --table points", "its tables: classes"},
      {"report " + runJson() + " -o " + out + " --table layers",
       "--table picks the table of a .csv"},
      {"report " + runJson() + " -o " + out + " --metric cycles",
       "--metric picks the charts of a sweep report"},
  };
  for (const Case& c : cases) {
    const auto r = runTessel(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << c.args << "\n" << r.out;
  }
  EXPECT_EQ(slurp(out), "old report");
  EXPECT_FALSE(std::filesystem::exists(temp("r.pdf")));
  EXPECT_FALSE(std::filesystem::exists(temp("t.csv")));
}

}  // namespace
