// Counts that imply hours of work or more memory than the machine has are refused up front
// (exit 2), naming the option: `tessel serve` of an LLM with 10^8 requests, a `tessel run` whose
// mapper search would take hours.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

TEST(ServeBudget, AHundredMillionRequestsAreRefusedUpFront) {
  const std::string args = "serve --arch " + std::string(TESSEL_SOURCE_DIR) +
                           "/configs/arch/gemmini-default.yaml --workload " + TESSEL_SOURCE_DIR +
                           "/tests/serve/llm/data/tiny-llama.json --rate 5 --requests 100000000";
  const auto start = std::chrono::steady_clock::now();
  const auto r = testing::runTessel(args);
  EXPECT_EQ(r.code, 2) << r.out;
  // Memory or time, whichever runs out first on this machine; both name the option and count.
  EXPECT_NE(r.out.find("--requests: 100,000,000 requests would"), std::string::npos) << r.out;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ServeBudget, AVisionServiceCountsItsRequestsOverEveryConfiguration) {
  const auto r = testing::runTessel("serve --arch " + std::string(TESSEL_SOURCE_DIR) +
                                        "/configs/arch/gemmini-default.yaml --workload resnet50 "
                                        "--requests 1000000 --workers 1,2,4,8 --batch 1,2",
                                    "TESSEL_TIME_BUDGET=2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--requests: 8,000,000 simulated requests (1,000,000 in each of 8 "
                       "configurations) would take about 6 seconds before any output; "
                       "TESSEL_TIME_BUDGET allows 2 seconds"),
            std::string::npos)
      << r.out;
}

TEST(RunBudget, AMapperSearchOfHoursIsRefusedNamingBudget) {
  const std::string topo = ::testing::TempDir() + "tessel_budget_topology.csv";
  {
    std::ofstream out(topo);
    out << "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, "
           "Num Filter, Strides,\n";
    for (int i = 0; i < 20; ++i) out << "c" << i << ", 16, 16, 3, 3, " << 4 + i << ", 8, 1,\n";
  }
  const auto r = testing::runTessel("run --arch " + std::string(TESSEL_SOURCE_DIR) +
                                        "/configs/arch/gemmini-default.yaml --workload " + topo +
                                        " --budget 1000000",
                                    "TESSEL_TIME_BUDGET=10");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--budget: 20 distinct layers to map at 1000000 cost evaluations each"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("TESSEL_TIME_BUDGET allows 10 seconds"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tessel
