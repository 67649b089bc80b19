// `tessel compare` end to end: every dataflow asked on every workload, the ones a design cannot
// run listed with the reason, each run equal to the same `tessel run`, winners that are the
// minima of the numbers beside them, and bad input refused with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace {

using tessel::testing::runTessel;
using tessel::testing::slurp;

std::string config(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml";
}

std::string temp(const std::string& name) { return ::testing::TempDir() + "tessel_cmp_" + name; }

const char* const kConv = "conv:H=14,W=14,C=32,K=48,R=3,S=3,stride=1,pad=1";
const char* const kGemm = "gemm:M=64,K=96,N=80";

nlohmann::json compare(const std::string& arch, const std::string& extra = "") {
  const std::string json = temp(arch + ".json");
  const auto r = runTessel("compare -q --arch " + config(arch) + " --workloads '" + kConv + "," +
                           kGemm + "' --budget 2000 --json " + json + " " + extra);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json));
}

double runCycles(const std::string& arch, const std::string& workload, const std::string& df) {
  const std::string json = temp("run.json");
  const auto r = runTessel("run -q --arch " + config(arch) + " --workload '" + workload +
                           "' --dataflow " + df + " --budget 2000 --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json))["totals"]["cycles"].get<double>();
}

TEST(Compare, GemminiRunsItsDataflowsAndNamesWhyNotTheOthers) {
  const auto j = compare("gemmini-default");
  ASSERT_EQ(j["workloads"].size(), 2u);
  for (const auto& w : j["workloads"]) {
    ASSERT_EQ(w["runs"].size(), 5u);
    for (const auto& r : w["runs"]) {
      const std::string df = r["dataflow"];
      if (df == "ws" || df == "os") {
        ASSERT_TRUE(r["ok"].get<bool>()) << df;
        // The comparison's number is the same run's number.
        EXPECT_DOUBLE_EQ(r["cycles"].get<double>(), runCycles("gemmini-default", w["workload"], df));
      } else {
        EXPECT_FALSE(r["ok"].get<bool>()) << df;
        const std::string why = r["reason"];
        EXPECT_TRUE(why.find("spatial arrays") != std::string::npos ||
                    why.find("does not support") != std::string::npos)
            << why;
      }
    }
  }
}

TEST(Compare, WinnersAreTheMinimaAndEnergiesAddUp) {
  const auto j = compare("eyeriss-like");
  for (const auto& w : j["workloads"]) {
    double best = 1e300;
    std::string fastest;
    for (const auto& r : w["runs"]) {
      ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();  // the Eyeriss-like design runs all five
      double sum = 0;
      for (const auto& [k, v] : r["energy_by_component"].items()) sum += v.get<double>();
      EXPECT_NEAR(sum, r["energy_pj"].get<double>(), 1e-6 * sum);
      if (r["cycles"].get<double>() < best) best = r["cycles"], fastest = r["dataflow"];
    }
    EXPECT_EQ(w["winners"]["latency"], fastest);
    ASSERT_FALSE(w["layers"].empty());
    for (const auto& l : w["layers"]) {
      std::string win;
      double min = 1e300;
      for (const auto& [df, c] : l["cycles"].items()) {
        if (c.get<double>() < min) min = c, win = df;
      }
      EXPECT_EQ(l["cycles"][l["winner"]["latency"].get<std::string>()].get<double>(), min);
    }
  }
}

TEST(Compare, EveryDataflowsReuseShowsInItsMapping) {
  // The 3x3 convolution under each dataflow: the PE keeps what the dataflow says it keeps.
  const std::string json = temp("rs.json");
  for (const auto& [df, keeps] : std::vector<std::pair<std::string, std::string>>{
           {"rs", "keeps inputs,weights,outputs"},
           {"ws", "keeps weights"},
           {"os", "keeps outputs"},
           {"is", "keeps inputs"},
           {"nlr", "keeps -"}}) {
    const auto r = runTessel("run -q --arch " + config("eyeriss-like") + " --workload '" + kConv +
                             "' --dataflow " + df + " --json " + json);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto op = nlohmann::json::parse(slurp(json))["ops"][0];
    const std::string pe = op["mapping"]["pe"];
    EXPECT_NE(pe.find(keeps), std::string::npos) << df << ": " << pe;
    EXPECT_NE(op["loop_nest"].get<std::string>().find("parallel rows"), std::string::npos);
    if (df == "nlr") {
      EXPECT_EQ(op["register_file_bytes"].get<int64_t>(), 0);
    } else {
      EXPECT_GT(op["register_file_bytes"].get<int64_t>(), 0);
    }
  }
}

TEST(Compare, TablesAndCsvCarryEveryPair) {
  const std::string csv = temp("c.csv");
  const auto r = runTessel("compare --arch " + config("shidiannao-like") + " --workloads '" +
                           kGemm + "' --dataflows os,rs,nlr --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("rs        cannot run: accelerator 'shidiannao-like' does not run"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("winners: latency"), std::string::npos);
  const std::string text = slurp(csv);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);  // header + 3 dataflows
  EXPECT_NE(text.find(",rs,refused,"), std::string::npos);
}

TEST(Compare, TheDataflowsCommandPrintsEachNest) {
  const auto r = runTessel("dataflows");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("arrays spatial | rows R,C | cols P,K,N | PE keeps inputs,weights,outputs, "
                       "loops S,Q,C,K"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("arrays spatial | rows C,R,S | cols K,P,Q,N | PE keeps -, loops -"),
            std::string::npos);
  EXPECT_NE(r.out.find("GEMM view: rows=k cols=n stream=m"), std::string::npos);
}

TEST(Compare, BadInputIsExitTwo) {
  const std::string arch = " --arch " + config("gemmini-default");
  auto r = runTessel("compare" + arch + " --workloads '" + std::string(kGemm) + "' --dataflows ws,wz");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("wz"), std::string::npos) << r.out;
  r = runTessel("compare" + arch + " --workloads gpt2 --image 64");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("none of the workloads compared uses --image"), std::string::npos) << r.out;
  // The whole space of ResNet-50's first layer is millions of candidates: refused, not a hang.
  r = runTessel("run" + arch + " --workload resnet50 --budget 0 -q");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("give a budget"), std::string::npos) << r.out;
  r = runTessel("compare" + arch + " --workloads '" + std::string(kGemm) + "' --dataflows ws,os,ws");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("'ws' is listed twice"), std::string::npos) << r.out;
  r = runTessel("compare" + arch + " --workloads gpt3");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown workload 'gpt3'"), std::string::npos) << r.out;
}

}  // namespace
