// tessel run --scalesim-timing / --scalesim-report end to end.
#include <gtest/gtest.h>

#include <filesystem>

#include "reports/scalesim_report.h"
#include "tests/cli_runner.h"

namespace tessel {
namespace {

const std::string kArch =
    "run --arch " + std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";

TEST(ScaleSimCli, ReportsAreWrittenWithScaleSimsHeaders) {
  const auto dir = std::filesystem::temp_directory_path() / "tessel_scalesim_cli_test";
  std::filesystem::remove_all(dir);
  // gemm M=64 N=64 K=64 on 16x16, os: 4 x 4 folds of 64 + 16 + 16 - 2 = 94 -> 1503 cycles.
  const auto r = testing::runTessel(kArch +
                                    " --workload gemm:M=64,K=64,N=64 --dataflow os --mapper "
                                    "gemmini-auto --scalesim-timing --scalesim-report " +
                                    dir.string() + " -q");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string compute = testing::slurp((dir / "COMPUTE_REPORT.csv").string());
  EXPECT_EQ(compute, std::string(reports::kScaleSimComputeHeader) +
                         "0, 1503, 0, 68.13040585495675, 100.0, 68.0851063829787,\n");
  const std::string bw = testing::slurp((dir / "BANDWIDTH_REPORT.csv").string());
  EXPECT_EQ(bw.substr(0, bw.find('\n') + 1), reports::kScaleSimBandwidthHeader);
  // One knob off: folds overlap, so fewer cycles.
  const auto o = testing::runTessel(kArch +
                                    " --workload gemm:M=64,K=64,N=64 --dataflow os --mapper "
                                    "gemmini-auto --scalesim-timing fold_overlap=on --scalesim-report " +
                                    dir.string() + " -q");
  ASSERT_EQ(o.code, 0) << o.out;
  const std::string overlapped = testing::slurp((dir / "COMPUTE_REPORT.csv").string());
  EXPECT_LT(std::stol(overlapped.substr(overlapped.find("\n0, ") + 4)), 1503L);
  std::filesystem::remove_all(dir);
}

// The label under "run" in the JSON report: the mapper that planned.
std::string mapperOf(const std::string& args) {
  const auto r = testing::runTessel(kArch + " --workload gemm:M=256,K=512,N=384 " + args +
                                    " --json - -q");
  EXPECT_EQ(r.code, 0) << r.out;
  const std::string key = "\"mapper\": \"";
  const size_t at = r.out.find(key);
  if (at == std::string::npos) return "(none)";
  const size_t from = at + key.size();
  return r.out.substr(from, r.out.find('"', from) - from);
}

TEST(ScaleSimCli, PlansOnlyWhatTheFormulasNeedUnlessAskedOtherwise) {
  // SCALE-Sim's cycles need the shape and the array, not a searched mapping.
  EXPECT_EQ(mapperOf("--scalesim-timing"), "gemmini-auto");
  EXPECT_EQ(mapperOf("--scalesim-timing fold_overlap=on"), "gemmini-auto");
  // A written --mapper wins; memory=tessel's stalls depend on the mapping, so it searches.
  EXPECT_EQ(mapperOf("--scalesim-timing --mapper search"), "search");
  EXPECT_EQ(mapperOf("--scalesim-timing memory=tessel"), "search");
  EXPECT_EQ(mapperOf(""), "search");
}

TEST(ScaleSimCli, BadKnobExitsTwoNamingTheOption) {
  const auto r = testing::runTessel(kArch + " --workload gemm:M=64,K=64,N=64 --dataflow os "
                                             "--scalesim-timing fold_overlap=maybe -q");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--scalesim-timing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fold_overlap=on"), std::string::npos) << r.out;
  const auto e = testing::runTessel(kArch + " --workload gemm:M=64,K=64,N=64 --engine systemc "
                                             "--scalesim-timing -q");
  EXPECT_EQ(e.code, 2) << e.out;
}

}  // namespace
}  // namespace tessel
