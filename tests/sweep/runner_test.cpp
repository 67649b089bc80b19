#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"
#include "sweep/evaluate.h"
#include "sweep/results_dir.h"
#include "sweep/runner.h"
#include "tests/sweep/spec_helpers.h"

namespace tessel::sweep {
namespace {

using testing::freshDir;
using Json = nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// 3 x 2 x 2 = 12 small points, one of them (array.rows = 0) invalid.
const char* kBody =
    "mapper: {name: search, budget: 300}\n"
    "workloads:\n  - {name: gpt2-small, layers: 1, seq: [32, 64]}\n"
    "grid:\n  array.rows: [8, 16, 0]\n  accumulator.capacity: [32KiB, 64KiB]\n";

Spec specIn(const std::string& dir) { return loadSpec(testing::writeSpec(dir, kBody)); }

std::string runAll(const std::string& dir, int workers) {
  const Spec spec = specIn(dir);
  const PointSet points = generatePoints(spec);
  ResultsDir out = ResultsDir::open(dir + "/out", spec, points, false);
  RunnerOptions o;
  o.workers = workers;
  const Outcome r = runLocal(spec, points, out, o);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.progress.done, 12);
  EXPECT_EQ(r.progress.failed, 4);  // array.rows = 0: 2 seqs x 2 accumulator sizes
  out.finish();
  return slurp(dir + "/out/results.jsonl");
}

TEST(SweepRunner, APointsMetricsAreThoseOfTheSameRun) {
  const std::string dir = freshDir("same-run");
  const Spec spec = specIn(dir);
  const PointSet points = generatePoints(spec);
  const Point& p = points.points[3];  // seq 32, array.rows 16, accumulator 64 KiB
  ASSERT_EQ(p.value("array.rows"), "16");
  const Json line = Json::parse(PointEvaluator(spec).evaluate(p));

  // The same design built the way `tessel run -p ...` builds it.
  const arch::Accelerator acc = arch::loadFile(testing::gemminiPath(),
                                               {"array.rows=16", "accumulator.capacity=64KiB"});
  models::WorkloadOptions wo;
  wo.seq = 32, wo.layers = 1, wo.dtype = acc.array.input_dtype;
  const models::Graph g = models::build("gpt2-small", wo);
  sim::RunOptions ro;
  ro.plan.mapper = "search";
  ro.plan.mapper_options.budget = 300;
  const sim::RunStats run = sim::simulate(g, acc, dataflows::loadDataflow("ws"), ro);
  ASSERT_EQ(line["status"], "ok");
  // Results keep 12 significant digits, like the run report.
  EXPECT_NEAR(line["metrics"]["cycles"].get<double>(), run.totalCycles(), 1e-11 * run.totalCycles());
  EXPECT_EQ(line["metrics"]["macs"].get<int64_t>(), run.totalMacs());
  EXPECT_EQ(line["metrics"]["dram_bytes"].get<int64_t>(), run.bytesAt(run.level_names.front()));
  // sram_bytes = scratchpad 256 KiB + accumulator 64 KiB.
  EXPECT_EQ(line["metrics"]["sram_bytes"].get<int64_t>(), 256 * 1024 + 64 * 1024);
  EXPECT_EQ(line["params"]["array.rows"], 16);
  EXPECT_EQ(line["params"]["accumulator.capacity"], "64KiB");
  EXPECT_EQ(line["numeric"]["accumulator.capacity"], 65536.0);
}

TEST(SweepRunner, AnInvalidPointIsRecordedWithItsReasonAndTheSweepGoesOn) {
  const std::string dir = freshDir("invalid");
  const std::string results = runAll(dir, 1);
  int failed = 0, ok = 0;
  for (const std::string& line : readResultLines(dir + "/out/results.jsonl")) {
    const Json j = Json::parse(line);
    if (j["status"] == "ok") {
      ++ok;
      continue;
    }
    ++failed;
    EXPECT_EQ(j["params"]["array.rows"], 0);
    EXPECT_EQ(j["error_kind"], "config");
    EXPECT_NE(j["error"].get<std::string>().find("array.rows"), std::string::npos);
  }
  EXPECT_EQ(ok, 8);
  EXPECT_EQ(failed, 4);
}

TEST(SweepRunner, ResultsAreTheSameWhateverTheNumberOfWorkers) {
  const std::string one = runAll(freshDir("w1"), 1);
  const std::string two = runAll(freshDir("w2"), 2);
  const std::string three = runAll(freshDir("w3"), 3);
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, two);
  EXPECT_EQ(one, three);
}

TEST(SweepRunner, AResumeAfterATornLineFinishesWithoutDuplicates) {
  const std::string full = runAll(freshDir("ref"), 1);
  const std::string dir = freshDir("torn");
  const Spec spec = specIn(dir);
  const PointSet points = generatePoints(spec);
  {
    ResultsDir out = ResultsDir::open(dir + "/out", spec, points, false);
    RunnerOptions o;
    int n = 0;
    std::atomic<bool> stop{false};
    o.stop = &stop;
    o.progress = [&](const Progress&) { stop = ++n == 5; };  // "killed" after 5 points
    EXPECT_TRUE(runLocal(spec, points, out, o).interrupted);
  }
  // Half of a sixth line, as a kill in the middle of a write would leave.
  std::ofstream(dir + "/out/points.jsonl", std::ios::app) << "{\"index\":5,\"id\":\"12";
  EXPECT_THROW(ResultsDir::open(dir + "/out", spec, points, /*resume=*/false), ConfigError);
  ResultsDir out = ResultsDir::open(dir + "/out", spec, points, /*resume=*/true);
  EXPECT_EQ(out.done().size(), 5u);
  const Outcome r = runLocal(spec, points, out, {});
  EXPECT_EQ(r.progress.done, 7);
  out.finish();
  EXPECT_EQ(slurp(dir + "/out/results.jsonl"), full);
  std::set<int64_t> seen;
  for (const std::string& line : readResultLines(dir + "/out/points.jsonl")) {
    EXPECT_TRUE(seen.insert(Json::parse(line)["index"].get<int64_t>()).second) << line;
  }
  EXPECT_EQ(seen.size(), 12u);
}

TEST(SweepRunner, AFolderOfAnotherSpecIsLeftAlone) {
  const std::string dir = freshDir("other");
  runAll(dir, 1);
  const std::string before = slurp(dir + "/out/points.jsonl");
  const Spec other = loadSpec(testing::writeSpec(dir, std::string(kBody) + "name: other\n"));
  EXPECT_THROW(ResultsDir::open(dir + "/out", other, generatePoints(other), true), ConfigError);
  EXPECT_EQ(slurp(dir + "/out/points.jsonl"), before);
}

}  // namespace
}  // namespace tessel::sweep
