// BERT encoder (HF layout): post-LN layers, fused QKV, erf GELU; no pooler or task head.
#include <string>

#include "models/builders.h"
#include "models/transformer.h"

namespace tessel::models::detail {
namespace {

constexpr int64_t kVocab = 30522;
constexpr int64_t kMaxPositions = 512;
constexpr int64_t kTokenTypes = 2;
constexpr float kEps = 1e-12f;  // HF BertConfig.layer_norm_eps

// Blocks to build: a prefix when options.layers asks for one (0 = all).
int64_t blockCount(const std::string& model, int64_t blocks, const WorkloadOptions& o) {
  if (o.layers > blocks) {
    configError("--layers", "layers " + std::to_string(o.layers) + " exceeds " + model + "'s " +
                                std::to_string(blocks) + " blocks");
  }
  return o.layers == 0 ? blocks : o.layers;
}

std::string layersSuffix(const WorkloadOptions& o) {
  return o.layers == 0 ? "" : " layers=" + std::to_string(o.layers);
}

// Word + position + token-type embeddings, then LayerNorm.
int embed(Builder& b, int64_t batch, int64_t s, int64_t d) {
  int ids = b.input("input_ids", {batch, s}, DType::Int32);
  int positions = b.input("position_ids", {batch, s}, DType::Int32);
  int types = b.input("token_type_ids", {batch, s}, DType::Int32);
  int x = embedding(b, "embeddings.word", ids, kVocab, d);
  x = add(b, "embeddings.add_position", x,
          embedding(b, "embeddings.position", positions, kMaxPositions, d));
  x = add(b, "embeddings.add_token_type", x,
          embedding(b, "embeddings.token_type", types, kTokenTypes, d));
  return layerNorm(b, "embeddings.ln", x, kEps);
}

int layer(Builder& b, const BertConfig& c, int i, int x) {
  const std::string p = "layer" + std::to_string(i);
  b.layer = i;
  int a = attention(b, p + ".attn", x, AttentionSpec{c.heads, false, -1, -1});
  x = layerNorm(b, p + ".attn.ln", add(b, p + ".attn.residual", x, a), kEps);
  int f = feedForward(b, p + ".ffn", x, c.ffn, false);
  return layerNorm(b, p + ".ffn.ln", add(b, p + ".ffn.residual", x, f), kEps);
}

}  // namespace

Graph buildBert(const BertConfig& c, const WorkloadOptions& o) {
  if (o.seq > kMaxPositions) {
    configError("--seq", "seq " + std::to_string(o.seq) + " exceeds bert's " +
                             std::to_string(kMaxPositions) + " position embeddings");
  }
  const int64_t layers = blockCount(c.name, c.layers, o);
  Graph g;
  g.name = c.name + " seq=" + std::to_string(o.seq) + " batch=" + std::to_string(o.batch) +
           layersSuffix(o);
  Builder b{g, o.dtype};
  int x = embed(b, o.batch, o.seq, c.d);
  for (int i = 0; i < layers; ++i) x = layer(b, c, i, x);
  return g;
}

}  // namespace tessel::models::detail
