// `tessel run --accesses`: the per-op table of reads, fills and updates after the usual output,
// and nothing when it would corrupt a report on standard output.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_runner.h"

namespace {

using tessel::testing::runTessel;

// The pinned GEMM of tests/sim/accesses_test.cpp (EyerissPinnedGemmByHand), whose counts are
// derived there.
std::string pinnedRun(const std::string& extra) {
  const std::string pin = ::testing::TempDir() + "tessel_cli_accesses_pin.yaml";
  std::ofstream(pin) << "op: gemm\n"
                        "spatial: {rows: {k: 12}, cols: {n: 14}}\n"
                        "levels:\n"
                        "  pe: {factors: {m: 16}, keeps: [weights]}\n"
                        "  dram: {factors: {k: 2, n: 2}, order: [k, n]}\n";
  return "run --arch " + std::string(TESSEL_SOURCE_DIR) +
         "/configs/arch/eyeriss-like.yaml --workload gemm:M=16,K=24,N=28 --dataflow ws "
         "--mapping " +
         pin + " " + extra;
}

// Runs of spaces collapsed, so the test does not depend on column widths.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' || (!out.empty() && out.back() != ' ' && out.back() != '\n')) out += c;
  }
  return out;
}

TEST(CliAccesses, TablePerOpAfterTheUsualOutput) {
  const auto r = runTessel(pinnedRun("--accesses"));
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string out = squeezed(r.out);
  const size_t at = out.find("Accesses of gemm (words, summed over instances)");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_LT(out.find("By cause"), at);  // after the usual table
  EXPECT_NE(out.find("level instances tensor reads fills updates\n"), std::string::npos);
  EXPECT_NE(out.find("dram 1 output 448 0 896\n"), std::string::npos) << r.out;
  EXPECT_NE(out.find("global_buffer 1 output 1,344 448 896\n"), std::string::npos) << r.out;
  EXPECT_NE(out.find("pe 168 weight 10,752 672 0\n"), std::string::npos) << r.out;
  EXPECT_NE(out.find("global_buffer NoC 168 input 1,536 21,504\n"), std::string::npos) << r.out;
}

TEST(CliAccesses, OnlyWhenAskedAndNeverIntoAReportOnStandardOutput) {
  auto r = runTessel(pinnedRun(""));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("Accesses of"), std::string::npos);
  r = runTessel(pinnedRun("--accesses -q"));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
  r = runTessel(pinnedRun("--accesses --json -"));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("Accesses of"), std::string::npos);
  EXPECT_NE(r.out.find("\"accesses\": ["), std::string::npos);
}

}  // namespace
