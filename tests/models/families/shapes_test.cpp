// Shapes, MACs and KV-cache bytes of the decoder families; a file on disk equals its text.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "family_checks.h"
#include "models/families/hf_config.h"
#include "models/fuse.h"

namespace tessel::models {
namespace {

int64_t layerMacs(const Graph& g, int layer) {
  int64_t total = 0;
  for (const Op& op : g.ops()) total += op.layer == layer ? op.macs : 0;
  return total;
}

// Llama-3.1-8B layer 0 at prefill S = 2048, B = 1 (d 4096, H 32, KV 8, hd 128, I 14336):
//   q_proj, o_proj  S*d*d       = 34,359,738,368 each
//   k_proj, v_proj  S*d*KV*hd   =  8,589,934,592 each
//   score, context  H*S*S*hd    = 17,179,869,184 each (GQA shares K/V, not MACs)
//   up, gate, down  S*d*I       = 120,259,084,288 each
//   total                       = 481,036,337,152
TEST(FamiliesShapes, LlamaLayerMacsAtPrefill) {
  const Graph g = build("llama-3.1-8b", opts(2048));
  EXPECT_EQ(layerMacs(g, 0), 481036337152);
  EXPECT_EQ(layerMacs(g, 31), 481036337152);
  // LM head on the last position only: d * V.
  EXPECT_EQ(opNamed(g, "lm_head").macs, 4096LL * 128256);
  EXPECT_EQ(g.name, "llama-3.1-8b prefill seq=2048 batch=1");
}

// GQA view: the 4 query heads of a group are stacked as rows against their one K/V head.
TEST(FamiliesShapes, GqaBatchMatMulViews) {
  const Graph g = build("llama-3.1-8b", opts(100, 2));
  const Op& score = opNamed(g, "layers.0.attn.score");
  EXPECT_EQ(score.attn.heads, 32);
  EXPECT_EQ(score.attn.kv_heads, 8);
  EXPECT_EQ(score.gemm.batch, 2 * 8);
  EXPECT_EQ(score.gemm.m, 4 * 100);
  EXPECT_EQ(score.gemm.n, 100);
  EXPECT_EQ(score.gemm.k, 128);
  EXPECT_EQ(g.tensor(score.outputs[0]).shape, (std::vector<int64_t>{2, 32, 100, 100}));
  const Op& ctx = opNamed(g, "layers.0.attn.context");
  EXPECT_EQ(ctx.gemm.batch, 16);
  EXPECT_EQ(ctx.gemm.m, 400);
  EXPECT_EQ(ctx.gemm.n, 128);
  EXPECT_EQ(ctx.gemm.k, 100);
  EXPECT_EQ(g.tensor(ctx.outputs[0]).shape, (std::vector<int64_t>{2, 100, 4096}));
  // MACs are those of all 32 heads.
  EXPECT_EQ(score.macs, 2LL * 32 * 100 * 100 * 128);
  // MQA (gemma-2b: 8 query heads, 1 K/V head of 256).
  const Graph gemma = build("gemma-2b", opts(10));  // kept alive: mqa refers into it
  const Op& mqa = opNamed(gemma, "layers.0.attn.score");
  EXPECT_EQ(mqa.gemm.batch, 1);
  EXPECT_EQ(mqa.gemm.m, 80);
  EXPECT_EQ(mqa.gemm.k, 256);
}

// Decode: the caches are the only Inputs besides the ids, and hold L+1 rows of KV*hd.
TEST(FamiliesShapes, DecodeKvCacheBytes) {
  for (DType dtype : {DType::Int8, DType::BF16}) {
    WorkloadOptions o = opts(131071, 3, "decode");  // the full 131,072-position context
    o.dtype = dtype;
    const Graph g = build("llama-3.1-8b", o);
    int64_t cache = 0;
    for (const Tensor& t : g.tensors()) {
      if (t.role == TensorRole::Input && t.name.find("_cache") != std::string::npos) {
        cache += t.bytes();
      }
    }
    // 2 * layers * B * (T+1) * kv_heads * head_dim * bytes.
    EXPECT_EQ(cache, 2LL * 32 * 3 * 131072 * 8 * 128 * bytesOf(dtype));
    const Op& score = opNamed(g, "layers.5.attn.score");
    EXPECT_EQ(score.gemm.m, 4);  // one new token per sequence, 4 query heads per group
    EXPECT_EQ(score.gemm.n, 131072);
    EXPECT_EQ(opNamed(g, "layers.5.attn.q_rope").rope.position_offset, 131071);
    EXPECT_EQ(opNamed(g, "lm_head").gemm.m, 3);
  }
}

// Mistral's sliding window: decode keeps a rolling cache of 4096 keys.
TEST(FamiliesShapes, SlidingWindowDecode) {
  const Graph g = build("mistral-7b", opts(10000, 1, "decode"));
  const int k = opNamed(g, "layers.0.attn.score").inputs[1];
  EXPECT_EQ(g.tensor(k).shape, (std::vector<int64_t>{1, 4096, 1024}));
  EXPECT_EQ(opNamed(g, "layers.0.attn.score").gemm.n, 4096);
  // Shorter than the window: the whole cache.
  const Graph s = build("mistral-7b", opts(99, 1, "decode"));
  EXPECT_EQ(opNamed(s, "layers.0.attn.score").gemm.n, 100);
}

// Up before gate, so gate -> act -> mul(up) is a chain on the gate GEMM's output.
TEST(FamiliesShapes, GatedMlpOrder) {
  const Graph g = build("llama-3.2-1b", opts(8));
  EXPECT_LT(g.findOp("layers.0.mlp.up_proj"), g.findOp("layers.0.mlp.gate_proj"));
  const Op& act = opNamed(g, "layers.0.mlp.act");
  EXPECT_EQ(act.kind, OpKind::Silu);
  EXPECT_EQ(g.producerOf(act.inputs[0]), g.findOp("layers.0.mlp.gate_proj"));
  const Op& mul = opNamed(g, "layers.0.mlp.mul");
  EXPECT_EQ(mul.inputs[0], act.outputs[0]);
  EXPECT_EQ(g.producerOf(mul.inputs[1]), g.findOp("layers.0.mlp.up_proj"));
  // Gemma: GeGLU, embeddings scaled by sqrt(2048), tied head.
  const Graph gem = build("gemma-2b", opts(8));
  EXPECT_EQ(opNamed(gem, "layers.0.mlp.act").kind, OpKind::Gelu);
  EXPECT_FLOAT_EQ(opNamed(gem, "embed_scale").elt.alpha, std::sqrt(2048.0f));
  EXPECT_TRUE(opNamed(gem, "lm_head").transpose_b);
  // Phi-3: one fused qkv_proj (Q, K, V columns), gate_up as its two halves.
  const Graph phi = build("phi-3-mini", opts(8));
  EXPECT_EQ(opNamed(phi, "layers.0.attn.qkv_proj").gemm.n, 3 * 3072);
  const Op& rope = opNamed(phi, "layers.0.attn.rope");  // Q and K heads in one rotation
  EXPECT_EQ(rope.rope.heads, 64);
  EXPECT_EQ(rope.rope.col_offset, 0);
  EXPECT_EQ(opNamed(phi, "layers.0.attn.score").attn.b_col_offset, 3072);
  EXPECT_EQ(opNamed(phi, "layers.0.attn.context").attn.b_col_offset, 2 * 3072);
  // Qwen2: q/k/v biases, none on o_proj.
  const Graph qw = build("qwen2-7b", opts(8));
  EXPECT_EQ(opNamed(qw, "layers.0.attn.k_proj").inputs.size(), 3u);
  EXPECT_EQ(opNamed(qw, "layers.0.attn.o_proj").inputs.size(), 2u);
}

// With Silu and Mul allowed as epilogues, the gate GEMM takes act and mul (up is done by then).
TEST(FamiliesShapes, SwiGluFusesIntoTheGateGemm) {
  const Graph g = build("llama-3.2-1b", opts(8));
  FuseRules rules;
  rules.epilogue_kinds = {OpKind::Silu, OpKind::Mul};
  const Fusion f = fuse(g, rules);
  const FusionGroup* group = f.groupOf(g.findOp("layers.3.mlp.gate_proj"));
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->anchor, g.findOp("layers.3.mlp.gate_proj"));
  EXPECT_EQ(group->epilogue,
            (std::vector<int>{g.findOp("layers.3.mlp.act"), g.findOp("layers.3.mlp.mul")}));
}

TEST(FamiliesShapes, BuildsInMilliseconds) {
  const auto start = std::chrono::steady_clock::now();
  const Graph g = build("llama-3.1-8b", opts(2048));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_LT(ms, 500) << "no per-token loops: a 32-layer graph is a few hundred ops";
  EXPECT_LT(g.ops().size(), 32u * 25 + 10);
}

TEST(FamiliesShapes, FileBuildsTheSameGraphAsText) {
  const auto dir = std::filesystem::temp_directory_path() / "tessel_families_test" / "Llama-3.1-8B";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "config.json").string();
  std::ofstream(path) << presetText("llama-3.1-8b");
  const Graph a = build(path, opts(64));
  const Graph b = hf::buildFromText(presetText("llama-3.1-8b"), "llama-3.1-8b", opts(64));
  EXPECT_EQ(a.name, "Llama-3.1-8B prefill seq=64 batch=1");
  ASSERT_EQ(a.ops().size(), b.ops().size());
  ASSERT_EQ(a.tensors().size(), b.tensors().size());
  for (size_t i = 0; i < a.ops().size(); ++i) {
    EXPECT_EQ(a.ops()[i].name, b.ops()[i].name);
    EXPECT_EQ(a.ops()[i].macs, b.ops()[i].macs);
  }
  for (size_t i = 0; i < a.tensors().size(); ++i) {
    EXPECT_EQ(a.tensors()[i].shape, b.tensors()[i].shape);
  }
  EXPECT_EQ(a.parameterCount(), 8030261248);
  std::filesystem::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace tessel::models
