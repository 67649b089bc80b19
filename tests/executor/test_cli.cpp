// `tessel validate` and `tessel precision` end to end: exit codes, JSON fields, determinism, and
// plans that `validate --plan` and `run --precision-plan` both read.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace {

using Result = tessel::testing::CliResult;

Result tessel(const std::string& args) { return tessel::testing::runTessel(args); }

std::string temp(const std::string& name) { return ::testing::TempDir() + "tessel_exec_" + name; }

using tessel::testing::slurp;

const std::string kGpt2 = "--workload gpt2 --layers 1 --seq 8";

TEST(ExecutorCli, ValidateWritesDeterministicJson) {
  const std::string a = temp("a.json"), b = temp("b.json");
  Result r = tessel("validate " + kGpt2 + " --fuse --json " + a);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("top-1 agreement"), std::string::npos) << r.out;
  ASSERT_EQ(tessel("validate -q " + kGpt2 + " --fuse --json " + b).code, 0);
  EXPECT_EQ(slurp(a), slurp(b));
  const auto j = nlohmann::json::parse(slurp(a));
  EXPECT_EQ(j["precision"], "int8");
  EXPECT_EQ(j["fuse"], true);
  EXPECT_EQ(j["ops"].size(), 17u);  // wte wpe embed + 12 block ops + ln_f lm_head
  for (const auto& op : j["ops"]) {
    EXPECT_TRUE(op.contains("name") && op.contains("dtype") && op.contains("clipped"));
    if (op["fused_into"].is_null()) {
      EXPECT_GT(op["error"]["cosine"].get<double>(), 0.99) << op["name"];
    }
  }
  EXPECT_EQ(j["output"]["tensor"], "lm_head");
  EXPECT_GT(j["output"]["error"]["sqnr_db"].get<double>(), 20.0);
  EXPECT_GE(j["output"]["top1_agreement"].get<double>(), 0.0);  // one row: 0 or 1
  EXPECT_EQ(j["output"]["rows"], 1);
  EXPECT_TRUE(j["output"]["kl_divergence"].is_number());
}

TEST(ExecutorCli, ValidateOtherModels) {
  const std::string path = temp("bert.json");
  ASSERT_EQ(tessel("validate -q --workload bert --layers 1 --seq 8 --precision bf16 "
                   "--integer-nonlinear --json " +
                   path)
                .code,
            0);
  const auto j = nlohmann::json::parse(slurp(path));
  EXPECT_FALSE(j["output"].contains("top1_agreement"));  // hidden states: no logits
  const Result r = tessel("validate --workload resnet50 --image 32 --fuse");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("output fc"), std::string::npos);
}

TEST(ExecutorCli, BadInputExitsTwo) {
  for (const std::string& args : std::vector<std::string>{
           "validate " + kGpt2 + " --precision int3", "validate " + kGpt2 + " --precision mixed",
           "validate " + kGpt2 + " --plan x.yaml", "validate " + kGpt2 + " --calibration median",
           "validate " + kGpt2 + " --bogus", std::string("validate --seq 8"),
           std::string("validate --workload gtp2"),
           std::string("validate --workload gpt2 --layers 13"),
           "validate " + kGpt2 + " --precision mixed --plan /nonexistent.yaml",
           "precision " + kGpt2, "precision " + kGpt2 + " --tolerance 0",
           "precision " + kGpt2 + " --tolerance 0.1 --to int3",
           "precision --workload bert --layers 1 --seq 8 --tolerance 0.1 --metric kl"}) {
    const Result r = tessel(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  }
}

// Grouped and dilated convolutions run on the direct conv kernel (they were refused before it).
TEST(ExecutorCli, GroupedAndDilatedConvsValidate) {
  for (const std::string& args :
       {std::string("validate -q --workload conv:H=8,W=8,C=4,K=4,R=3,S=3,groups=4"),
        std::string("validate -q --workload conv:H=8,W=8,C=4,K=4,R=3,S=3,dilation=2")}) {
    const Result r = tessel(args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  }
}

TEST(ExecutorCli, PrecisionPlanFeedsValidateAndRun) {
  const std::string plan = temp("plan.yaml");
  const Result p = tessel("precision " + kGpt2 + " --tolerance 0.03 --out " + plan);
  ASSERT_EQ(p.code, 0) << p.out;
  EXPECT_NE(p.out.find("candidate ops lowered; rel_l2 error"), std::string::npos) << p.out;
  const std::string yaml = slurp(plan);
  EXPECT_NE(yaml.find("default: fp32"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("error: "), std::string::npos) << yaml;
  const Result v = tessel("validate -q " + kGpt2 + " --precision mixed --plan " + plan);
  EXPECT_EQ(v.code, 0) << v.out;
  const std::string arch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";
  const Result r = tessel("run -q --arch " + arch + " " + kGpt2 + " --precision-plan " + plan);
  EXPECT_EQ(r.code, 0) << r.out;
}

// Several formats, a weight-only pair among them, and the plan timed on a design next to each
// format alone: one plan, both answers. tests/serve/llm/data/tiny-llama.json: 3 blocks of 13
// candidates (RMSNorms, projections, attention, SiLU) + the final norm and LM head = 41.
TEST(ExecutorCli, PrecisionSearchesSeveralFormatsAndTimesThePlan) {
  const std::string arch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml";
  const std::string llama = std::string(TESSEL_SOURCE_DIR) + "/tests/serve/llm/data/tiny-llama.json";
  const std::string plan = temp("formats.yaml");
  const Result p = tessel("precision --workload " + llama + " --seq 8 --from bf16 --to fp8_e4m3,bf16/int4_g128_fp16 " +
                          "--tolerance 0.05 --arch " + arch + " -p 'array.throughput={bf16: 1, fp8_e4m3: 2}' --out " + plan);
  ASSERT_EQ(p.code, 0) << p.out;
  EXPECT_NE(p.out.find("of 41 candidate ops lowered"), std::string::npos) << p.out;
  // The weight-only pair is bf16 itself on an op without weights: nothing to measure.
  const size_t softmax = p.out.find("layers.0.attn.softmax");
  ASSERT_NE(softmax, std::string::npos) << p.out;
  const std::string line = p.out.substr(softmax, p.out.find('\n', softmax) - softmax);
  EXPECT_NE(line.find(" - "), std::string::npos) << line;
  for (const char* row : {"on tpu-v4-like (ws, analytical engine", "searched plan", "all bf16 ", "all fp8_e4m3",
                          "all bf16/int4_g128_fp16"}) {
    EXPECT_NE(p.out.find(row), std::string::npos) << row << "\n" << p.out;
  }
  const std::string yaml = slurp(plan);
  EXPECT_NE(yaml.find("default: bf16"), std::string::npos) << yaml;
  // The plan runs as written.
  EXPECT_EQ(tessel("run -q --arch " + arch + " --workload " + llama + " --seq 8 --precision-plan " + plan).code, 0);
  // -p belongs to --arch; a bad design fails before the search.
  EXPECT_EQ(tessel("precision --workload " + llama + " --tolerance 0.05 -p array.rows=8").code, 2);
  EXPECT_EQ(tessel("precision --workload " + llama + " --tolerance 0.05 --arch /nonexistent.yaml").code, 2);
  EXPECT_EQ(tessel("precision --workload " + llama + " --tolerance 0.05 --to fp8_e4m3,bf16/int3").code, 2);
}

TEST(ExecutorCli, FuseLikeAnAcceleratorMatchesItsTiming) {
  // The survey design's SFU runs softmax and GELU on the accumulator's drain path, so both the
  // executor (validate --fuse-like) and the timing engine (run) fuse exactly those two: softmax
  // into the score matmul, GELU into the FFN up-projection. The residual adds are not fused on
  // it (its accumulator path has no residual_add), and Gemmini's default fuses nothing here.
  // Epilogues only: with --fusion auto (the default) validate also runs the attention chain as
  // one kernel on this design (tests/executor/test_fused_attention.cpp).
  const std::string arch =
      std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-survey-model.yaml";
  const std::string v = temp("fuse_like.json"), r = temp("fuse_like_run.json");
  const std::string epilogues = " --fusion epilogue --fuse-like " + arch;
  ASSERT_EQ(tessel("validate -q " + kGpt2 + epilogues + " --json " + v).code, 0);
  ASSERT_EQ(tessel("run -q --arch " + arch + " " + kGpt2 + " --json " + r).code, 0);
  std::vector<std::string> in_kernel, fused;
  const auto val = nlohmann::json::parse(slurp(v));
  for (const auto& op : val["ops"]) {
    if (!op["fused_into"].is_null()) in_kernel.push_back(op["name"]);
  }
  const auto run = nlohmann::json::parse(slurp(r));
  for (const auto& op : run["ops"]) {
    if (op["placement"] == "fused") {
      fused.push_back(run["ops"][op["fused_into"].get<int>()]["name"]);
    }
  }
  // validate names the anchors whose outputs stayed inside a kernel; run names the anchors
  // that absorbed an epilogue: the same ops.
  EXPECT_EQ(in_kernel, (std::vector<std::string>{"h0.attn.score", "h0.mlp.fc"}));
  EXPECT_EQ(fused, in_kernel);
  const std::string dflt = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";
  const Result d = tessel("validate " + kGpt2 + " --fuse-like " + dflt);
  ASSERT_EQ(d.code, 0) << d.out;
  EXPECT_EQ(d.out.find("inside the kernel"), std::string::npos) << d.out;
  EXPECT_EQ(tessel("validate " + kGpt2 + " --fuse-like /nonexistent.yaml").code, 2);
}

}  // namespace

namespace {

tessel::testing::CliResult tesselCli(const std::string& args) {
  return tessel::testing::runTessel(args);
}

// Options that would be ignored, and resources that would run out minutes later, are refused
// before any work, naming the option.
TEST(ExecutorCliChecks, IgnoredOptionsAndImpossibleRunsAreRefusedUpFront) {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"validate --workload gemm:M=8,K=8,N=8 --percentile 99",
       "--percentile applies to --calibration percentile"},
      {"validate --workload gemm:M=8,K=8,N=8 --seed -1",
       "--seed: expected a whole number from 0 to 18446744073709551615, got '-1'"},
      {"validate --workload gemm:M=8,K=8,N=8 --seed 18446744073709551616",
       "got '18446744073709551616'"},
      {"validate --workload resnet50 --seq 64", "workload 'resnet50' does not use --seq"},
      {"precision --workload gpt2 --image 64 --tolerance 0.1", "does not use --image"},
      {"validate --workload gemm:M=100000,K=100000,N=100000", "would need about 200 GB of memory"},
  };
  for (const Case& c : cases) {
    const auto r = tesselCli(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out.find("std::"), std::string::npos) << r.out;
  }
  EXPECT_EQ(tesselCli("validate --workload gemm:M=8,K=8,N=8 -q --seed 18446744073709551615").code,
            0);
}

// The executor's estimate is held against the same budget as every other count
// (util/budget.h): TESSEL_MEMORY_BUDGET stands in for a small machine.
TEST(ExecutorCliChecks, TheMemoryEstimateMeetsTheBudget) {
  const auto r = tessel::testing::runTessel("validate --workload gemm:M=256,K=256,N=256 -q",
                                            "TESSEL_MEMORY_BUDGET=64KiB");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--workload: validate of "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of memory; TESSEL_MEMORY_BUDGET allows 64.0 KiB. Use a smaller --seq"), std::string::npos) << r.out;
}

TEST(ExecutorCliChecks, AnInt16PlanIsRefusedAtItsLine) {
  const std::string plan = ::testing::TempDir() + "tessel_int16_plan.yaml";
  std::ofstream(plan) << "default: int8\nops:\n  gemm: int16\n";
  const auto r = tesselCli("validate --workload gemm:M=8,K=8,N=8 --precision mixed --plan " + plan);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(plan + ":3:3: at 'ops.gemm': op 'gemm' in int16 cannot be executed"),
            std::string::npos)
      << r.out;
}

}  // namespace
