// End-to-end tests of the tessel binary on the shipped configs: exit codes, error locations,
// JSON contract invariants, determinism.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli_runner.h"

namespace {

using Result = tessel::testing::CliResult;

Result tessel(const std::string& args) { return tessel::testing::runTessel(args); }

std::string config(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml";
}

std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + "tessel_cli_" + name;
}

using tessel::testing::slurp;

// The JSON invariants every run must satisfy: both breakdowns add up to the total.
void checkJson(const std::string& path) {
  const auto j = nlohmann::json::parse(slurp(path));
  const double total = j["totals"]["cycles"].get<double>();
  EXPECT_GT(total, 0);
  double by_class = 0, by_cause = 0, by_ops = 0;
  for (const auto& row : j["breakdown"]["by_class"]) by_class += row["cycles"].get<double>();
  for (const auto& row : j["breakdown"]["by_cause"]) by_cause += row["cycles"].get<double>();
  for (const auto& op : j["ops"]) by_ops += op["cycles"].get<double>();
  EXPECT_NEAR(by_class, total, 1e-6 * total + 1);
  EXPECT_NEAR(by_cause, total, 1e-6 * total + 1);
  EXPECT_NEAR(by_ops, total, 1e-6 * total + 1);
}

class CliRun : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CliRun, RunsAndReportsConsistently) {
  const auto& [arch, workload] = GetParam();
  const std::string json =
      tempPath(arch + "_" + std::to_string(std::hash<std::string>{}(workload)) + ".json");
  // --seq only where the workload has a sequence: elsewhere it is an error, not ignored.
  const bool transformer = workload.rfind("gpt2", 0) == 0 || workload.rfind("bert", 0) == 0;
  const Result r = tessel("run -q --arch " + config(arch) + " --workload '" + workload + "'" +
                          (transformer ? " --seq 128" : "") + " --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  checkJson(json);
}

INSTANTIATE_TEST_SUITE_P(
    ShippedConfigs, CliRun,
    ::testing::Combine(::testing::Values("gemmini-default", "gemmini-survey-model", "tpu-v1-like",
                                         "eyeriss-like", "shidiannao-like", "npu-3core",
                                         "simba-like", "tpu-v4i-like", "h100-sxm-like"),
                       ::testing::Values("gpt2-small", "bert-base", "resnet50",
                                         "gemm:M=512,K=768,N=2304",
                                         "conv:H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=1")));

TEST(Cli, DecodeAndOutputStationary) {
  const Result r = tessel("run --arch " + config("gemmini-default") +
                          " --workload gpt2-small --phase decode --seq 256 --dataflow os");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("MatMul"), std::string::npos) << r.out;
}

TEST(Cli, JsonIsByteIdenticalAcrossRuns) {
  const std::string a = tempPath("det_a.json"), b = tempPath("det_b.json");
  const std::string args =
      "run -q --arch " + config("gemmini-default") + " --workload bert-base --seq 128";
  ASSERT_EQ(tessel(args + " --json " + a).code, 0);
  ASSERT_EQ(tessel(args + " --json " + b).code, 0);
  EXPECT_EQ(slurp(a), slurp(b));
}

TEST(Cli, OverrideChangesTheResult) {
  const std::string a = tempPath("ov_a.json"), b = tempPath("ov_b.json");
  const std::string args =
      "run -q --arch " + config("gemmini-default") + " --workload gpt2-small --seq 256";
  ASSERT_EQ(tessel(args + " --json " + a).code, 0);
  const Result r = tessel(args + " -p accumulator.capacity=256KiB --json " + b);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto ja = nlohmann::json::parse(slurp(a)), jb = nlohmann::json::parse(slurp(b));
  EXPECT_NE(ja["totals"]["cycles"], jb["totals"]["cycles"]);
  EXPECT_NE(ja["metadata"]["arch"]["hash"], jb["metadata"]["arch"]["hash"]);
}

TEST(Cli, BadYamlIsLocatedAndExitsTwo) {
  const std::string path = tempPath("bad.yaml");
  std::string text = slurp(config("gemmini-default"));
  const auto pos = text.find("capacity");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 8, "capcity");
  std::ofstream(path) << text;
  const int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
  const Result r = tessel("arch check " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(path + ":" + std::to_string(line) + ":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("did you mean 'capacity'"), std::string::npos) << r.out;
  EXPECT_EQ(tessel("run --arch " + path + " --workload gpt2").code, 2);
}

// The chosen mapping written as Timeloop map.yaml and pinned again: the same mapping, the same
// cycles; a misspelled level in it is located.
TEST(Cli, EmittedMappingsPinTheSameMapping) {
  const std::string a = tempPath("emit_a.yaml"), b = tempPath("emit_b.yaml");
  const std::string ja = tempPath("emit_a.json"), jb = tempPath("emit_b.json");
  const std::string args = "run -q --arch " + config("eyeriss-like") +
                           " --workload conv:H=14,W=14,C=8,K=16,R=3,S=3,pad=1";
  Result r = tessel(args + " --emit-mapping " + a + " --json " + ja);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(slurp(a).rfind("op: conv\nmapping:\n", 0), 0u) << slurp(a);
  r = tessel(args + " --mapping " + a + " --emit-mapping " + b + " --json " + jb);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(slurp(a), slurp(b));
  EXPECT_EQ(nlohmann::json::parse(slurp(ja))["totals"]["cycles"],
            nlohmann::json::parse(slurp(jb))["totals"]["cycles"]);
  std::string text = slurp(a);
  const auto pos = text.find("target: global_buffer");
  text.replace(pos, 21, "target: global_bufer");
  std::ofstream(b) << text;
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + long(pos), '\n'));
  r = tessel(args + " --mapping " + b);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(b + ":" + std::to_string(line) + ":13:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("did you mean 'global_buffer'"), std::string::npos) << r.out;
}

TEST(Cli, BadWorkloadAndOptionsExitTwo) {
  const std::string arch = " --arch " + config("gemmini-default");
  Result r = tessel("run" + arch + " --workload gtp2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("did you mean 'gpt2'"), std::string::npos) << r.out;
  EXPECT_EQ(tessel("run" + arch + " --workload gpt2 --seq 0").code, 2);
  EXPECT_EQ(tessel("run" + arch + " --workload gpt2 --dataflow rs").code, 2);
  EXPECT_EQ(tessel("run" + arch + " --workload gpt2 -p accumulator.capacty=1MiB").code, 2);
  EXPECT_EQ(tessel("run --workload gpt2").code, 2);  // --arch missing
  EXPECT_EQ(tessel("run --arch /nonexistent.yaml --workload gpt2").code, 2);
  const Result w = tessel("run -q" + arch + " --workload gpt2 --json /nonexistent/dir/r.json");
  EXPECT_EQ(w.code, 2);
  EXPECT_NE(w.out.find("/nonexistent/dir/r.json"), std::string::npos) << w.out;
  // A report never overwrites an input: the user's YAML survives a mistyped --json.
  const std::string mine = tempPath("mine.yaml");
  std::ofstream(mine) << slurp(config("gemmini-default"));
  EXPECT_EQ(tessel("run -q --arch " + mine + " --workload gpt2 --json " + mine).code, 2);
  EXPECT_EQ(slurp(mine), slurp(config("gemmini-default")));
}

TEST(Cli, ArchCheckAndSchema) {
  Result r = tessel("arch check " + config("gemmini-default"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("OK"), std::string::npos);
  r = tessel("arch schema");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("accumulator"), std::string::npos);
}

TEST(Cli, WorkloadListsOps) {
  const std::string json = tempPath("wl.json");
  const Result r = tessel("workload gpt2-small --seq 512 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("h0.attn.qkv"), std::string::npos);
  const auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["parameters"].get<int64_t>(), 124439808);  // the public GPT-2 small count
}

}  // namespace
