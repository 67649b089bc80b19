// tessel collective and tessel run --system from the command line: the numbers the JSON carries,
// and every kind of bad input refused with exit 2 (or 3 for a split that does not fit) and named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

std::string systemFile(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/configs/systems/" + name + ".yaml";
}

Json runJson(const std::string& args) {
  const auto r = testing::runTessel(args + " --json -");
  EXPECT_EQ(r.code, 0) << r.out;
  return Json::parse(r.out.substr(r.out.find('{'), r.out.rfind('}') - r.out.find('{') + 1));
}

TEST(SystemCli, ACollectivesJsonCarriesTheFixedKeys) {
  // switch-node-8: direct all-to-all of 8 MiB, one step: each port carries 7/8 of it;
  //   T = 10 us + 1 us + 7/8 x 8 MiB / 450 GB/s.
  const Json j = runJson("collective --system " + systemFile("switch-node-8") +
                         " --op all-to-all --bytes 8MiB --algorithm direct");
  const double s = 8 << 20;
  EXPECT_NEAR(j["seconds"].get<double>(), 10e-6 + 1e-6 + 7.0 / 8 * s / 450e9, 1e-12);
  EXPECT_EQ(j["algorithm"], "direct");
  EXPECT_EQ(j["steps"], 1);
  EXPECT_DOUBLE_EQ(j["bytes_per_link"].get<double>(), 7.0 / 8 * s);
  EXPECT_EQ(j["group"], 8);
}

TEST(SystemCli, ACurveHasAPointPerDoubling) {
  const Json j = runJson("collective --system " + systemFile("tpu-v4-pod-64") +
                         " --op all-gather --bytes 1KiB..1MiB --group 16");
  ASSERT_EQ(j["points"].size(), 11u);
  EXPECT_EQ(j["points"][10]["bytes"], 1 << 20);
  for (size_t i = 1; i < j["points"].size(); ++i)
    EXPECT_GE(j["points"][i]["seconds"].get<double>(), j["points"][i - 1]["seconds"].get<double>());
}

TEST(SystemCli, BadCollectiveRequestsAreNamed) {
  const std::string pod = " --system " + systemFile("tpu-v4-pod-64");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"collective" + pod + " --op all-reduced", "--op: unknown collective 'all-reduced'"},
      {"collective" + pod + " --group 6", "--group: a group of 6 ranks does not fill whole inner dimensions"},
      {"collective" + pod + " --group 65", "--group: a group of 65 chips is larger than the system's 64"},
      {"collective" + pod + " --bytes 0", "--bytes: the message must be at least 1 byte"},
      {"collective" + pod + " --bytes 2MiB..1MiB", "--bytes: a range FROM..TO needs 1 <= FROM <= TO"},
      {"collective" + pod + " --bytes 1MiBs", "--bytes"},
      {"collective" + pod + " --algorithm pairwise", "algorithm 'pairwise' does not run all-reduce"},
      {"collective" + pod + " --op send-recv --group 1", "--group: send-recv needs a group of at least 2"},
      {"collective --system /nonexistent.yaml", "/nonexistent.yaml"},
      {"collective" + pod + " -p system.count=63", "count is 63"},
  };
  for (const auto& [args, says] : cases) {
    const auto r = testing::runTessel(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(says)) << args;
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr("system tpu-v4-pod-64:"))) << args;  // no table first
  }
}

TEST(SystemCli, ASystemRunReportsTheSplitAndItsCollectives) {
  const Json j = runJson("run --system " + systemFile("tpu-v4-8") +
                         " --workload llama-3.2-1b --phase decode --seq 128 --batch 2 --tp 8 --layers 2 --budget 500");
  EXPECT_EQ(j["split"]["tp"], 8);
  EXPECT_EQ(j["split"]["chips"], 8);
  ASSERT_EQ(j["communication"].size(), 2u);
  EXPECT_EQ(j["communication"][0]["op"], "all-reduce");
  EXPECT_EQ(j["communication"][0]["calls"], 1 + 2 * 2);  // the embedding's, two per block
  EXPECT_EQ(j["communication"][0]["bytes"], 2 * 2048 * 2);  // batch x d x bf16
  EXPECT_NEAR(j["latency_seconds"].get<double>(),
              j["compute_seconds"].get<double>() + j["communication_seconds"].get<double>(), 1e-12);
  EXPECT_TRUE(j["chip"].contains("ops"));
}

TEST(SystemCli, BadSplitsAreNamed) {
  const std::string run = "run --system " + systemFile("tpu-v4-8") + " --workload llama-3.2-1b --layers 1 -q";
  const std::vector<std::tuple<std::string, int, std::string>> cases = {
      {run + " --tp 3", 2, "--tp: tp 3 does not divide llama-3.2-1b's attention heads (32)"},
      {run + " --tp 8 --dp 2", 2, "needs 16 chips; tpu-v4-8 has 8"},
      {run + " --pp 2", 2, "--pp: pp 2 exceeds the model's 1 blocks"},
      {run + " --ep 2", 2, "--ep: llama-3.2-1b has no experts"},
      {run + " --arch " + std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml", 2,
       "give one of --arch (one chip) and --system (many)"},
      {run + " --trace /tmp/t.json", 2, "--trace applies to one chip"},
      {"run --system " + systemFile("tpu-v4-8") + " --workload gpt2 --tp 2 -q", 2,
       "--tp: parallel splits are modeled for Hugging Face decoders"},
      {"run --arch " + std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml --workload gpt2 --tp 2 -q", 2,
       "--tp: splits a model over a system's chips: add --system"},
      {"run --system " + systemFile("tpu-v4-8") + " --workload llama-3.1-70b -q", 3,
       "stage 0 (blocks 0..79) needs"},
      {run + " --parallel auto --tp 2", 2, "--parallel auto searches the split; give no --tp"},
      {"run --system " + systemFile("tpu-v4-8") + " --workload llama-3.1-405b --parallel auto -q", 3,
       "no split of llama-3.1-405b over tpu-v4-8's 8 chips fits"},
      {"run --system " + systemFile("tpu-v4-8") + " --workload resnet50 --parallel auto -q", 2,
       "--parallel: parallel splits are modeled for Hugging Face decoders"},
  };
  for (const auto& [args, code, says] : cases) {
    const auto r = testing::runTessel(args);
    EXPECT_EQ(r.code, code) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(says)) << args;
  }
}

}  // namespace
}  // namespace tessel

namespace tessel {
namespace {

TEST(SystemCli, AServiceOnAOneChipSystemIsThatChipsService) {
  // The same chip, as --arch and as a system of one: the same iterations, so the same service.
  const std::string one = "/tmp/tessel-one-chip-system.yaml";
  std::ofstream(one) << "system:\n  chip: " << TESSEL_SOURCE_DIR
                     << "/configs/arch/tpu-v4-like.yaml\n  count: 1\n  topology: {kind: ring}\n"
                        "  link: {bandwidth: 50 GB/s}\n";
  const std::string common = " --workload llama-3.2-1b --rate 4 --requests 60 --max-batch 16 --budget 300";
  const Json a = runJson("serve --arch " + std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml" + common);
  const Json b = runJson("serve --system " + one + common);
  ASSERT_EQ(a["points"].size(), 1u);
  ASSERT_EQ(b["points"].size(), 1u);
  EXPECT_GT(a["points"][0]["output_tokens_per_s"].get<double>(), 0);
  EXPECT_EQ(a["points"][0], b["points"][0]);  // every metric and the timeline
}

TEST(SystemCli, ServiceSplitsTheSystemCannotTakeAreNamed) {
  const std::string serve = "serve --system " + systemFile("tpu-v4-8") + " --workload llama-3.1-70b --rate 1 -q";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {serve + " --tp 8 --dp 2", "--tp: tp 8 x dp 2 needs 16 chips; tpu-v4-8 has 8"},
      {serve + " --tp 3", "--tp: a group of 3 ranks does not fill whole inner dimensions"},
      {serve + " --tp 1 --ep 2", "--ep"},
      {serve + " --tp 4 --dp 1 --cores disaggregated", "--dp: disaggregated on a system pairs a prefill replica"},
      {serve + " --tp 4 --dp 2 --cores disaggregated --prefill-cores 1", "--prefill-cores: on a system"},
      {"serve --system " + systemFile("tpu-v4-8") + " --workload resnet50 -q",
       "--system: a service on a system of chips is an LLM service"},
      {"serve --arch " + std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml --workload llama-3.2-1b --tp 2 -q",
       "--tp: splits a service over a system's chips: add --system"},
  };
  for (const auto& [args, says] : cases) {
    const auto r = testing::runTessel(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(says)) << args;
  }
}

}  // namespace
}  // namespace tessel
