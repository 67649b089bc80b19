// The chip by category from the command line (sim/categories.h): dynamic power that follows the
// run's activity, not the design's peak.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

double computeDynamicW(const std::string& args, double& seconds) {
  const auto r = testing::runTessel(args + " --json -");
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(0, r.out.rfind('}') + 1));
  seconds = j["totals"]["seconds"].get<double>();
  for (const auto& c : j["totals"]["by_category"]) {
    if (c["category"] == "compute") return c["dynamic_w"].get<double>();
  }
  ADD_FAILURE() << "no compute row";
  return 0;
}

// Dynamic power follows activity: the same GEMM with DRAM 64x slower does the same MACs (the
// same compute energy) over a longer run, so the array's dynamic power falls by the ratio of
// the run times, while its leakage stays what the design draws.
TEST(Categories, ComputePowerFollowsTheArraysActivity) {
  const std::string run = "run --arch " + std::string(TESSEL_SOURCE_DIR) +
                          "/configs/arch/gemmini-default.yaml --workload gemm:M=256,K=256,N=256 "
                          "--mapper gemmini-auto";
  double fast_s = 0, slow_s = 0;
  const double fast = computeDynamicW(run + " --ideal-memory", fast_s);
  const double slow = computeDynamicW(run + " -p dram.bandwidth=0.16B/cycle", slow_s);
  ASSERT_GT(slow_s, 2 * fast_s);  // the array idles more than half of the slow run
  EXPECT_NEAR(slow / fast, fast_s / slow_s, 1e-3 * fast_s / slow_s);
}

struct ClockedRun {
  double cycles = 0, clock_pj = 0;
};

ClockedRun clockOf(const std::string& args) {
  const auto r = testing::runTessel(args + " --json -");
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(0, r.out.rfind('}') + 1));
  return {j["totals"]["cycles"].get<double>(), j["totals"]["energy_by_component"]["clock"].get<double>()};
}

// The clock tree's energy follows what is clocked. Gated, the array's flip-flops see the clock
// only in its compute and fill/drain cycles, the same in a run with DRAM 64x slower: the clock
// energy grows only by the always-clocked command queues, a gate per entry (8 + 16 + 4) x
// 0.00155 pJ (16 nm flip-flop) per extra cycle, and the array's clock power falls with the run
// time.
// Ungated, every clocked bit sees every cycle: the clock energy grows with the run time.
TEST(Categories, ClockEnergyFollowsTheClockedCycles) {
  const std::string run = "run --arch " + std::string(TESSEL_SOURCE_DIR) +
                          "/configs/arch/gemmini-default.yaml --workload gemm:M=256,K=256,N=256 "
                          "--mapper gemmini-auto";
  const std::string slow = " -p dram.bandwidth=0.16B/cycle";
  const ClockedRun fast_gated = clockOf(run + " --ideal-memory");
  const ClockedRun slow_gated = clockOf(run + slow);
  ASSERT_GT(slow_gated.cycles, 2 * fast_gated.cycles);
  const double queues_pj_per_cycle = 28 * 0.00155;
  EXPECT_NEAR(slow_gated.clock_pj - fast_gated.clock_pj,
              queues_pj_per_cycle * (slow_gated.cycles - fast_gated.cycles), 1e-6 * slow_gated.clock_pj);
  const std::string ungated = " -p floorplan.clock_gating=false";
  const ClockedRun fast = clockOf(run + " --ideal-memory" + ungated);
  const ClockedRun slower = clockOf(run + slow + ungated);
  EXPECT_NEAR(slower.clock_pj / fast.clock_pj, slower.cycles / fast.cycles, 1e-6 * slower.cycles / fast.cycles);
}

}  // namespace
}  // namespace tessel
