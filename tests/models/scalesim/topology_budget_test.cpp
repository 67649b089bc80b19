// A topology's rows are checked against the memory budget before they are split into layers
// (util/budget.h); the test sets a tiny budget instead of writing a million rows.
#include <gtest/gtest.h>

#include <string>

#include "models/scalesim/topology.h"
#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"

namespace tessel::models {
namespace {

TEST(TopologyBudget, RowsPastTheMemoryBudgetAreRefusedAtTheLastLine) {
  std::string csv = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, "
                    "Num Filter, Strides,\n";
  for (int i = 0; i < 100; ++i) csv += "c" + std::to_string(i) + ", 8, 8, 3, 3, 4, 4, 1,\n";
  const tessel::testing::ScopedEnv budget("TESSEL_MEMORY_BUDGET", "256 KiB");
  const std::string e = tessel::testing::errorOf([&] { scalesim::parseTopology(csv, "t.csv", {}); });
  EXPECT_EQ(e.rfind("t.csv:101: at 'workload': 100 layers would need about", 0), 0u) << e;
  EXPECT_NE(e.find("TESSEL_MEMORY_BUDGET allows 256.0 KiB"), std::string::npos) << e;
}

TEST(TopologyBudget, RowsWithinTheBudgetBuild) {
  const std::string csv = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                          "Channels, Num Filter, Strides,\nc0, 8, 8, 3, 3, 4, 4, 1,";
  const tessel::testing::ScopedEnv budget("TESSEL_MEMORY_BUDGET", "256 KiB");
  EXPECT_EQ(scalesim::parseTopology(csv, "t.csv", {}).ops().size(), 1u);
}

}  // namespace
}  // namespace tessel::models
