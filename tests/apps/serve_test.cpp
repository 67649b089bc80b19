// tessel serve end to end: the shipped designs, the closed forms the JSON must satisfy, and the
// bad inputs that must exit 2 with a reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

using testing::runTessel;
using testing::slurp;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "serve_" + std::to_string(getpid()) + "_" + name;
}

const std::string kArch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/";

nlohmann::json serve(const std::string& args, const std::string& name) {
  const std::string json = temp(name + ".json");
  const auto r = runTessel("serve " + args + " --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(slurp(json));
}

const nlohmann::json& profileOf(const nlohmann::json& doc, const std::string& cores, int batch) {
  for (const auto& p : doc["service_times"]) {
    if (p["cores"] == cores && p["batch"] == batch) return p;
  }
  throw std::runtime_error("no profile");
}

TEST(ServeCli, ResNet50OnTheThreeCoreNpuMatchesItsClosedForms) {
  const auto doc = serve("--arch " + kArch +
                             "npu-3core.yaml --workload resnet50 --workers 1,4 "
                             "--requests 300 --mapper gemmini-auto",
                         "resnet");
  // Both core modes by default on a 3-core design; 2 worker counts each, then the variants
  // (uint8 input, int8 input, int8 output) at the best configuration.
  ASSERT_EQ(doc["service_times"].size(), 2u);
  ASSERT_EQ(doc["configurations"].size(), 4u + 3u);
  for (const auto& c : doc["configurations"]) {
    if (c["variant"] != "") continue;
    const auto& p = profileOf(doc, c["cores"], c["batch"]);
    const double pre = p["pre_s"], post = p["post_s"];
    const double job1 = p["job_s"][0], jobn = p["job_s"].back();
    const int w = c["workers"];
    const int cores = p["parallel_cores"];
    EXPECT_EQ(c["completed"], 300);
    if (w == 1) {
      // One worker, deterministic: one request at a time, 1 / (pre + job + post).
      EXPECT_NEAR(c["throughput"].get<double>() * (pre + job1 + post), 1.0, 1e-6);
      EXPECT_NEAR(c["latency_s"]["max"].get<double>(), pre + job1 + post, 1e-9);
    } else {
      // Four workers: bounded by the workers' cycle and by the cores (all busy), and no faster.
      const double bound = std::min(w / (pre + job1 + post), cores / jobn);
      EXPECT_LE(c["throughput"].get<double>(), bound * 1.001);
      EXPECT_GT(c["throughput"].get<double>(), bound * 0.9);
    }
    // Little's law on the simulated queue.
    EXPECT_NEAR(c["mean_in_system"].get<double>(),
                c["throughput"].get<double>() * c["latency_s"]["mean"].get<double>(),
                0.01 * c["mean_in_system"].get<double>());
  }
  // Fused cores: one job at a time on a device 3x wider: faster per job than one core alone.
  EXPECT_LT(profileOf(doc, "fused", 1)["job_s"][0].get<double>(),
            profileOf(doc, "single", 1)["job_s"][0].get<double>());
  // Cores sharing the DRAM are slower per job when all run.
  EXPECT_GE(profileOf(doc, "single", 1)["job_s"][2].get<double>(),
            profileOf(doc, "single", 1)["job_s"][0].get<double>());
  const auto& rec = doc["recommendations"];
  EXPECT_FALSE(rec["text"].empty());
  ASSERT_EQ(rec["dtypes"].size(), 3u);
  for (const auto& d : rec["dtypes"]) EXPECT_GT(d["host_seconds_saved"].get<double>(), 0) << d;
}

TEST(ServeCli, Gpt2DecodeOnGemminiAnswersBatchAndWorkers) {
  const auto doc = serve("--arch " + kArch +
                             "gemmini-default.yaml --workload gpt2 --phase decode "
                             "--seq 128 --layers 2 --workers 1,2 --batch 1,4 --requests 100 "
                             "--mapper gemmini-auto",
                         "gpt2");
  ASSERT_EQ(doc["service_times"].size(), 2u);  // one core: single only; batch 1 and 4
  // Token ids need no quantize: the only cheaper dtype is int8 output.
  ASSERT_EQ(doc["recommendations"]["dtypes"].size(), 1u);
  EXPECT_EQ(doc["recommendations"]["dtypes"][0]["variant"], "output int8");
  EXPECT_EQ(doc["recommendations"]["batch_steps"].size(), 1u);
  // Batch 4 does 4 requests per job: its pre is empty and its post (slice, dequantize of 4 x
  // 50257 logits) is 4x batch 1's host work.
  const auto& b1 = profileOf(doc, "single", 1);
  const auto& b4 = profileOf(doc, "single", 4);
  EXPECT_EQ(b1["pre_s"].get<double>(), 0);
  EXPECT_GT(b4["post_s"].get<double>(), 3 * b1["post_s"].get<double>());
}

TEST(ServeCli, BadInputsExitTwoWithTheReason) {
  const std::string base = "serve --arch " + kArch +
                           "gemmini-default.yaml --workload resnet50 "
                           "--mapper gemmini-auto --requests 10 ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--workers 0", "--workers"},
      {"--batch 1,x", "--batch"},
      {"--cores fused", "one core"},
      {"--cores triple", "single, fused"},
      {"--rate -5", "--rate"},
      {"--rate 10 --closed-loop", "give one"},
      {"--arrivals uniform", "needs --rate"},
      {"--rate 10 --arrivals bursty", "poisson, uniform"},
      {"--jitter 20", "--jitter"},
      {"--submit-queue 0", "--submit-queue"},
      {"--input-dtype fp8", "float32, uint8, int8"},
      {"--layout chw", "nchw, nhwc"},
      {"--requests 0", "--requests"},
      {"--json /", "--json"},
  };
  for (const auto& [args, reason] : cases) {
    const auto r = runTessel(base + args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(reason), std::string::npos) << args << "\n" << r.out;
  }
  // Options that apply to no input of the workload are errors, not ignored.
  const auto ids =
      runTessel("serve --arch " + kArch +
                "gemmini-default.yaml --workload gpt2 "
                "--phase decode --seq 64 --layers 1 --requests 10 --input-dtype uint8");
  EXPECT_EQ(ids.code, 2) << ids.out;
  EXPECT_NE(ids.out.find("token ids"), std::string::npos) << ids.out;
}

}  // namespace
}  // namespace tessel

namespace tessel {
namespace {

TEST(ServeCli, ABatchTheDramCannotHoldIsRecordedAndTheOthersRun) {
  // ResNet-50 at batch 4096 needs ~11.5 GiB (2.3 GiB of images, 9.2 GiB of live activations);
  // 1 GiB of DRAM holds batches 1 and 2.
  const std::string json = temp("infeasible.json");
  const auto r = testing::runTessel("serve --arch " + kArch +
                                    "npu-3core.yaml --workload resnet50 --batch 1,2,4096 "
                                    "--workers 1 --requests 20 --mapper gemmini-auto "
                                    "--no-variants --cores fused -p 'dram.capacity=1 GiB' --json " +
                                    json);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(testing::slurp(json));
  ASSERT_EQ(doc["infeasible"].size(), 1u);
  EXPECT_EQ(doc["infeasible"][0]["batch"], 4096);
  EXPECT_NE(doc["infeasible"][0]["reason"].get<std::string>().find("dram.capacity"),
            std::string::npos);
  EXPECT_EQ(doc["service_times"].size(), 2u);
  EXPECT_EQ(doc["configurations"].size(), 2u);
}

}  // namespace
}  // namespace tessel
