// A trace's lines are checked against the memory budget before they are split into requests,
// and its requests against the time budget before any is simulated (request_budget.h); the
// tests set tiny budgets instead of writing 10^8 lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "serve/llm/request_budget.h"
#include "serve/llm/requests.h"
#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"

namespace tessel::serve::llm {
namespace {

using tessel::testing::errorOf;
using tessel::testing::ScopedEnv;

// A CSV trace of `n` requests of `output` tokens each.
std::string writeTrace(const std::string& name, int n, int output) {
  const std::string path =
      ::testing::TempDir() + "tessel_budget_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream out(path);
  out << "arrival,prompt_tokens,output_tokens\n";
  for (int i = 0; i < n; ++i) out << i << ",16," << output << "\n";
  return path;
}

TEST(RequestBudget, ATracePastTheMemoryBudgetIsRefusedAtItsLastLine) {
  const std::string path = writeTrace("memory.csv", 100, 8);
  {
    const ScopedEnv budget("TESSEL_MEMORY_BUDGET", "8 KiB");
    const std::string e = errorOf([&] { readTrace(path); });
    EXPECT_EQ(e.rfind(path + ":101: 100 requests would need about", 0), 0u) << e;
    EXPECT_NE(e.find("TESSEL_MEMORY_BUDGET allows 8.0 KiB"), std::string::npos) << e;
  }
  EXPECT_EQ(readTrace(path).size(), 100u);
}

TEST(RequestBudget, ATracePastTheTimeBudgetIsRefusedBeforeItIsSimulated) {
  // 50 requests decoding a million tokens each: up to 35 s of scheduling.
  const std::string path = writeTrace("time.csv", 50, 1000000);
  const ScopedEnv budget("TESSEL_TIME_BUDGET", "10");
  const std::string e = errorOf([&] { readTrace(path); });
  EXPECT_EQ(e, path + ":51: 50 requests would take about 35 seconds before any output; "
                      "TESSEL_TIME_BUDGET allows 10 seconds")
      << e;
}

TEST(RequestBudget, SimulatedRequestsAreCountedOverTheGrid) {
  const std::string e = errorOf([] {
    checkRequests(10'000'000, 0, 256, 20, {"", 0, 0, "--requests"});
  });
  EXPECT_EQ(e.rfind("--requests: 200,000,000 simulated requests (10,000,000 at each of 20 grid "
                    "points) would take about",
                    0),
            0u)
      << e;
  checkRequests(2000, 0, 256, 4, {"", 0, 0, "--requests"});  // the default stream fits
}

}  // namespace
}  // namespace tessel::serve::llm
