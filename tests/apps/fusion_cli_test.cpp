// --fusion from the command line: the modes' names, what auto reports, that epilogue is the
// plan without chains, and that a service's prefill sees the fused attention.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace tessel {
namespace {

using Json = nlohmann::json;

std::string arch(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml";
}

Json runJson(const std::string& args) {
  const auto r = testing::runTessel(args + " --json -");
  EXPECT_EQ(r.code, 0) << r.out;
  return Json::parse(r.out.substr(0, r.out.rfind('}') + 1));
}

const std::string kAttention = " --workload attention:S=2048,T=2048,H=8,KV=2,D=64,causal=1";

TEST(FusionCli, AnUnknownModeIsRefusedWithTheNames) {
  for (const char* cmd : {"run", "xval", "compare", "serve"}) {
    const auto r = testing::runTessel(std::string(cmd) + " --arch " + arch("tpu-v4-like") +
                                      kAttention + " --fusion full");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("--fusion"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("epilogue"), std::string::npos) << r.out;
  }
}

// The tolerance decides which schedules compete on energy: "nan" (which passes every range
// check, since each comparison with it is false) is refused on every command that searches.
TEST(FusionCli, ANanLatencyToleranceIsRefused) {
  for (const char* cmd : {"run", "xval", "compare", "serve"}) {
    const auto r = testing::runTessel(std::string(cmd) + " --arch " + arch("tpu-v4-like") +
                                      kAttention + " --latency-tolerance nan");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("--latency-tolerance"), std::string::npos) << r.out;
  }
}

// The latency objective's default tolerance (1 %) on Llama-3.1-8B's down projection at 8,192
// tokens, all four tpu-v4-like cores: the strict fastest mapping re-reads the 224 MiB input once
// per 256-column block of the weights (16 x), the default keeps each input block on chip and
// reads the weights twice instead: 224 MiB + 2 x 112 MiB = 448 MiB, at most 1 % slower and never
// more energy. The CLI's default is the library's.
TEST(FusionCli, TheDefaultToleranceTradesAPercentOfLatencyForEnergy) {
  const std::string gemm = "run --arch " + arch("tpu-v4-like") +
                           " --workload gemm:M=8192,K=14336,N=4096 --dtype bf16 --cores fused";
  const Json strict = runJson(gemm + " --latency-tolerance 0");
  const Json dflt = runJson(gemm);
  EXPECT_EQ(dflt["metadata"]["options"]["latency_tolerance"], "0.01");
  const Json& s = strict["totals"];
  const Json& d = dflt["totals"];
  EXPECT_LE(d["cycles"].get<double>(), s["cycles"].get<double>() * 1.01);
  EXPECT_LT(d["energy_pj"].get<double>(), s["energy_pj"].get<double>());
  EXPECT_EQ(d["dram_bytes"].get<double>(), 448.0 * (1 << 20));
  EXPECT_GT(s["dram_bytes"].get<double>(), 3 * d["dram_bytes"].get<double>());
}

// Llama-3.1-8B's FFN at 8,192 tokens on tpu-v4-like (all cores): the hidden activations (8,192 x
// 14,336 BF16, 224 MiB) cannot stay in the 128 MiB L2, and the whole chain fused costs more than
// its halves, so the gate-up half fuses: per row block the gate and up weights (4,096 x 14,336 x
// 2 B = 112 MiB each) stream from DRAM, the product is written once and nothing else of the FFN
// leaves the chip before the down projection reads it back once.
TEST(FusionCli, AGatedFfnFusesItsGateUpHalfWhereTheHiddenCannotStay) {
  const Json r = runJson("run --arch " + arch("tpu-v4-like") +
                         " --workload llama-3.1-8b --phase prefill --seq 8192 --layers 1 --cores fused");
  const Json* ffn = nullptr;
  for (const Json& g : r["fusion_groups"]) {
    if (g["kind"] == "ffn") ffn = &g;
  }
  ASSERT_NE(ffn, nullptr) << r["fusion_groups"].dump();
  EXPECT_EQ((*ffn)["schedule"], "gate_up");
  EXPECT_EQ((*ffn)["ops"].size(), 4u);  // gate, up, SiLU, the product
  const double row_blocks = std::ceil(8192.0 / (*ffn)["block_rows"].get<double>());
  const double weight = 4096.0 * 14336 * 2, hidden = 8192.0 * 14336 * 2;
  double group_dram = 0, down_input = -1;
  for (const Json& op : r["ops"]) {
    const Json& dram = op["traffic"][0];
    ASSERT_EQ(dram["level"], "dram");
    double bytes = 0;
    for (const char* t : {"input", "weight", "output"}) {
      bytes += dram["read"][t].get<double>() + dram["write"][t].get<double>();
    }
    if (op["fusion_group"] == (*ffn)["name"]) group_dram += bytes;
    if (op["name"] == "layers.0.mlp.down_proj") down_input = dram["read"]["input"].get<double>();
  }
  EXPECT_DOUBLE_EQ(group_dram, 2 * weight * row_blocks + hidden);
  EXPECT_DOUBLE_EQ(down_input, hidden);
}

// Attention alone on tpu-v4-like: Q (2048 x 512 B), K and V (2048 x 128 x 2 B each) and O are
// its only DRAM traffic fused; epilogue writes and re-reads the 8 x 2048 x 2048 scores too.
TEST(FusionCli, AutoFusesAttentionAndSaysWhatItSaved) {
  const Json fused = runJson("run --arch " + arch("tpu-v4-like") + kAttention + " --fusion auto");
  const Json plain = runJson("run --arch " + arch("tpu-v4-like") + kAttention + " --fusion epilogue");
  ASSERT_EQ(fused["fusion_groups"].size(), 1u);
  EXPECT_TRUE(plain["fusion_groups"].empty());
  const Json& g = fused["fusion_groups"][0];
  EXPECT_EQ(g["kind"], "attention");
  EXPECT_EQ(g["ops"].size(), 3u);  // score, softmax, context
  for (const Json& op : fused["ops"]) EXPECT_EQ(op["fusion_group"], g["name"]) << op["name"];
  EXPECT_EQ(fused["metadata"]["options"]["fusion"], "auto");
  // The group's "epilogue" figures are the epilogue run's own.
  EXPECT_NEAR(g["epilogue_cycles"].get<double>(), plain["totals"]["cycles"].get<double>(),
              1e-6 * plain["totals"]["cycles"].get<double>());
  EXPECT_LT(g["cycles"].get<double>(), g["epilogue_cycles"].get<double>());
  // Inputs Q, K, V from DRAM: (2048 x 8 x 64 + 2 x 2048 x 2 x 64) x 2 B = 3 MiB, fused or not.
  // Off chip (DRAM and L2), unfused, the softmax drains through the score's epilogue on the
  // SFU, and the 8 x 2048 x 2048 BF16 probabilities (64 MiB) go out to the L2 and come back:
  // more than 2 x 64 MiB. Fused, Q, K, V (3 MiB), O (2 MiB) and K/V re-reads: under 8 MiB.
  EXPECT_EQ(fused["totals"]["dram_bytes"].get<int64_t>(), 3 << 20);
  EXPECT_GT(g["epilogue_offchip_bytes"].get<int64_t>(), int64_t{2} * (64 << 20));
  EXPECT_LT(g["offchip_bytes"].get<int64_t>(), 8 << 20);
  // Never worse under the objective: auto's cycles are at most epilogue's.
  EXPECT_LE(fused["totals"]["cycles"].get<double>(), plain["totals"]["cycles"].get<double>());
}

TEST(FusionCli, NoFuseIsFusionNone) {
  const auto a = testing::runTessel("run --arch " + arch("npu-3core") +
                                    " --workload gpt2-small --seq 128 --no-fuse --json -");
  const auto b = testing::runTessel("run --arch " + arch("npu-3core") +
                                    " --workload gpt2-small --seq 128 --fusion none --json -");
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_EQ(a.out, b.out);
}

// A service's prefill iterations are simulated with the fused attention: an 8K-token prompt's
// prefill alone and the mean time to first token both drop against --fusion epilogue (the
// 16 heads' 8K x 8K scores no longer cross the chip's edge).
TEST(FusionCli, ServingPrefillUsesTheFusedAttention) {
  auto serve = [](const std::string& mode) {
    return runJson("serve --arch " + arch("tpu-v4-like") +
                   " --workload llama-3.2-1b --rate 1 --requests 4 --prompt-len 8192 "
                   "--output-len 4 --max-batch 4 --fusion " + mode);
  };
  const Json fused = serve("auto"), plain = serve("epilogue");
  EXPECT_LT(fused["alone"]["prefill_s"].get<double>(), plain["alone"]["prefill_s"].get<double>());
  EXPECT_LT(fused["points"][0]["ttft_s"]["mean"].get<double>(),
            plain["points"][0]["ttft_s"]["mean"].get<double>());
}

TEST(FusionCli, ASweepSpecNamesABadFusionModeWhereItIs) {
  const std::string spec = ::testing::TempDir() + "/fusion_sweep.yaml";
  {
    std::ofstream f(spec);
    f << "name: s\nbase: " << arch("tpu-v4-like")
      << "\nmapper: {name: search, fusion: always}\nworkloads:\n  - {name: gpt2-small, seq: 64}\n"
         "grid:\n  scratchpad.capacity: [1MiB]\n";
  }
  const auto r = testing::runTessel("sweep " + spec + " -o " + ::testing::TempDir() + "/fs_out");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(spec + ":3:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("none, epilogue or auto"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tessel
