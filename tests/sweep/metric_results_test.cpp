// Points measured for real: the silicon metrics and the off-chip limit on every line,
// constraints over metrics checked after the run (the point kept, marked), and the notes a
// finished sweep gives for a key that changed nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"
#include "sweep/evaluate.h"
#include "sweep/metrics.h"
#include "sweep/results_dir.h"
#include "sweep/runner.h"
#include "sweep/summary.h"
#include "tests/sweep/spec_helpers.h"

namespace tessel::sweep {
namespace {

using testing::freshDir;
using Json = nlohmann::ordered_json;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// One GEMM, mapped by Gemmini's heuristic: a few milliseconds a point.
const std::string kHead = "mapper: gemmini-auto\nworkloads: [\"gemm:M=512,K=512,N=512\"]\n";

std::vector<Json> runLines(const Spec& spec) {
  PointEvaluator evaluator(spec);
  std::vector<Json> lines;
  for (const Point& p : generatePoints(spec).points)
    lines.push_back(Json::parse(evaluator.evaluate(p)));
  return lines;
}

sim::RunStats gemminiRun(const arch::Accelerator& acc) {
  models::WorkloadOptions wo;
  wo.dtype = acc.array.input_dtype;
  sim::RunOptions ro;
  ro.plan.mapper = "gemmini-auto";
  return sim::simulate(models::build("gemm:M=512,K=512,N=512", wo), acc,
                       dataflows::loadDataflow("ws"), ro);
}

TEST(SweepMetricResults, EveryMetricIsTheRunStatsValue) {
  const arch::Accelerator acc = arch::loadFile(testing::gemminiPath());
  const sim::RunStats run = gemminiRun(acc);
  const Json m = metricsJson(run, acc, metricNames());
  // Every catalog metric has a computation, in catalog order.
  std::vector<std::string> keys;
  for (const auto& [k, v] : m.items()) keys.push_back(k);
  EXPECT_EQ(keys, metricNames());
  auto near = [](double got, double want) { EXPECT_NEAR(got, want, 1e-11 * std::fabs(want)); };
  near(m["area_mm2"], run.areaMm2());
  near(m["power_w"], run.powerW());
  near(m["static_energy_pj"], run.staticEnergyPj());
  near(m["dynamic_energy_pj"], run.dynamicEnergyPj());
  near(m["clocked_energy_pj"], run.clockedEnergyPj());
  near(m["tops"], run.tops());
  near(m["tops_per_w"], run.topsPerW());
  near(m["tops_per_mm2"], run.topsPerMm2());
  near(m["energy_per_mac_pj"], run.energyPerMacPj());
  // 512^3 MACs; energy = dynamic + clocked + static.
  EXPECT_EQ(m["macs"], int64_t{512} * 512 * 512);
  near(m["energy_pj"], m["dynamic_energy_pj"].get<double>() + m["clocked_energy_pj"].get<double>() +
                           m["static_energy_pj"].get<double>());
  // Gemmini's off-chip rate: 16 requests x 64 B in flight over a 100-cycle DRAM round trip
  // (100 ns at 1 GHz) = 10.24 B/cycle, below the 16 B/cycle of DRAM and the DMA bus.
  EXPECT_EQ(m["offchip_limit"], "dma window");
  EXPECT_DOUBLE_EQ(m["offchip_bytes_per_cycle"].get<double>(), 10.24);
}

TEST(SweepMetricResults, TheOffchipLimitIsOnEveryOkLineWhateverTheMetricList) {
  const Spec spec = parseSpec(
      "base: " + testing::gemminiPath() + "\n" + kHead + "metrics: [cycles]\n", "/tmp/spec.yaml");
  const Json line = runLines(spec).front();
  ASSERT_EQ(line["status"], "ok");
  std::vector<std::string> keys;
  for (const auto& [k, v] : line["metrics"].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"cycles", "offchip_limit", "offchip_bytes_per_cycle"}));
}

// A workload's sparsity is an axis like its sequence length: each point builds its own graph
// (one evaluator, so a graph cached for the first point must not serve the second). On a design
// that skips zero weights, density 0.5 runs fewer MACs and takes fewer cycles than density 1.
TEST(SweepMetricResults, SparsityPointsBuildTheirOwnGraphs) {
  const Spec spec = parseSpec(
      "base: " + testing::gemminiPath() + "\nmapper: gemmini-auto\n"
      "workloads: [{name: \"gemm:M=512,K=512,N=512\", sparsity: [weights=1, weights=0.5]}]\n"
      "grid: {sparsity.skip: [\"[weights]\"]}\nmetrics: [cycles, macs]\n",
      "/tmp/spec.yaml");
  const std::vector<Json> lines = runLines(spec);
  ASSERT_EQ(lines.size(), 2u);
  ASSERT_EQ(lines[0]["status"], "ok") << lines[0].dump();
  ASSERT_EQ(lines[1]["status"], "ok") << lines[1].dump();
  EXPECT_LT(lines[1]["metrics"]["cycles"].get<double>(), lines[0]["metrics"]["cycles"].get<double>());
}

TEST(SweepMetricResults, APointThatBreaksAMetricConstraintIsKeptAndMarked) {
  const std::string dir = freshDir("metric-constraint");
  const std::string grid = "grid:\n  scratchpad.capacity: [32KiB, 64KiB, 128KiB, 256KiB]\n";
  const std::vector<Json> free = runLines(loadSpec(testing::writeSpec(dir, kHead + grid)));
  // A threshold between the fastest and the slowest point: some points on each side.
  double lo = 1e300, hi = 0;
  for (const Json& l : free) {
    lo = std::min(lo, l["metrics"]["cycles"].get<double>());
    hi = std::max(hi, l["metrics"]["cycles"].get<double>());
  }
  ASSERT_LT(lo, hi) << "the scratchpad sizes should change the cycles";
  const std::string limit = std::to_string((lo + hi) / 2);
  const std::string cycles_rule = "cycles <= " + limit;
  const std::vector<Json> judged = runLines(loadSpec(testing::writeSpec(
      dir, kHead + grid + "constraints:\n  - " + cycles_rule + "\n  - area_mm2 <= 2\n" +
               "  - cycles / (macs - macs) < 1\n  - static_energy >= 0\n")));
  ASSERT_EQ(judged.size(), free.size());  // nothing dropped
  for (size_t i = 0; i < judged.size(); ++i) {
    const Json& l = judged[i];
    ASSERT_EQ(l["status"], "ok");
    EXPECT_EQ(l["metrics"], free[i]["metrics"]);  // judged, not changed
    std::vector<std::string> expected;
    if (l["metrics"]["cycles"].get<double>() > std::stod(limit)) expected.push_back(cycles_rule);
    if (l["metrics"]["area_mm2"].get<double>() > 2) expected.push_back("area_mm2 <= 2");
    expected.push_back("cycles / (macs - macs) < 1");  // cannot be evaluated: counts as broken
    EXPECT_EQ(l["violated"].get<std::vector<std::string>>(), expected) << l.dump();
  }
}

Summary sweepInto(const std::string& dir, const std::string& grid) {
  const Spec spec = loadSpec(testing::writeSpec(dir, kHead + grid));
  const PointSet points = generatePoints(spec);
  ResultsDir out = ResultsDir::open(dir + "/out", spec, points, false);
  runLocal(spec, points, out, {});
  out.finish();
  return writeSummary(spec, dir + "/out");
}

TEST(SweepMetricResults, DramBandwidthBehindTheDmaWindowChangesNothingAndTheSummarySaysWhy) {
  // Gemmini's off-chip rate is the DMA window's 10.24 B/cycle (above): DRAM at 11, 13 or
  // 16 B/cycle is never the slowest link, and each is one DDR3 channel (17.07 GB/s at 1 GHz:
  // the same PHY), so every point is the same.
  const std::string dir = freshDir("flat-dram");
  const Summary s =
      sweepInto(dir, "grid:\n  dram.bandwidth: [11 B/cycle, 13 B/cycle, 16 B/cycle]\n");
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_EQ(s.notes[0].key, "dram.bandwidth");
  EXPECT_EQ(s.notes[0].offchip_limit, "dma window");
  EXPECT_NE(s.notes[0].message.find("the off-chip rate is set by the dma window (10.24 B/cycle)"),
            std::string::npos);
  const Json written = Json::parse(slurp(dir + "/out/summary.json"));
  EXPECT_EQ(written["notes"][0]["key"], "dram.bandwidth");
  EXPECT_EQ(written["points"], 3);
}

TEST(SweepMetricResults, AScratchpadThatChangesCyclesGetsNoNote) {
  const std::string dir = freshDir("scratchpad-matters");
  const Summary s = sweepInto(dir, "grid:\n  scratchpad.capacity: [32KiB, 256KiB]\n");
  EXPECT_TRUE(s.notes.empty());
  EXPECT_EQ(s.ok, 2);
}

}  // namespace
}  // namespace tessel::sweep
