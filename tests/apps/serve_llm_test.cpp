// tessel serve on a decoder LLM, end to end: the closed forms the JSON must satisfy against
// `tessel run` of the same steps, the grid's records, and the bad scenarios that exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

using testing::runTessel;
using testing::slurp;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "serve_llm_" + std::to_string(getpid()) + "_" + name;
}

const std::string kArch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/";
const std::string kTiny = std::string(TESSEL_SOURCE_DIR) + "/tests/serve/llm/data/tiny-llama.json";
// The one-core design the closed forms compare on, and the budget serve maps with by default.
const std::string kOn = "--arch " + kArch + "gemmini-default.yaml --workload " + kTiny;

nlohmann::json serve(const std::string& args, const std::string& name) {
  const std::string json = temp(name + ".json");
  const auto r = runTessel("serve " + args + " --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json));
}

double runSeconds(const std::string& args) {
  const std::string json = temp("run.json");
  const auto r = runTessel("run " + kOn + " --budget 1000 " + args + " -q --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json))["totals"]["seconds"].get<double>();
}

std::string trace(const std::string& name, const std::string& text) {
  const std::string path = temp(name);
  std::ofstream(path) << text;
  return path;
}

TEST(ServeLlmCli, OneRequestAloneHasThePrefillAsTtftAndTheDecodeStepsAsTpot) {
  // --exact and --kv-block 1: every step simulated at its own shape.
  const auto doc = serve(kOn + " --rate 1 --requests 1 --prompt-len 100 --output-len 6 "
                                   "--exact --kv-block 1",
                         "alone");
  const auto& p = doc["points"][0];
  ASSERT_EQ(p["status"], "ok");
  EXPECT_EQ(p["completed"], 1);
  // TTFT: the prefill of 100 tokens (its keys read from the cache it writes: within 1%).
  const double prefill = runSeconds("--seq 100");
  EXPECT_NEAR(p["ttft_s"]["p50"].get<double>(), prefill, 0.01 * prefill);
  // TPOT: 5 decode steps after 100, 101, ..., 104 cached tokens, each `tessel run --phase
  // decode --seq L` exactly.
  double decode = 0;
  for (int kv = 100; kv < 105; ++kv) {
    decode += runSeconds("--phase decode --seq " + std::to_string(kv));
  }
  EXPECT_NEAR(p["tpot_s"]["p50"].get<double>(), decode / 5, 1e-9 * decode);
  EXPECT_NEAR(p["e2e_s"]["p50"].get<double>() - p["ttft_s"]["p50"].get<double>(), decode,
              1e-9 * decode);
}

TEST(ServeLlmCli, OnSeveralCoresTheStepsAreTheFusedDevicesRuns) {
  // npu-3core serves on its three cores fused: `tessel run --cores fused` times the same device.
  const std::string npu = "--arch " + kArch + "npu-3core.yaml --workload " + kTiny;
  const auto doc = serve(npu + " --rate 1 --requests 1 --prompt-len 80 --output-len 3 --exact "
                               "--kv-block 1",
                         "fused");
  const auto& p = doc["points"][0];
  auto fused = [&](const std::string& args) {
    const std::string json = temp("fused.json");
    const auto r = runTessel("run " + npu + " --cores fused --budget 1000 " + args +
                             " -q --json " + json);
    EXPECT_EQ(r.code, 0) << r.out;
    return nlohmann::json::parse(slurp(json))["totals"]["seconds"].get<double>();
  };
  const double prefill = fused("--seq 80");
  EXPECT_NEAR(p["ttft_s"]["p50"].get<double>(), prefill, 0.01 * prefill);
  const double decode = fused("--phase decode --seq 80") + fused("--phase decode --seq 81");
  EXPECT_NEAR(p["e2e_s"]["p50"].get<double>() - p["ttft_s"]["p50"].get<double>(), decode,
              1e-9 * decode);
  EXPECT_EQ(doc["alone"]["prompt_tokens"], 80);
}

TEST(ServeLlmCli, EqualRequestsArrivingTogetherCostWhatTheBatchedRunDoes) {
  const std::string t = trace("four.csv",
                              "arrival,prompt_tokens,output_tokens\n"
                              "0,64,4\n0,64,4\n0,64,4\n0,64,4\n");
  const auto doc = serve(kOn + " --arrivals " + t + " --exact --kv-block 1", "four");
  const auto& p = doc["points"][0];
  ASSERT_EQ(p["status"], "ok");
  // Three decode iterations of the four together, after 64, 65, 66 cached tokens.
  double decode = 0;
  for (int kv = 64; kv < 67; ++kv) {
    decode += runSeconds("--phase decode --batch 4 --seq " + std::to_string(kv));
  }
  EXPECT_NEAR(p["tpot_s"]["max"].get<double>(), decode / 3, 1e-9 * decode);
  EXPECT_NEAR(p["tpot_s"]["p50"].get<double>(), p["tpot_s"]["max"].get<double>(), 1e-15);
  EXPECT_EQ(p["iterations"], 4);  // one prefill iteration of the four prompts, three decodes
}

TEST(ServeLlmCli, AStreamSatisfiesLittlesLawAndGoodputStaysBelowThroughput) {
  const auto doc = serve(kOn + " --rate 20,40 --requests 300 --prompt-len uniform:32:256 "
                                   "--output-len lognormal:32:0.5 --slo ttft=0.05,tpot=0.005 "
                                   "--max-batch 8,64",
                         "stream");
  ASSERT_EQ(doc["points"].size(), 4u);
  for (const auto& p : doc["points"]) {
    ASSERT_EQ(p["status"], "ok");
    EXPECT_EQ(p["completed"], 300);
    const double rate = p["requests_per_s"], e2e = p["e2e_s"]["mean"];
    EXPECT_NEAR(p["mean_in_system"].get<double>(), rate * e2e, 0.01 * rate * e2e);
    EXPECT_LE(p["goodput_requests_per_s"].get<double>(), rate + 1e-12);
    EXPECT_LE(p["utilization"].get<double>(), 1 + 1e-9);
    EXPECT_GE(p["ttft_s"]["p99"].get<double>(), p["ttft_s"]["p50"].get<double>());
  }
  EXPECT_GT(doc["shapes_evaluated"].get<int>(), 0);
  EXPECT_FALSE(doc["recommendations"].empty());
}

TEST(ServeLlmCli, DisaggregatedRunsPrefillAndDecodeOnSeparateCores) {
  const auto doc = serve("--arch " + kArch + "npu-3core.yaml --workload " + kTiny +
                             " --rate 50 --requests 100 --prompt-len 128 --output-len 16 "
                             "--cores fused,disaggregated",
                         "disagg");
  EXPECT_EQ(doc["split"], "1 prefill + 2 decode cores");
  ASSERT_EQ(doc["points"].size(), 2u);
  EXPECT_EQ(doc["points"][0]["cores"], "fused");
  EXPECT_EQ(doc["points"][1]["cores"], "disaggregated");
  for (const auto& p : doc["points"]) {
    ASSERT_EQ(p["status"], "ok");
    EXPECT_EQ(p["completed"], 100);
    for (const auto& r : p["timeline"]) {
      EXPECT_LE(r["arrival"].get<double>(), r["first_token"].get<double>());
      EXPECT_LT(r["first_token"].get<double>(), r["finish"].get<double>());
    }
  }
}

TEST(ServeLlmCli, AKvCacheTooSmallForARequestMakesThePointInfeasibleNotTheRun) {
  const auto doc = serve(kOn + " --rate 5 --requests 10 --prompt-len 512 --output-len 64 "
                                   "--kv-budget '64 KiB'",
                         "small");
  const auto& p = doc["points"][0];
  EXPECT_EQ(p["status"], "infeasible");
  EXPECT_NE(p["reason"].get<std::string>().find("KV blocks"), std::string::npos) << p["reason"];
}

TEST(ServeLlmCli, BadScenariosExitTwoWithTheReason) {
  const std::string unsorted =
      trace("unsorted.csv", "arrival,prompt_tokens,output_tokens\n0,10,5\n2,10,5\n1,10,5\n");
  const std::string columns = trace("columns.csv", "arrival,prompt,tokens_out\n0,10,5\n");
  const struct {
    std::string args, expect;
  } cases[] = {
      {"--rate 1 --prompt-len 0", "--prompt-len"},
      {"--rate 1 --prompt-len -5", "--prompt-len"},
      {"--rate 1 --output-len uniform:9:2", "--output-len"},
      {"--rate 1 --prompt-len 4000 --output-len 200", "context"},
      {"--arrivals " + unsorted, "sorted"},
      {"--arrivals " + columns, "output"},
      {"--rate 1 --slo ttft=1,latency=2", "latency"},
      {"--rate 1 --batch 4", "--max-batch"},
      {"--rate 1 --chunk 4096 --max-tokens 2048", "--max-tokens"},
      {"--requests 5", "--rate"},
      {"--rate 1 --cores disaggregated", "several cores"},
      {"--rate 1 --cores split", "--cores"},
      {"--rate 1 --kv-budget '1 TiB'", "--kv-budget"},
      {"--rate 1 --seq 128", "--seq"},
      {"--rate 1 --workers 4", "--workers"},
  };
  for (const auto& c : cases) {
    // Lengths that fit the tiny model's context, unless the case sets its own.
    const bool lengths = c.args.find("-len") != std::string::npos ||
                         c.args.find("--arrivals") != std::string::npos;
    const std::string fit = lengths ? "" : " --prompt-len 256 --output-len 32";
    const auto r = runTessel("serve " + kOn + fit + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
  }
}

}  // namespace
}  // namespace tessel
