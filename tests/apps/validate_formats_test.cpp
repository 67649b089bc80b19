// `tessel validate --precision` with a list of formats: the FP32 reference runs once, one row
// per format on stdout, an array under "formats" in the JSON; a bad format exits 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace {

using tessel::testing::runTessel;
using tessel::testing::slurp;

const std::string kGemm = "validate --workload gemm:M=4,N=16,K=256 ";

std::string temp(const std::string& name) { return ::testing::TempDir() + "tessel_vf_" + name; }

TEST(ValidateFormats, ListPrintsOneRowPerFormat) {
  const std::string plan = std::string(TESSEL_SOURCE_DIR) + "/configs/precision/w4a16.yaml";
  const std::string json = temp("list.json");
  const std::vector<std::string> labels{"fp32", "bf16", "fp8_e4m3", "mxfp4", plan};
  const auto r =
      runTessel(kGemm + "--precision fp32,bf16,fp8_e4m3,mxfp4," + plan + " --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  std::istringstream lines(r.out);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);)
    for (const std::string& l : labels)
      if (line.rfind(l + " ", 0) == 0) rows.push_back(l);
  EXPECT_EQ(rows, labels) << r.out;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["formats"].size(), labels.size());
  EXPECT_EQ(j["reference"], "fp32");
  EXPECT_FALSE(j.contains("ops"));  // per format, inside "formats"
  for (size_t i = 0; i < labels.size(); ++i) EXPECT_EQ(j["formats"][i]["format"], labels[i]);
  EXPECT_EQ(j["formats"][4]["precision"], "mixed");
  EXPECT_EQ(j["formats"][4]["plan"], plan);
  EXPECT_TRUE(j["formats"][0]["plan"].is_null());
  auto rel = [&](size_t i) { return j["formats"][i]["output"]["error"]["rel_l2"].get<double>(); };
  EXPECT_EQ(rel(0), 0.0);
  EXPECT_LT(rel(1), rel(2));  // bf16 keeps 8 significant bits, fp8_e4m3 4
}

TEST(ValidateFormats, OneFormatKeepsTheSingleRunReport) {
  const std::string json = temp("one.json");
  ASSERT_EQ(runTessel(kGemm + "-q --precision int4_g128_fp16 --json " + json).code, 0);
  const auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["precision"], "int4_g128_fp16");
  EXPECT_FALSE(j.contains("formats"));
  EXPECT_EQ(j["ops"].size(), 1u);
  EXPECT_TRUE(j["output"]["error"]["rel_l2"].is_number());
}

TEST(ValidateFormats, UnknownOrUnrunnableFormatExitsTwo) {
  const auto r = runTessel(kGemm + "--precision bf16,fp9");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("precision 'fp9': unknown dtype 'fp9'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mxfp4"), std::string::npos) << r.out;  // the accepted names
  const auto u = runTessel(kGemm + "--precision uint4");
  EXPECT_EQ(u.code, 2) << u.out;
  EXPECT_NE(u.out.find("uint4 cannot be executed"), std::string::npos) << u.out;
  EXPECT_EQ(runTessel(kGemm + "--precision bf16,,fp16").code, 2);
  EXPECT_EQ(runTessel(kGemm + "--precision bf16 --plan x.yaml").code, 2);
}

}  // namespace
