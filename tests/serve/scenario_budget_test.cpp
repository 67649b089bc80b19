// A vision service's --requests is checked against the memory and time budgets before its
// timeline is built (util/budget.h); the tests set tiny budgets instead of simulating millions.
#include <gtest/gtest.h>

#include "serve/timeline/validate.h"
#include "tests/serve/run_timeline.h"
#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"

namespace tessel::serve::systemc {
namespace {

using tessel::testing::errorOf;
using tessel::testing::ScopedEnv;

TEST(ServeScenarioBudget, RequestsPastTheBudgetsAreRefusedNamingTheOption) {
  const Scenario s = testing::closedLoop("big", 1, 0, 1e-3, 0, 10'000'000);
  {
    const ScopedEnv budget("TESSEL_MEMORY_BUDGET", "1 MiB");
    EXPECT_EQ(errorOf([&] { validate(s); }),
              "--requests: 10,000,000 requests would need about 76.3 MiB of memory (8 B each); "
              "TESSEL_MEMORY_BUDGET allows 1.0 MiB");
  }
  {
    const ScopedEnv budget("TESSEL_TIME_BUDGET", "1");
    EXPECT_EQ(errorOf([&] { validate(s); }),
              "--requests: 10,000,000 requests would take about 7 seconds before any output; "
              "TESSEL_TIME_BUDGET allows 1 seconds");
  }
  validate(s);  // the machine's budgets take it
}

}  // namespace
}  // namespace tessel::serve::systemc
