// GPT-2: parameter counts, MAC totals derived by hand, op structure, attention views.
#include <gtest/gtest.h>

#include <cmath>

#include "graph_checks.h"
#include "models/workload.h"

namespace tessel::models {
namespace {

WorkloadOptions prefill(int64_t seq, int64_t batch = 1) {
  WorkloadOptions o;
  o.seq = seq;
  o.batch = batch;
  return o;
}

WorkloadOptions decode(int64_t cache, int64_t batch = 1) {
  WorkloadOptions o = prefill(cache, batch);
  o.phase = "decode";
  return o;
}

// Per size: V*d (wte) + 1024*d (wpe) + L*(12d^2 + 13d) + 2d (ln_f). Per layer 12d^2 + 13d is
// qkv 3d^2+3d, proj d^2+d, fc 4d^2+4d, mlp proj 4d^2+d, two LayerNorms 4d. The small and medium
// values are HF's published counts; large and xl follow from the same formula (and match HF).
TEST(ModelsGpt2, ParameterCounts) {
  EXPECT_EQ(build("gpt2-small", prefill(8)).parameterCount(), 124439808);
  EXPECT_EQ(build("gpt2-medium", prefill(8)).parameterCount(), 354823168);
  EXPECT_EQ(build("gpt2-large", prefill(8)).parameterCount(), 774030080);
  EXPECT_EQ(build("gpt2-xl", prefill(8)).parameterCount(), 1557611200);
  // Decode adds KV-cache inputs, not parameters.
  EXPECT_EQ(build("gpt2", decode(16)).parameterCount(), 124439808);
}

// Per layer with S = 512, d = 768: projections and FFN 12*S*d^2 = 3,623,878,656 (qkv 3, proj 1,
// fc 4, mlp proj 4), attention score + context 2*S^2*d = 402,653,184 (the causal mask does not
// skip MACs). 12 layers = 48,318,382,080; LM head on the last position only d*V = 38,597,376.
TEST(ModelsGpt2, PrefillMacs) {
  EXPECT_EQ(build("gpt2-small", prefill(512)).totalMacs(), 48356979456);
  // all_logits: LM head on 512 positions = 512*768*50257 = 19,761,856,512.
  WorkloadOptions all = prefill(512);
  all.all_logits = true;
  EXPECT_EQ(build("gpt2-small", all).totalMacs(), 48318382080 + 19761856512);
}

// Decode at L = 127: one token attends over T = L+1 = 128 keys. Per layer 12*d^2 = 7,077,888
// plus attention 2*T*d = 196,608 = 7,274,496; 12 layers = 87,293,952; LM head 38,597,376.
TEST(ModelsGpt2, DecodeMacs) { EXPECT_EQ(build("gpt2-small", decode(127)).totalMacs(), 125891328); }

TEST(ModelsGpt2, BatchScalesMacsLinearly) {
  const int64_t one = build("gpt2-small", prefill(64, 1)).totalMacs();
  EXPECT_EQ(build("gpt2-small", prefill(64, 3)).totalMacs(), 3 * one);
  const int64_t dec = build("gpt2-small", decode(100, 1)).totalMacs();
  EXPECT_EQ(build("gpt2-small", decode(100, 5)).totalMacs(), 5 * dec);
}

// 3 embedding ops (wte, wpe, add) + 12 per block + ln_f + lm_head.
TEST(ModelsGpt2, OpCounts) {
  Graph g = build("gpt2-small", prefill(32));
  expectWellFormed(g);
  EXPECT_EQ(g.ops().size(), 3u + 12u * 12u + 2u);
  EXPECT_EQ(countKind(g, OpKind::BatchMatMul), 24);  // score + context per block
  EXPECT_EQ(countKind(g, OpKind::MatMul), 12 * 4 + 1);
  EXPECT_EQ(countKind(g, OpKind::LayerNorm), 12 * 2 + 1);
  EXPECT_EQ(countKind(g, OpKind::Gelu), 12);
  int block3 = 0;
  for (const Op& op : g.ops()) block3 += op.layer == 3;
  EXPECT_EQ(block3, 12);
  const char* names[] = {"h3.ln_1",         "h3.attn.qkv",  "h3.attn.score",    "h3.attn.softmax",
                         "h3.attn.context", "h3.attn.proj", "h3.attn.residual", "h3.ln_2",
                         "h3.mlp.fc",       "h3.mlp.gelu",  "h3.mlp.proj",      "h3.mlp.residual"};
  int previous = -1;
  for (const char* n : names) {
    const Op& op = opNamed(g, n);
    EXPECT_GT(op.id, previous) << n;  // block ops appear in execution order
    EXPECT_EQ(op.layer, 3) << n;
    previous = op.id;
  }
  EXPECT_EQ(g.name, "gpt2-small prefill seq=32 batch=1");
  EXPECT_TRUE(opNamed(g, "h3.mlp.gelu").gelu_tanh);
}

TEST(ModelsGpt2, PrefillShapesAndGemm) {
  Graph g = build("gpt2-small", prefill(512, 2));
  const Op& qkv = opNamed(g, "h0.attn.qkv");
  EXPECT_EQ(g.tensor(qkv.outputs[0]).shape, (std::vector<int64_t>{2, 512, 2304}));
  EXPECT_EQ(qkv.gemm.m, 1024);  // B*S rows share the weight
  EXPECT_EQ(qkv.gemm.n, 2304);
  EXPECT_EQ(qkv.gemm.k, 768);
  EXPECT_EQ(qkv.inputs.size(), 3u);  // activation, weight [768, 2304], bias [2304]
  EXPECT_EQ(g.tensor(qkv.inputs[1]).shape, (std::vector<int64_t>{768, 2304}));
  EXPECT_EQ(g.tensor(qkv.inputs[2]).shape, (std::vector<int64_t>{2304}));
  const Op& fc = opNamed(g, "h11.mlp.fc");
  EXPECT_EQ(g.tensor(fc.outputs[0]).shape, (std::vector<int64_t>{2, 512, 3072}));
  EXPECT_EQ(g.tensor(opNamed(g, "embed").outputs[0]).shape, (std::vector<int64_t>{2, 512, 768}));
  const Op& head = opNamed(g, "lm_head");
  EXPECT_TRUE(head.transpose_b);
  EXPECT_EQ(g.tensor(head.inputs[1]).name, "wte.weight");  // tied to the [V, d] embedding
  EXPECT_EQ(g.tensor(head.inputs[1]).shape, (std::vector<int64_t>{50257, 768}));
  EXPECT_EQ(head.inputs[0], opNamed(g, "ln_f").outputs[0]);
  EXPECT_EQ(head.gemm.m, 2);  // one (last) position per sequence
  EXPECT_EQ(g.tensor(head.outputs[0]).shape, (std::vector<int64_t>{2, 1, 50257}));
}

TEST(ModelsGpt2, PrefillAttentionAttributes) {
  Graph g = build("gpt2-small", prefill(128, 2));
  const Op& qkv = opNamed(g, "h3.attn.qkv");
  const Op& score = opNamed(g, "h3.attn.score");
  EXPECT_EQ(score.kind, OpKind::BatchMatMul);
  EXPECT_EQ(score.inputs, (std::vector<int>{qkv.outputs[0], qkv.outputs[0]}));
  EXPECT_EQ(score.attn.heads, 12);
  EXPECT_EQ(score.attn.head_dim, 64);
  EXPECT_EQ(score.attn.a_col_offset, 0);    // Q columns
  EXPECT_EQ(score.attn.b_col_offset, 768);  // K columns
  EXPECT_TRUE(score.attn.transpose_b);
  EXPECT_TRUE(score.attn.causal);
  EXPECT_FLOAT_EQ(score.attn.scale, 0.125f);  // 1/sqrt(64)
  EXPECT_EQ(score.gemm.batch, 24);            // B * heads
  EXPECT_EQ(score.gemm.m, 128);
  EXPECT_EQ(score.gemm.n, 128);
  EXPECT_EQ(score.gemm.k, 64);
  EXPECT_EQ(g.tensor(score.outputs[0]).shape, (std::vector<int64_t>{2, 12, 128, 128}));
  const Op& softmax = opNamed(g, "h3.attn.softmax");
  const Op& ctx = opNamed(g, "h3.attn.context");
  EXPECT_EQ(ctx.inputs, (std::vector<int>{softmax.outputs[0], qkv.outputs[0]}));
  EXPECT_EQ(ctx.attn.b_col_offset, 1536);  // V columns
  EXPECT_FALSE(ctx.attn.transpose_b);
  EXPECT_EQ(ctx.gemm.batch, 24);
  EXPECT_EQ(ctx.gemm.m, 128);
  EXPECT_EQ(ctx.gemm.n, 64);
  EXPECT_EQ(ctx.gemm.k, 128);
  EXPECT_EQ(g.tensor(ctx.outputs[0]).shape, (std::vector<int64_t>{2, 128, 768}));
  EXPECT_EQ(g.consumersOf(qkv.outputs[0]), (std::vector<int>{score.id, ctx.id}));
  EXPECT_EQ(g.producerOf(ctx.inputs[0]), softmax.id);
}

TEST(ModelsGpt2, DecodeUsesKvCacheInputs) {
  Graph g = build("gpt2-small", decode(127, 2));
  expectWellFormed(g);
  EXPECT_EQ(g.name, "gpt2-small decode seq=127 batch=2");
  const Op& score = opNamed(g, "h5.attn.score");
  const Tensor& k = g.tensor(score.inputs[1]);
  EXPECT_EQ(k.name, "h5.k_cache");
  EXPECT_EQ(k.role, TensorRole::Input);
  EXPECT_EQ(k.shape, (std::vector<int64_t>{2, 128, 768}));  // L + 1: holds the new token
  EXPECT_EQ(score.attn.b_col_offset, 0);
  EXPECT_EQ(score.gemm.m, 1);
  EXPECT_EQ(score.gemm.n, 128);
  EXPECT_EQ(g.tensor(score.outputs[0]).shape, (std::vector<int64_t>{2, 12, 1, 128}));
  const Op& ctx = opNamed(g, "h5.attn.context");
  EXPECT_EQ(g.tensor(ctx.inputs[1]).name, "h5.v_cache");
  EXPECT_EQ(ctx.attn.b_col_offset, 0);
  EXPECT_EQ(ctx.gemm.k, 128);
  EXPECT_EQ(opNamed(g, "h5.attn.qkv").gemm.m, 2);  // one new token per sequence
  EXPECT_EQ(opNamed(g, "lm_head").gemm.m, 2);
  EXPECT_EQ(g.tensor(g.op(g.findOp("wte")).inputs[0]).shape, (std::vector<int64_t>{2, 1}));
}

TEST(ModelsGpt2, DtypesFollowOptions) {
  WorkloadOptions o = prefill(16);
  o.dtype = DType::FP16;
  Graph g = build("gpt2-small", o);
  for (const Tensor& t : g.tensors()) {
    const bool ids = t.name == "input_ids" || t.name == "position_ids";
    EXPECT_EQ(t.dtype, ids ? DType::Int32 : DType::FP16) << t.name;
  }
}

TEST(ModelsGpt2, LargerSizesAreWellFormed) {
  for (const char* name : {"gpt2-medium", "gpt2-large", "gpt2-xl"}) {
    expectWellFormed(build(name, prefill(16)));
    expectWellFormed(build(name, decode(16)));
  }
  // xl: 25 heads of 64 over d = 1600.
  Graph g = build("gpt2-xl", prefill(16));
  EXPECT_EQ(opNamed(g, "h47.attn.score").attn.heads, 25);
  EXPECT_EQ(opNamed(g, "h47.attn.score").attn.head_dim, 64);
}

}  // namespace
}  // namespace tessel::models
