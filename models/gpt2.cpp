// GPT-2 (HF layout): pre-LN decoder blocks, fused QKV, tied LM head; prefill and KV-cache decode.
#include <string>
#include <utility>

#include "models/builders.h"
#include "models/transformer.h"

namespace tessel::models::detail {
namespace {

constexpr int64_t kVocab = 50257;
constexpr int64_t kContext = 1024;
constexpr float kEps = 1e-5f;

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

void checkSeq(const WorkloadOptions& o) {
  const bool decode = o.phase == "decode";
  // Decode attends over the cache plus the new token, so both must fit in the context.
  const int64_t positions = decode ? o.seq + 1 : o.seq;
  if (positions > kContext) {
    configError("--seq", "seq " + std::to_string(o.seq) + " exceeds gpt2's context of " +
                             std::to_string(kContext) + " tokens" +
                             (decode ? " (decode needs seq+1 positions; use at most 1023)" : ""));
  }
}

// Token + position embeddings of `s` new tokens; returns the summed hidden state.
int embed(Builder& b, int64_t batch, int64_t s, int64_t d) {
  int ids = b.input("input_ids", {batch, s}, DType::Int32);
  int positions = b.input("position_ids", {batch, s}, DType::Int32);
  int tokens = embedding(b, "wte", ids, kVocab, d);
  int pos = embedding(b, "wpe", positions, kContext, d);
  return add(b, "embed", tokens, pos);
}

int block(Builder& b, const Gpt2Config& c, int i, int x, AttentionSpec spec) {
  const std::string p = "h" + std::to_string(i);
  b.layer = i;
  int a = attention(b, p + ".attn", layerNorm(b, p + ".ln_1", x, kEps), spec);
  x = add(b, p + ".attn.residual", x, a);
  int m = feedForward(b, p + ".mlp", layerNorm(b, p + ".ln_2", x, kEps), 4 * c.d, true);
  return add(b, p + ".mlp.residual", x, m);
}

// Logits against the tied [V, d] embedding; only the last position unless `all`.
int lmHead(Builder& b, int x, int wte, bool all) {
  const std::vector<int64_t> in = b.shape(x);  // [B, S, d]
  const int64_t rows = all ? in[1] : 1;
  Op op = makeOp("lm_head", OpKind::MatMul, {x, wte});
  op.transpose_b = true;
  op.gemm = {1, in[0] * rows, kVocab, in[2]};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {in[0], rows, kVocab});
}

}  // namespace

Graph buildGpt2(const Gpt2Config& c, const WorkloadOptions& o) {
  checkSeq(o);
  const int64_t layers = blockCount(c.name, c.layers, o);
  const bool decode = o.phase == "decode";
  const int64_t new_tokens = decode ? 1 : o.seq;
  Graph g;
  g.name = c.name + " " + o.phase + " seq=" + std::to_string(o.seq) +
           " batch=" + std::to_string(o.batch) + layersSuffix(o);
  Builder b{g, o.dtype};
  int x = embed(b, o.batch, new_tokens, c.d);
  const int wte = g.op(g.findOp("wte")).inputs[1];  // the [V, d] table, reused by lm_head
  for (int i = 0; i < layers; ++i) {
    AttentionSpec spec{c.heads, true, -1, -1};
    if (decode) {
      // The cache already holds the new token's K/V (see docs/workloads.md), hence L+1 rows.
      const std::string p = "h" + std::to_string(i);
      spec.k_cache = b.input(p + ".k_cache", {o.batch, o.seq + 1, c.d}, o.dtype);
      spec.v_cache = b.input(p + ".v_cache", {o.batch, o.seq + 1, c.d}, o.dtype);
    }
    x = block(b, c, i, x, spec);
  }
  b.layer = -1;
  x = layerNorm(b, "ln_f", x, kEps);
  lmHead(b, x, wte, o.all_logits && !decode);
  return g;
}

}  // namespace tessel::models::detail
