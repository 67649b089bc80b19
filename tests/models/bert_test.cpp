// BERT encoder: parameter counts without the pooler, MACs, post-LN structure.
#include <gtest/gtest.h>

#include "graph_checks.h"
#include "models/workload.h"

namespace tessel::models {
namespace {

WorkloadOptions seq(int64_t s, int64_t batch = 1) {
  WorkloadOptions o;
  o.seq = s;
  o.batch = batch;
  return o;
}

// Embeddings V*d + 512*d + 2*d + LN 2d, plus per layer 12d^2 + 13d (FFN 4d wide in both sizes).
// HF BertModel counts include the pooler (d^2 + d), which this encoder leaves out:
// base 109,482,240 - 590,592 = 108,891,648; large 335,141,888 - 1,049,600 = 334,092,288.
TEST(ModelsBert, ParameterCountsWithoutPooler) {
  EXPECT_EQ(build("bert-base", seq(8)).parameterCount(), 108891648);
  EXPECT_EQ(build("bert-large", seq(8)).parameterCount(), 334092288);
}

// S = 128, d = 768: per layer 12*S*d^2 = 905,969,664 (qkv 3, proj 1, FFN 2*4) plus
// 2*S^2*d = 25,165,824 for score and context; 12 layers; embeddings have no MACs.
TEST(ModelsBert, BaseMacs) {
  EXPECT_EQ(build("bert-base", seq(128)).totalMacs(), 12 * (905969664LL + 25165824LL));
  EXPECT_EQ(build("bert-base", seq(128, 4)).totalMacs(), 4 * 12 * (905969664LL + 25165824LL));
}

// 6 embedding ops (3 lookups, 2 adds, LN) + 12 per layer.
TEST(ModelsBert, Structure) {
  Graph g = build("bert", seq(64));
  expectWellFormed(g);
  EXPECT_EQ(g.name, "bert-base seq=64 batch=1");
  EXPECT_EQ(g.ops().size(), 6u + 12u * 12u);
  const char* names[] = {"layer2.attn.qkv",     "layer2.attn.score",   "layer2.attn.softmax",
                         "layer2.attn.context", "layer2.attn.proj",    "layer2.attn.residual",
                         "layer2.attn.ln",      "layer2.ffn.fc",       "layer2.ffn.gelu",
                         "layer2.ffn.proj",     "layer2.ffn.residual", "layer2.ffn.ln"};
  int previous = -1;
  for (const char* n : names) {
    const Op& op = opNamed(g, n);
    EXPECT_GT(op.id, previous) << n;
    EXPECT_EQ(op.layer, 2) << n;
    previous = op.id;
  }
  // Post-LN: the residual adds the block input, then LayerNorm follows.
  const Op& residual = opNamed(g, "layer2.attn.residual");
  EXPECT_EQ(residual.inputs[0], opNamed(g, "layer1.ffn.ln").outputs[0]);
  EXPECT_EQ(opNamed(g, "layer2.attn.ln").inputs[0], residual.outputs[0]);
  EXPECT_FALSE(opNamed(g, "layer2.ffn.gelu").gelu_tanh);  // erf form
  EXPECT_FLOAT_EQ(opNamed(g, "layer2.attn.ln").eps, 1e-12f);
  EXPECT_EQ(g.tensor(opNamed(g, "layer2.ffn.fc").outputs[0]).shape,
            (std::vector<int64_t>{1, 64, 3072}));
}

TEST(ModelsBert, AttentionIsBidirectional) {
  Graph g = build("bert-large", seq(32));
  const Op& score = opNamed(g, "layer23.attn.score");
  EXPECT_FALSE(score.attn.causal);
  EXPECT_EQ(score.attn.heads, 16);
  EXPECT_EQ(score.attn.head_dim, 64);
  EXPECT_EQ(score.attn.b_col_offset, 1024);
  EXPECT_EQ(opNamed(g, "layer23.attn.context").attn.b_col_offset, 2048);
  EXPECT_EQ(g.tensor(opNamed(g, "embeddings.token_type").inputs[1]).shape,
            (std::vector<int64_t>{2, 1024}));
  for (const char* ids : {"input_ids", "position_ids", "token_type_ids"}) {
    bool found = false;
    for (const Tensor& t : g.tensors()) {
      if (t.name != ids) continue;
      found = true;
      EXPECT_EQ(t.dtype, DType::Int32);
      EXPECT_EQ(t.shape, (std::vector<int64_t>{1, 32}));
    }
    EXPECT_TRUE(found) << ids;
  }
}

}  // namespace
}  // namespace tessel::models
