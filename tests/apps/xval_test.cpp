// `tessel run --engine systemc`, `--trace` and `tessel xval` from the command line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

using testing::runTessel;
using testing::slurp;

const std::string kGemmini = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";
const std::string kEyeriss = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/eyeriss-like.yaml";

std::string tmp(const std::string& name) {
  return ::testing::TempDir() + "xval_" + name + "_" + std::to_string(::getpid());
}

TEST(CliSystemc, RunsTheSameReportWithTheSystemcEngine) {
  const std::string json = tmp("run.json");
  const auto r = runTessel("run --arch " + kGemmini +
                           " --workload gemm:M=512,K=768,N=768 --engine systemc --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("engine systemc"), std::string::npos);
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["metadata"]["engine"], "systemc");
  // The SystemC engine says what the array waited on.
  EXPECT_TRUE(doc["ops"][0].contains("waits")) << doc["ops"][0].dump();
  std::remove(json.c_str());
}

TEST(CliSystemc, UnknownEngineListsTheKnownOnes) {
  const auto r = runTessel("run --arch " + kGemmini + " --workload gemm:M=64,K=64,N=64 --engine rtl");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("analytical, scalesim, systemc"), std::string::npos) << r.out;
}

TEST(CliSystemc, TraceNeedsTheSystemcEngine) {
  const std::string trace = tmp("no.trace.json");
  const auto r = runTessel("run --arch " + kGemmini + " --workload gemm:M=64,K=64,N=64 --trace " + trace);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--engine systemc"), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(trace).good());  // nothing written
}

TEST(CliSystemc, TraceIsChromeTraceEventJson) {
  const std::string trace = tmp("trace.json");
  const auto r = runTessel("run --arch " + kEyeriss +
                           " --workload conv:H=28,W=28,C=64,K=64,R=3,S=3,pad=1 --engine systemc "
                           "--trace " + trace);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(slurp(trace));
  ASSERT_TRUE(doc.contains("traceEvents"));
  int complete = 0, named = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "X") {
      ++complete;
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      EXPECT_TRUE(e["args"].contains("bytes"));
    }
    named += e["name"] == "thread_name";
  }
  EXPECT_GT(complete, 3);
  EXPECT_GE(named, 4);  // host, dma, array, sfu at least
  std::remove(trace.c_str());
}

TEST(CliXval, ComparesTheEnginesOpByOp) {
  const std::string json = tmp("xval.json");
  const auto r = runTessel("xval --arch " + kGemmini +
                           " --workload gpt2-small --seq 64 --layers 1 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("Byte counts     identical on every op"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Largest gaps"), std::string::npos);
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["schema"], "tessel.xval/1");
  EXPECT_EQ(doc["totals"]["byte_mismatches"], 0);
  EXPECT_EQ(doc["totals"]["ops"].get<size_t>(), doc["ops"].size());
  const double ratio = doc["totals"]["ratio"];
  EXPECT_NEAR(ratio, doc["totals"]["systemc_cycles"].get<double>() /
                         doc["totals"]["analytical_cycles"].get<double>(), 1e-9);
  std::remove(json.c_str());
}

TEST(CliXval, StrictFailsBeyondTheTolerance) {
  // No two engines agree to a millionth on every op: --strict turns that into exit 1.
  const auto r = runTessel("xval --arch " + kGemmini +
                           " --workload gpt2-small --seq 64 --layers 1 --tolerance 0.000001 --strict "
                           "--top 0");
  EXPECT_EQ(r.code, 1) << r.out;
}

TEST(CliXval, BadToleranceIsAnError) {
  const auto r = runTessel("xval --arch " + kGemmini + " --workload gemm:M=64,K=64,N=64 --tolerance 0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--tolerance"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tessel
