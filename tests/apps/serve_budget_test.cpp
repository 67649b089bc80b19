// `tessel serve` of an LLM with 10^8 requests is refused up front (exit 2), naming --requests and
// what the stream would need, instead of running for hours.
#include <gtest/gtest.h>

#include <chrono>

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

}  // namespace
}  // namespace tessel
