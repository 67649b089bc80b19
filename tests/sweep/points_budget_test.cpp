// A sweep's points are counted (the product of its axes, over every workload) and checked against
// the memory budget before the first is made (util/budget.h; the test sets a tiny budget); the
// files a spec names are found beside it (util/paths.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "sweep/evaluate.h"
#include "sweep/points.h"
#include "sweep/spec.h"
#include "tests/sweep/spec_helpers.h"
#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"

namespace tessel::sweep {
namespace {

const char kGrid[] =
    "workloads: [gpt2, bert]\n"
    "grid:\n"
    "  scratchpad.capacity: [64KiB, 128KiB, 256KiB, 512KiB, 1MiB, 2MiB, 4MiB, 8MiB, 16MiB, 32MiB]\n"
    "  accumulator.capacity: [16KiB, 32KiB, 64KiB, 128KiB, 256KiB, 512KiB, 1MiB, 2MiB, 4MiB, 8MiB]\n"
    "  dram.bandwidth: [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]\n";

TEST(PointsBudget, AGridPastTheMemoryBudgetIsRefusedBeforeAnyPoint) {
  const std::string path = testing::writeSpec(testing::freshDir("budget"), kGrid);
  const Spec spec = loadSpec(path);
  {
    const testing::ScopedEnv budget("TESSEL_MEMORY_BUDGET", "1 MiB");
    const std::string e = testing::errorOf([&] { generatePoints(spec); });
    // 1,000 points per workload: the first workload fits, the two together do not.
    EXPECT_EQ(e.rfind(path + ": at 'grid': 2,000 sweep points (the product of the axes) would need", 0),
              0u) << e;
    EXPECT_NE(e.find("TESSEL_MEMORY_BUDGET allows 1.0 MiB"), std::string::npos) << e;
  }
  EXPECT_EQ(generatePoints(spec).points.size(), 2000u);
}

TEST(SpecFiles, ADataflowFileIsFoundBesideTheSpecWhateverTheWorkingDirectory) {
  const std::string dir = testing::freshDir("dataflow-file");
  std::filesystem::copy_file(std::string(TESSEL_SOURCE_DIR) + "/configs/dataflows/os.yaml",
                             dir + "/mine.yaml");
  const Spec spec = loadSpec(testing::writeSpec(
      dir, "workloads: [\"gemm:M=8,K=8,N=8\"]\ndataflow: mine.yaml\nmapper: gemmini-auto\n"));
  const PointSet points = generatePoints(spec);
  ASSERT_EQ(points.points.size(), 1u);
  const auto line = nlohmann::json::parse(PointEvaluator(spec).evaluate(points.points[0]));
  EXPECT_EQ(line["status"], "ok") << line.dump();
}

}  // namespace
}  // namespace tessel::sweep
