// DeepSeek-V2/V3: multi-head latent attention and their experts, counted by hand from the
// configs.
#include <gtest/gtest.h>

#include "family_checks.h"
#include "models/families/hf_config.h"

namespace tessel::models {
namespace {

int64_t params(const std::string& preset, const std::string& phase = "prefill") {
  WorkloadOptions o = opts(16);
  o.phase = phase;
  return build(preset, o).parameterCount();
}

// DeepSeek-V2-Lite (15.7 B on its model card): embed and head 102400*2048 each = 419,430,400;
// per layer q_proj 2048*16*192, kv_a 2048*576, its norm 512, kv_b 512*16*256, o 2048*2048, two
// norms 4,096 = 13,767,168 (x27); layer 0 dense 3*2048*10944 = 67,239,936; 26 MoE layers of
// router 2048*64, 64 experts of 3*2048*1408 and the shared 3*2048*2816 = 571,080,704; final norm.
TEST(FamiliesDeepseek, V2LiteParameters) {
  const int64_t expected = 419430400 + 27 * 13767168LL + 67239936 + 26 * 571080704LL + 2048;
  EXPECT_EQ(params("deepseek-v2-lite"), expected);
  EXPECT_EQ(expected, 15706484224);
  // Decode splits kv_b_proj into the per-head query and value absorptions: the same parameters.
  EXPECT_EQ(params("deepseek-v2-lite", "decode"), expected);
}

// DeepSeek-V3 (671 B without its 14 B multi-token-prediction module): embed and head
// 129280*7168 each; per layer q_a 7168*1536, its norm, q_b 1536*128*192, kv_a 7168*576, its norm,
// kv_b 512*128*256, o 16384*7168, two norms = 187,121,664 (x61); 3 dense layers 3*7168*18432;
// 58 MoE layers of router 7168*256, 256 experts and one shared of 3*7168*2048 each.
TEST(FamiliesDeepseek, V3Parameters) {
  const int64_t expected = 2 * 926679040LL + 61 * 187121664LL + 3 * 396361728LL +
                           58 * (1835008LL + 257 * 44040192LL) + 7168;
  EXPECT_EQ(expected, 671026404352);
  EXPECT_EQ(params("deepseek-v3"), expected);
}

// Decode attends over the latent cache: one shared head of kv_lora + qk_rope = 576 per token, so
// per layer and sequence score = H x 576 x keys MACs and context = H x 512 x keys; the absorptions
// H x 128 x 512 each way.
TEST(FamiliesDeepseek, DecodeAttendsOverTheLatentCache) {
  WorkloadOptions o = opts(100);
  o.phase = "decode";
  o.batch = 2;
  o.layers = 1;
  const Graph g = build("deepseek-v2-lite", o);
  const Op& score = g.op(g.findOp("layers.0.attn.score"));
  EXPECT_EQ(score.macs, 2 * 16 * 576 * 101);
  EXPECT_EQ(score.attn.kvHeads(), 1);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.context")).macs, 2 * 16 * 512 * 101);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.kv_b_proj.q_absorb")).macs, 2 * 16 * 128 * 512);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.kv_b_proj.v_absorb")).macs, 2 * 16 * 512 * 128);
  const Tensor& cache = g.tensor(g.op(g.findOp("layers.0.attn.score")).inputs[1]);
  EXPECT_EQ(cache.shape, (std::vector<int64_t>{2, 101, 576}));
  DecoderFacts f;
  ASSERT_TRUE(decoderFacts("deepseek-v2-lite", f));
  EXPECT_EQ(2 * f.kv_heads * f.head_dim, 576);  // what a serving KV cache holds per token and layer
}

// Prefill expands the latent per head: scores of qk_nope + qk_rope = 192, values of 128.
TEST(FamiliesDeepseek, PrefillExpandsTheLatentPerHead) {
  WorkloadOptions o = opts(64);
  o.layers = 2;
  const Graph g = build("deepseek-v2-lite", o);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.score")).macs, 16 * 64 * 64 * 192);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.context")).macs, 16 * 64 * 128 * 64);
  EXPECT_GE(g.findOp("layers.0.mlp.down_proj"), 0);               // first_k_dense_replace 1
  EXPECT_GE(g.findOp("layers.1.moe.shared_experts.down_proj"), 0);  // ungated shared experts
  EXPECT_LT(g.findOp("layers.1.moe.shared_expert_gate"), 0);
}

// Tensor parallel: heads divided, the latent projections on every rank.
TEST(FamiliesDeepseek, TensorParallelDividesTheHeads) {
  WorkloadOptions o = opts(32);
  o.layers = 1;
  o.tensor_parallel = 4;
  const Graph g = build("deepseek-v2-lite", o);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.score")).attn.heads, 4);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.kv_a_proj_with_mqa")).gemm.n, 576);
  EXPECT_EQ(g.op(g.findOp("layers.0.attn.o_proj")).gemm.k, 4 * 128);
}

}  // namespace
}  // namespace tessel::models
