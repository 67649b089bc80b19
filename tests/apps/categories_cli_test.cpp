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

}  // namespace
}  // namespace tessel
