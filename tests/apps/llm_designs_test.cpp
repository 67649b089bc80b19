// Today's decoder workloads on every shipped design, through the CLI: Llama-3.1-8B decode at an
// 8,192-token KV cache and prefill, timed by both engines.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arch/load.h"
#include "tests/cli_runner.h"
#include "tests/shipped_designs.h"
#include "util/dtype.h"

namespace {

using tessel::testing::runTessel;
using tessel::testing::shippedDesigns;
using tessel::testing::slurp;

nlohmann::json runJson(const std::string& args, const std::string& tag) {
  const std::string out = ::testing::TempDir() + "tessel_llm_" + tag + ".json";
  const auto r = runTessel("run " + args + " -q --json " + out);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return r.code == 0 ? nlohmann::json::parse(slurp(out)) : nlohmann::json();
}

// Decode streams every weight once and both KV caches once; everything else is a token's
// activations. Compulsory DRAM bytes, with b the design's element size (its input dtype):
//   weights    (8,030,261,248 parameters - the 128,256 x 4,096 embedding table) x b
//   embedding  one 4,096-element row for the one token, x b
//   KV caches  2 x 32 layers x 8,193 positions x 8 KV heads x 128 x b
// Every design must move at least that and, at this KV length, at most 1% more: the rest are
// one token's activations and their host round trips (a few MB against 8 GB).
TEST(LlmDesigns, DecodeAt8192MovesTheCompulsoryBytesOnEveryDesign) {
  const double weights = 8030261248.0 - 128256.0 * 4096 + 4096;
  const double kv = 2.0 * 32 * 8193 * 8 * 128;
  for (const std::string& design : shippedDesigns()) {
    SCOPED_TRACE(design);
    const auto j = runJson("--arch " + design + " --workload llama-3.1-8b --phase decode --seq 8192",
                           "decode");
    if (j.is_null()) continue;
    const double b = tessel::bytesOf(tessel::arch::loadFile(design).array.input_dtype);
    const double compulsory = (weights + kv) * b;
    const double dram = j["totals"]["dram_bytes"].get<double>();
    EXPECT_GE(dram, compulsory);
    EXPECT_LE(dram, 1.01 * compulsory);
    // MACs: per layer q/o 2 x 4096^2, k/v 2 x 4096 x 1024, FFN 3 x 4096 x 14336, attention
    // 2 x 32 heads x 8193 x 128; plus the LM head 4096 x 128256.
    const double per_layer = 2.0 * 4096 * 4096 + 2.0 * 4096 * 1024 + 3.0 * 4096 * 14336 +
                             2.0 * 32 * 8193 * 128;
    EXPECT_EQ(j["totals"]["macs"].get<double>(), 32 * per_layer + 4096.0 * 128256);
  }
}

// Prefill at 2,048 tokens (one block: every block is the same layer) runs on every
// design, and the two engines agree on every byte. (The whole model does not fit
// tpu-v1-like's 8 GiB: that run is infeasible, exit 3, as it should be.)
TEST(LlmDesigns, PrefillRunsOnEveryDesignAndTheEnginesAgreeOnBytes) {
  for (const std::string& design : shippedDesigns()) {
    SCOPED_TRACE(design);
    const auto r = runTessel("xval --arch " + design +
                             " --workload llama-3.1-8b --seq 2048 --layers 1 --top 0 --strict");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("identical on every op"), std::string::npos) << r.out;
  }
}

}  // namespace
