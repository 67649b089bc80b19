// EncoderSpec -> Graph: GPT-2 (pre-LN decoder, tied head; prefill and decode), BERT (post-LN
// encoder and pooler) and ViT (patch conv, [CLS], pre-LN encoder, optional classifier).
#include <algorithm>
#include <utility>

#include "models/builder.h"
#include "models/families/family.h"
#include "models/transformer.h"

namespace tessel::models::hf {
namespace {

using detail::add;
using detail::AttentionSpec;
using detail::Builder;
using detail::embedding;
using detail::layerNorm;
using detail::linear;
using detail::makeOp;

}  // namespace

// A MatMul with fewer output rows reads the last rows (graph.h), so [CLS] needs a Slice.
int firstToken(Builder& b, const std::string& name, int x) {
  std::vector<int64_t> shape = b.shape(x);
  Op op = makeOp(name, OpKind::Slice, {x});
  op.layout.axis = 1;
  op.layout.start = 0;
  op.layout.end = 1;
  op.layout.on_accelerator = true;
  shape[1] = 1;
  return b.emit(std::move(op), std::move(shape));
}

namespace {

Graph gpt2(const EncoderSpec& s, const WorkloadOptions& o) {
  const bool decode = o.phase == "decode";
  const int64_t positions = decode ? o.seq + 1 : o.seq, tokens = decode ? 1 : o.seq;
  if (positions > s.max_positions) {
    optionError("--seq", "seq " + std::to_string(o.seq) + " exceeds " + s.name +
                             "'s n_positions of " + std::to_string(s.max_positions) +
                             (decode ? " (decode needs seq+1 positions)" : ""));
  }
  Graph g;
  g.name = graphName(s.name, o, true);
  Builder b{g, o.dtype};
  int x = embedding(b, "wte", b.input("input_ids", {o.batch, tokens}, DType::Int32), s.vocab, s.d);
  x = add(b, "embed", x,
          embedding(b, "wpe", b.input("position_ids", {o.batch, tokens}, DType::Int32),
                    s.max_positions, s.d));
  const int wte = g.op(g.findOp("wte")).inputs[1];
  const int64_t layers = blockCount(s.name, s.layers, o);
  for (int i = 0; i < layers; ++i) {
    const std::string p = "h" + std::to_string(i);
    b.layer = i;
    AttentionSpec spec{s.heads, true, -1, -1};
    if (decode) {  // the caches already hold the new token's K/V (docs/workloads.md)
      spec.k_cache = b.input(p + ".k_cache", {o.batch, o.seq + 1, s.d}, o.dtype);
      spec.v_cache = b.input(p + ".v_cache", {o.batch, o.seq + 1, s.d}, o.dtype);
    }
    x = add(b, p + ".attn.residual", x,
            detail::attention(b, p + ".attn", layerNorm(b, p + ".ln_1", x, s.eps), spec));
    int m =
        detail::feedForward(b, p + ".mlp", layerNorm(b, p + ".ln_2", x, s.eps), s.ffn, s.gelu_tanh);
    x = add(b, p + ".mlp.residual", x, m);
  }
  b.layer = -1;
  x = layerNorm(b, "ln_f", x, s.eps);
  const int64_t rows = o.all_logits && !decode ? tokens : 1;
  Op head = makeOp("lm_head", OpKind::MatMul, {x, wte});
  head.transpose_b = true;
  head.gemm = {1, o.batch * rows, s.vocab, s.d};
  head.macs = head.gemm.macs();
  b.emit(std::move(head), {o.batch, rows, s.vocab});
  return g;
}

Graph bert(const EncoderSpec& s, const WorkloadOptions& o) {
  if (o.seq > s.max_positions) {
    optionError("--seq", "seq " + std::to_string(o.seq) + " exceeds " + s.name +
                             "'s max_position_embeddings of " + std::to_string(s.max_positions));
  }
  Graph g;
  g.name = graphName(s.name, o, false);
  Builder b{g, o.dtype};
  auto ids = [&](const char* name) { return b.input(name, {o.batch, o.seq}, DType::Int32); };
  int x = embedding(b, "embeddings.word", ids("input_ids"), s.vocab, s.d);
  x = add(b, "embeddings.add_position", x,
          embedding(b, "embeddings.position", ids("position_ids"), s.max_positions, s.d));
  x = add(b, "embeddings.add_token_type", x,
          embedding(b, "embeddings.token_type", ids("token_type_ids"), s.type_vocab, s.d));
  x = layerNorm(b, "embeddings.ln", x, s.eps);
  const int64_t layers = blockCount(s.name, s.layers, o);
  for (int i = 0; i < layers; ++i) {
    const std::string p = "layer" + std::to_string(i);
    b.layer = i;
    int a = detail::attention(b, p + ".attn", x, AttentionSpec{s.heads, false, -1, -1});
    x = layerNorm(b, p + ".attn.ln", add(b, p + ".attn.residual", x, a), s.eps);
    int f = detail::feedForward(b, p + ".ffn", x, s.ffn, s.gelu_tanh);
    x = layerNorm(b, p + ".ffn.ln", add(b, p + ".ffn.residual", x, f), s.eps);
  }
  b.layer = -1;
  // BertModel's pooler: dense + tanh on [CLS] (part of the published parameter count).
  int pooled = linear(b, "pooler.dense", firstToken(b, "pooler.cls", x), s.d, true);
  Op tanh = makeOp("pooler.tanh", OpKind::Elementwise, {pooled});
  tanh.elt.fn = "tanh";
  b.emit(std::move(tanh), b.shape(pooled));
  return g;
}

}  // namespace

Graph buildEncoder(const EncoderSpec& s, const WorkloadOptions& o) {
  const bool causal_lm = s.kind == EncoderSpec::Kind::Gpt2;
  if (!causal_lm && o.phase == "decode") {
    optionError("--phase", s.name + " is an encoder: it has no decode phase");
  }
  if (!causal_lm && o.all_logits) {
    optionError("--all-logits", s.name +
                                    " has no language-model head (--all-logits applies to "
                                    "decoder models)");
  }
  if (!o.expert_load.empty()) {
    optionError("--expert-load", s.name +
                                     " has no experts (--expert-load applies to mixture-of-"
                                     "experts configs such as mixtral)");
  }
  if (s.kind == EncoderSpec::Kind::Vit) return buildVit(s, o);
  return causal_lm ? gpt2(s, o) : bert(s, o);
}

}  // namespace tessel::models::hf
