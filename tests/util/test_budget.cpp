// util/budget.h: counts checked against the machine's memory and an hour of work, before any
// allocation; tests set a tiny budget through the environment instead of allocating gigabytes.
#include <gtest/gtest.h>

#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"
#include "util/budget.h"
#include "util/yaml.h"

namespace tessel {
namespace {

using testing::errorOf;
using EnvVar = testing::ScopedEnv;

TEST(Budget, TheMachinesMemoryIsKnown) {
  EXPECT_GT(budget::memoryBytes(), uint64_t{1} << 20);
  const EnvVar env("TESSEL_MEMORY_BUDGET", "64 MiB");
  EXPECT_EQ(budget::memoryBytes(), uint64_t{64} << 20);
}

TEST(Budget, ACountIsRefusedWhenItsBytesExceedTheBudget) {
  const EnvVar env("TESSEL_MEMORY_BUDGET", "1 MiB");
  budget::checkCount(1024, 1024, "layers", {});  // exactly 1 MiB fits
  const std::string e =
      errorOf([] { budget::checkCount(1000001, 3 * 1024, "rows", {"t.csv", 1000002, 1, ""}); });
  EXPECT_EQ(e, "t.csv:1000002:1: 1,000,001 rows would need about 2.9 GiB of memory (3.0 KiB each); "
               "TESSEL_MEMORY_BUDGET allows 1.0 MiB")
      << e;
  // A product past 64 bits is refused, not wrapped into a small number.
  const std::string o = errorOf(
      [] { budget::checkCount(int64_t{1} << 40, int64_t{1} << 40, "nodes", {"", 0, 0, "--x"}); });
  EXPECT_EQ(o.rfind("--x: 1,099,511,627,776 nodes would need about 1048576.0 EiB", 0), 0u) << o;
}

TEST(Budget, WorkIsRefusedPastTheTimeBudget) {
  budget::checkWork(1e6, 1e-3, "requests", {});  // 1000 s of an hour
  const std::string e =
      errorOf([] { budget::checkWork(1e8, 1e-3, "requests", {"", 0, 0, "--requests"}); });
  EXPECT_EQ(e, "--requests: 100,000,000 requests would take about 28 hours before any output; "
               "the limit is 60 minutes (TESSEL_TIME_BUDGET raises it)")
      << e;
  const EnvVar env("TESSEL_TIME_BUDGET", "10");
  EXPECT_NE(errorOf([] { budget::checkWork(11, 1, "points", {}); }).find("allows 10 seconds"),
            std::string::npos);
}

TEST(Budget, AYamlFileOfMillionsOfNodesIsRefusedBeforeParsing) {
  std::string text = "levels: [1";
  for (int i = 0; i < 999; ++i) text += ",1";
  text += "]\n";  // 999 commas, a colon, a bracket and a line break bound 1,002 nodes + the root
  {
    const EnvVar env("TESSEL_MEMORY_BUDGET", "64 KiB");
    const std::string e = errorOf([&] { yaml::Document::fromString(text, "big.yaml"); });
    EXPECT_EQ(e.rfind("big.yaml: 1,003 YAML nodes would need about 460.4 KiB of memory", 0), 0u) << e;
  }
  EXPECT_NO_THROW(yaml::Document::fromString(text, "big.yaml"));
}

}  // namespace
}  // namespace tessel
