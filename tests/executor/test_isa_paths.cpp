// The executor gives the same bits on every x86-64 CPU: each run-time path a CPU could take is
// forced on this machine and the whole `tessel validate` JSON (every op's error to 17 digits, the
// logits metrics) is compared byte for byte. The paths: the ISA ceiling (TESSEL_ISA: the int8
// micro-kernels, requantization, the AVX2 builds of the row loops) and glibc's own choice of libm
// builds (GLIBC_TUNABLES masks AVX, AVX2, FMA and AVX-512, as on a CPU without them). Eigen's
// cache-dependent blocking is checked in tests/kernels/test_isa_paths.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace {

using tessel::testing::runTessel;
using tessel::testing::slurp;

struct Path {
  const char* name;
  std::string env;
};

std::vector<Path> paths() {
  const std::string masked = "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX,-AVX2,-FMA,-AVX512F";
  return {{"auto", ""},
          {"portable", "TESSEL_ISA=portable " + masked},
          {"avx2", "TESSEL_ISA=avx2"},
          {"avx512", "TESSEL_ISA=avx512"},
          {"auto, libm without FMA", masked}};
}

// Runs one validation on every path; each JSON must equal the first, byte for byte.
void expectSameBitsOnEveryPath(const std::string& args, const std::string& tag) {
  std::string first;
  for (const Path& p : paths()) {
    const std::string json = ::testing::TempDir() + "tessel_isa_" + tag + ".json";
    std::remove(json.c_str());
    const auto r = runTessel("validate -q " + args + " --json " + json, p.env);
    ASSERT_EQ(r.code, 0) << p.name << ": " << r.out;
    const std::string got = slurp(json);
    ASSERT_NE(got.find("\"sqnr_db\""), std::string::npos) << p.name;
    if (first.empty())
      first = got;
    else
      EXPECT_TRUE(got == first) << args << ": the " << p.name << " path gives other bits";
  }
}

std::string data(const std::string& rel) { return std::string(TESSEL_SOURCE_DIR) + "/" + rel; }

TEST(ExecutorIsaPaths, Gpt2EveryFormatSameBits) {
  // GELU (tanh form), LayerNorm, softmax, int8 GEMMs with requantization, FP16/BF16/MX rounding.
  // GPT-2's kernels at a small width (tests/executor/data/tiny-gpt2.json): GPT-2 small itself
  // spends seconds per path synthesizing its 50257-row embedding.
  expectSameBitsOnEveryPath("--workload " + data("tests/executor/data/tiny-gpt2.json") +
                                " --seq 32 --all-logits --precision int8,fp16,bf16,mxfp8_e4m3",
                            "gpt2");
}

TEST(ExecutorIsaPaths, LlamaFamilySameBits) {
  // Rotary tables (sin, cos, pow), SiLU, RMSNorm, grouped-query attention.
  expectSameBitsOnEveryPath("--workload " + data("tests/serve/llm/data/tiny-llama.json") +
                                " --seq 32 --precision int8,bf16",
                            "llama");
}

TEST(ExecutorIsaPaths, OnnxGraphSameBits) {
  expectSameBitsOnEveryPath(
      "--workload " + data("tests/models/data/onnx/tiny_gpt.onnx") + " --precision int8,fp16",
      "onnx");
}

// The timing side prints figures from libm doubles too (technology scaling, serving's arrival
// draws): the same JSON with glibc's baseline libm as with its FMA builds.
TEST(TimingLibmPaths, RunAndServeSameBitsWithoutFma) {
  const std::string masked = "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX,-AVX2,-FMA,-AVX512F";
  const std::vector<std::string> commands = {
      "run --arch " + data("configs/arch/gemmini-default.yaml") +
          " --workload gpt2 --layers 2 --seq 128 -q",
      "serve --arch " + data("configs/arch/npu-3core.yaml") + " --workload " +
          data("tests/serve/llm/data/tiny-llama.json") + " --rate 2 --requests 60 -q"};
  for (size_t i = 0; i < commands.size(); ++i) {
    const std::string a = ::testing::TempDir() + "tessel_libm_a.json",
                      b = ::testing::TempDir() + "tessel_libm_b.json";
    std::remove(a.c_str());
    std::remove(b.c_str());
    ASSERT_EQ(runTessel(commands[i] + " --json " + a).code, 0) << commands[i];
    ASSERT_EQ(runTessel(commands[i] + " --json " + b, masked).code, 0) << commands[i];
    const std::string first = slurp(a);
    EXPECT_GT(first.size(), 100u) << commands[i];
    EXPECT_TRUE(first == slurp(b)) << commands[i] << ": other bits with the baseline libm";
  }
}

TEST(ExecutorIsaPaths, UnknownIsaIsRefused) {
  const auto r = runTessel("validate -q --workload gpt2 --layers 1 --seq 8", "TESSEL_ISA=sse9");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("TESSEL_ISA='sse9'"), std::string::npos) << r.out;
}

}  // namespace
