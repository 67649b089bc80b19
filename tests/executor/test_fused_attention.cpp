// Fused attention in the executor (ExecutorOptions::fuse_attention, executor/fused_attention.h):
// which chains become one FlashAttention step and which keep the ordinary path, FP32 results
// equal to the unfused run's within FP32 rounding, each dtype's error next to the unfused one,
// and `tessel validate --fusion` end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "kernels/validation/validate.h"
#include "models/builder.h"
#include "tests/cli_runner.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using models::detail::Builder;

constexpr int64_t kHeads = 8, kKv = 2, kHd = 16, kB = 2;

int emit(Builder& b, const std::string& name, OpKind kind, std::vector<int> in,
         std::vector<int64_t> shape, bool score = false, bool attention = false, int64_t t = 0) {
  models::Op op = models::detail::makeOp(name, kind, std::move(in));
  if (attention) {
    op.attn.heads = kHeads;
    op.attn.kv_heads = kKv;
    op.attn.head_dim = kHd;
    op.attn.transpose_b = score;
    op.attn.causal = score;
    op.attn.scale = score ? 0.25f : 1.0f;
    const int64_t s = b.shape(op.inputs[0])[score ? 1 : 2];
    op.gemm = {kB * kKv, (kHeads / kKv) * s, score ? t : kHd, score ? kHd : t};
  }
  return b.emit(std::move(op), std::move(shape));
}

// q [B, S, heads*hd], k and v [B, T, kv*hd] -> score -> (mask add) -> softmax -> context.
models::Graph attentionGraph(int64_t s, int64_t t, bool mask = false) {
  models::Graph g;
  g.name = "attention";
  Builder b{g, DType::FP32};
  const int q = b.input("q", {kB, s, kHeads * kHd}, DType::FP32);
  const int k = b.input("k", {kB, t, kKv * kHd}, DType::FP32);
  const int v = b.input("v", {kB, t, kKv * kHd}, DType::FP32);
  int x = emit(b, "score", OpKind::BatchMatMul, {q, k}, {kB, kHeads, s, t}, true, true, t);
  if (mask) {
    const int m = b.input("mask", {kB, kHeads, s, t}, DType::FP32);
    x = emit(b, "mask", OpKind::Add, {x, m}, {kB, kHeads, s, t});
  }
  const int p = emit(b, "softmax", OpKind::Softmax, {x}, {kB, kHeads, s, t});
  emit(b, "context", OpKind::BatchMatMul, {p, v}, {kB, s, kHeads * kHd}, false, true, t);
  return g;
}

ExecutorOptions fused(bool attention = true) {
  ExecutorOptions o;
  o.fuse = true;
  o.fuse_attention = attention;
  return o;
}

// The step holding op `name`, as op names.
std::vector<std::string> stepOf(const models::Graph& g, const Executor& e,
                                const std::string& name) {
  for (const std::vector<int>& step : e.steps())
    for (int op : step)
      if (g.op(op).name == name) {
        std::vector<std::string> names;
        for (int id : step) names.push_back(g.op(id).name);
        return names;
      }
  return {};
}

const std::vector<std::string> kWholeChain{"score", "softmax", "context"};

TEST(ExecutorFusedAttention, OneStepPerChainOnlyWhenAsked) {
  const models::Graph g = attentionGraph(12, 12);
  EXPECT_EQ(stepOf(g, Executor(g, testing::store(), fused()), "softmax"), kWholeChain);
  // Epilogue fusion alone puts softmax into the score's epilogue, as before.
  EXPECT_EQ(stepOf(g, Executor(g, testing::store(), fused(false)), "softmax"),
            (std::vector<std::string>{"score", "softmax"}));
  // fuse_attention without epilogue fusion is its own switch.
  ExecutorOptions only;
  only.fuse_attention = true;
  EXPECT_EQ(stepOf(g, Executor(g, testing::store(), only), "context"), kWholeChain);
}

// The chains the kernel cannot run keep the ordinary path (executor/fused_attention.h).
TEST(ExecutorFusedAttention, FallsBackWhereTheKernelDoesNotApply) {
  const models::Graph masked = attentionGraph(12, 12, true);  // an exported mask before softmax
  EXPECT_EQ(stepOf(masked, Executor(masked, testing::store(), fused()), "context"),
            std::vector<std::string>{"context"});
  const models::Graph g = attentionGraph(12, 12);
  const auto steps = [&](DType d, ExecutorOptions o) {
    const models::Graph low = lowerGraph(g, uniformPlan(d));
    return stepOf(low, Executor(low, testing::store(), o), "context");
  };
  ExecutorOptions ibert = fused();
  ibert.integer_nonlinear = true;  // the I-BERT softmax has no blockwise form
  EXPECT_EQ(steps(DType::Int8, ibert), std::vector<std::string>{"context"});
  EXPECT_EQ(steps(DType::Int8, fused()), kWholeChain);
  ExecutorOptions low_sums = fused();
  low_sums.low_precision_accumulate = true;  // FP16/BF16 running sums
  EXPECT_EQ(steps(DType::BF16, low_sums), std::vector<std::string>{"context"});
  EXPECT_EQ(steps(DType::BF16, fused()), kWholeChain);
  EXPECT_EQ(steps(*parseDType("mxfp8_e4m3"), fused()), std::vector<std::string>{"context"});
}

double relL2(const Tensor& a, const Tensor& b) {
  const std::vector<float> x = realValues(a), y = realValues(b);
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    num += (static_cast<double>(x[i]) - y[i]) * (static_cast<double>(x[i]) - y[i]);
    den += static_cast<double>(y[i]) * y[i];
  }
  return std::sqrt(num / den);
}

// (a) through the executor: FP32 fused equals unfused within FP32 rounding (the kernel-level
// test gives the reasons for 1e-6), for causal prefill and a decode query over 37 keys.
TEST(ExecutorFusedAttention, Fp32EqualsTheUnfusedRun) {
  for (const auto& [s, t] : {std::pair<int64_t, int64_t>{40, 40}, {1, 37}, {70, 70}}) {
    const models::Graph g = attentionGraph(s, t);
    const auto a = Executor(g, testing::store(), fused()).run().outputs.at("context");
    const auto b = Executor(g, testing::store()).run().outputs.at("context");
    EXPECT_LE(relL2(*a, *b), 1e-6) << "S=" << s << " T=" << t;
  }
}

// (c) through the executor, each dtype's context error against the FP32 run (what `tessel
// validate` reports), fused and unfused. The fused kernel rounds a subset of what the unfused
// path rounds (the same Q, K, V, P and output; not the scores, and INT8 P per block with a scale
// no coarser than the per-tensor one), so it must not be worse beyond noise: <= 1.1x.
TEST(ExecutorFusedAttention, EachDtypeNoWorseThanUnfused) {
  const models::Graph g = attentionGraph(48, 48);
  const ReferenceRun ref = runReference(g, testing::store());
  for (const char* name : {"fp16", "bf16", "fp8_e4m3", "int8"}) {
    const models::Graph low = lowerGraph(ref.graph, uniformPlan(*parseDType(name)));
    const ValidationReport f = validate(ref, low, testing::store(), fused());
    const ValidationReport u = validate(ref, low, testing::store(), {});
    const auto context = [](const ValidationReport& r) { return r.ops.back(); };
    ASSERT_TRUE(context(f).compared);
    EXPECT_EQ(f.ops[0].fused_into, "context");  // score and softmax stayed inside the kernel
    EXPECT_EQ(f.ops[1].fused_into, "context");
    EXPECT_FALSE(f.ops[1].compared);
    const double ef = context(f).error.rel_l2, eu = context(u).error.rel_l2;
    std::printf("%-9s context rel L2 vs FP32: fused %.4g, unfused %.4g\n", name, ef, eu);
    EXPECT_LE(ef, 1.1 * eu) << name;
    EXPECT_GT(ef, 0.0) << name;  // the dtype did round something
  }
}

std::string tinyGpt2() {
  return std::string(TESSEL_SOURCE_DIR) + "/tests/executor/data/tiny-gpt2.json";
}

// (d) `tessel validate --fusion auto` on the small decoders: every attention chain is one kernel
// (score and softmax reported inside the context's), and in FP32 the output is the unfused
// run's up to FP32 rounding: the same top-1 on every row, rel L2 <= 1e-5 (each block's context
// is within ~1e-6 of the unfused one and the remaining layers carry it through 2-3 blocks).
TEST(ExecutorFusedAttentionCli, ValidateFusesEveryAttentionChain) {
  const std::string dir = std::string(TESSEL_SOURCE_DIR) + "/tests/";
  const struct {
    std::string workload;
    int blocks;
    const char* prefix;
  } models[] = {{tinyGpt2(), 2, "h%d.attn."},
                {dir + "serve/llm/data/tiny-llama.json", 3, "layers.%d.attn."}};
  for (const auto& m : models) {
    nlohmann::json runs[2];
    for (int i = 0; i < 2; ++i) {
      const std::string json = ::testing::TempDir() + "tessel_fa_" + std::to_string(i) + ".json";
      const std::string mode = i == 0 ? "auto" : "none";
      const auto r = tessel::testing::runTessel("validate -q --workload " + m.workload +
                                                " --seq 24 --all-logits --precision fp32 "
                                                "--fusion " +
                                                mode + " --json " + json);
      ASSERT_EQ(r.code, 0) << r.out;
      runs[i] = nlohmann::json::parse(tessel::testing::slurp(json));
      EXPECT_EQ(runs[i]["fusion"], mode);
    }
    int fused_chains = 0;
    for (const auto& op : runs[0]["ops"]) {
      const std::string name = op["name"];
      for (int blk = 0; blk < m.blocks; ++blk) {
        char prefix[64];
        std::snprintf(prefix, sizeof prefix, m.prefix, blk);
        if (name == std::string(prefix) + "score" || name == std::string(prefix) + "softmax") {
          EXPECT_EQ(op["fused_into"], std::string(prefix) + "context") << name;
          fused_chains += name == std::string(prefix) + "softmax";
        }
      }
    }
    EXPECT_EQ(fused_chains, m.blocks) << m.workload;
    const auto& a = runs[0]["output"];
    const auto& b = runs[1]["output"];
    EXPECT_EQ(a["top1_agreement"], b["top1_agreement"]);
    EXPECT_EQ(b["error"]["rel_l2"], 0.0);  // unfused FP32 is the reference itself
    EXPECT_LE(a["error"]["rel_l2"].get<double>(), 1e-5) << m.workload;
    EXPECT_EQ(a["rows"], 24);
  }
}

TEST(ExecutorFusedAttentionCli, FusionModesAndTheirOlderSpellings) {
  const std::string gpt2 = "validate -q --workload " + tinyGpt2() + " --layers 1 --seq 8 --json ";
  const auto mode = [&](const std::string& flags) {
    const std::string json = ::testing::TempDir() + "tessel_fa_mode.json";
    const auto r = tessel::testing::runTessel(gpt2 + json + " " + flags);
    EXPECT_EQ(r.code, 0) << flags << "\n" << r.out;
    return nlohmann::json::parse(tessel::testing::slurp(json))["fusion"].get<std::string>();
  };
  EXPECT_EQ(mode(""), "auto");
  EXPECT_EQ(mode("--fuse"), "epilogue");
  EXPECT_EQ(mode("--fusion none"), "none");
  EXPECT_EQ(mode("--fuse --fusion epilogue"), "epilogue");
  const std::pair<const char*, const char*> bad[] = {
      {"--fusion all", "--fusion: all not in {none,epilogue,auto}"},
      {"--fuse --fusion auto", "--fuse: the older spelling of --fusion epilogue contradicts"},
      {"--fusion none --fuse-like x", "--fuse-like: --fuse-like chooses what to fuse"}};
  for (const auto& [flags, message] : bad) {
    const auto r = tessel::testing::runTessel(gpt2 + "/dev/null " + flags);
    EXPECT_EQ(r.code, 2) << flags << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
  }
}

// --fuse-like with auto fuses attention only on a design whose SFU runs softmax.
TEST(ExecutorFusedAttentionCli, FuseLikeFusesAttentionWhereTheSfuRunsSoftmax) {
  const std::string arch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/";
  const auto insideContext = [&](const std::string& design) {
    const std::string json = ::testing::TempDir() + "tessel_fa_like.json";
    const auto r = tessel::testing::runTessel("validate -q --workload " + tinyGpt2() +
                                              " --layers 1 --seq 8 --fuse-like " + arch + design +
                                              " --json " + json);
    EXPECT_EQ(r.code, 0) << r.out;
    const nlohmann::json j = nlohmann::json::parse(tessel::testing::slurp(json));
    for (const auto& op : j["ops"])
      if (op["name"] == "h0.attn.softmax") return op["fused_into"] == "h0.attn.context";
    return false;
  };
  EXPECT_TRUE(insideContext("gemmini-survey-model.yaml"));  // its SFU runs softmax
  EXPECT_FALSE(insideContext("gemmini-default.yaml"));      // softmax on the host
}

}  // namespace
}  // namespace tessel::kernels
