// Multi-head latent attention (DeepSeek-V2, DeepSeek-V3). Queries go through a q_lora-wide
// bottleneck (q_a_proj, its RMSNorm, q_b_proj; a plain q_proj without one); keys and values come
// from a kv_lora-wide latent (kv_a_proj_with_mqa, which also gives one qk_rope-wide rotary key
// shared by every head, and the latent's RMSNorm).
//
// Prefill expands the latent per head as HF's DeepSeek attention does: kv_b_proj gives each head
// qk_nope key columns and v_head value columns, the shared rotary key joins each head's keys, and
// attention runs with head_dim qk_nope + qk_rope and values of v_head.
//
// Decode runs the absorbed form serving engines use: the cache holds the latent and the rotary
// key (kv_lora + qk_rope values per token, no heads); each head's query is carried into the latent
// space by its slice of kv_b_proj's key part (q_absorb), attends over the cache as one shared
// head of kv_lora + qk_rope, reads the latent back as values, and its slice of kv_b_proj's value
// part (v_absorb) brings it to v_head. The two slices are kv_b_proj's parameters, split.
#include <cmath>
#include <utility>

#include "models/families/decoder_blocks.h"

namespace tessel::models::hf {
namespace {

using detail::Builder;
using detail::linear;
using detail::makeOp;

// Columns [start, end) of x's last axis.
int columns(Builder& b, const std::string& name, int x, int64_t start, int64_t end) {
  std::vector<int64_t> shape = b.shape(x);
  Op op = makeOp(name, OpKind::Slice, {x});
  op.layout.axis = static_cast<int>(shape.size()) - 1;
  op.layout.start = start;
  op.layout.end = end;
  op.layout.on_accelerator = true;
  shape.back() = end - start;
  return b.emit(std::move(op), std::move(shape));
}

int rotate(Builder& b, const std::string& name, int x, int64_t heads, int64_t head_dim,
           const DecoderSpec& s, const Step& st) {
  Op op = makeOp(name, OpKind::Rope, {x});
  // Each head's last qk_rope columns rotate; costed as the rotated elements.
  op.rope = {heads, head_dim, s.qk_rope, head_dim - s.qk_rope, st.past, s.rope_theta, false};
  return b.emit(std::move(op), b.shape(x));
}

// Per-head weights: `heads` GEMMs of [rows, k] x [k, n] (a grouped MatMul) on k of each head's
// columns of x [B, S, ...].
int perHead(Builder& b, const std::string& name, int x, int64_t rows, int64_t heads, int64_t k, int64_t n) {
  std::vector<int64_t> shape = b.shape(x);
  Op op = makeOp(name, OpKind::MatMul, {x, b.weight(name + ".weight", {heads, k, n})});
  op.gemm = {heads, rows, n, k};
  op.macs = op.gemm.macs();
  shape.back() = heads * n;
  return b.emit(std::move(op), std::move(shape));
}

int attend(Builder& b, const std::string& p, int q, int keys, int values, int64_t kv_heads,
           int64_t qk_dim, int64_t v_dim, int64_t v_offset, const DecoderSpec& s, const Step& st) {
  const int64_t t = b.shape(keys)[1], group = s.heads / kv_heads;
  Op score = makeOp(p + ".score", OpKind::BatchMatMul, {q, keys});
  score.attn.heads = s.heads;
  score.attn.kv_heads = kv_heads;
  score.attn.head_dim = qk_dim;
  score.attn.transpose_b = true;
  score.attn.causal = true;
  // HF scales by 1/sqrt(qk_nope + qk_rope) in both forms (yarn's mscale aside).
  score.attn.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.qk_nope + s.qk_rope)));
  score.gemm = {st.batch * kv_heads, group * st.tokens, t, qk_dim};
  score.macs = score.gemm.macs();
  const int scores = b.emit(std::move(score), {st.batch, s.heads, st.tokens, t});
  const int probs = detail::unary(b, p + ".softmax", OpKind::Softmax, scores);
  Op ctx = makeOp(p + ".context", OpKind::BatchMatMul, {probs, values});
  ctx.attn.heads = s.heads;
  ctx.attn.kv_heads = kv_heads;
  ctx.attn.head_dim = v_dim;
  ctx.attn.b_col_offset = v_offset;
  ctx.gemm = {st.batch * kv_heads, group * st.tokens, v_dim, t};
  ctx.macs = ctx.gemm.macs();
  return b.emit(std::move(ctx), {st.batch, st.tokens, s.heads * v_dim});
}

// Two inputs side by side per head (`a_cols` then `b_cols` of each head's row; `b` shared by every
// head when b_heads is 1): the copy an implementation makes to give each head one operand.
int perHeadConcat(Builder& b, const std::string& name, int x, int64_t a_cols, int y, int64_t b_cols,
                  int64_t heads) {
  Op op = makeOp(name, OpKind::Elementwise, {x, y});
  op.elt.fn = "mla_concat";
  std::vector<int64_t> shape = b.shape(x);
  shape.back() = heads * (a_cols + b_cols);
  return b.emit(std::move(op), std::move(shape));
}

}  // namespace

int latentAttention(Builder& b, const DecoderSpec& s, const Step& st, const std::string& p, int x) {
  const int64_t qk = s.qk_nope + s.qk_rope;
  int q = s.q_lora > 0
              ? linear(b, p + ".q_b_proj",
                       rmsNorm(b, p + ".q_a_layernorm", linear(b, p + ".q_a_proj", x, s.q_lora, false), s.eps),
                       s.heads * qk, false)
              : linear(b, p + ".q_proj", x, s.heads * qk, false);
  q = rotate(b, p + ".q_rope", q, s.heads, qk, s, st);
  const int kv = linear(b, p + ".kv_a_proj_with_mqa", x, s.kv_lora + s.qk_rope, false);
  const int latent = rmsNorm(b, p + ".kv_a_layernorm", columns(b, p + ".kv_latent", kv, 0, s.kv_lora), s.eps);
  const int k_rope = rotate(b, p + ".k_rope", columns(b, p + ".k_pe", kv, s.kv_lora, s.kv_lora + s.qk_rope),
                            1, s.qk_rope, s, st);
  int ctx;
  if (!st.decode) {
    const int kvb = linear(b, p + ".kv_b_proj", latent, s.heads * (s.qk_nope + s.v_head), false);
    const int keys = perHeadConcat(b, p + ".keys", kvb, s.qk_nope, k_rope, s.qk_rope, s.heads);
    ctx = attend(b, p, q, keys, kvb, s.heads, qk, s.v_head, s.qk_nope, s, st);
  } else {
    // The new tokens' latent and rotary key went into the cache (as the other decoders' K/V do).
    const int64_t width = s.kv_lora + s.qk_rope;
    const int cache = b.input(p + ".kv_cache", {st.batch, st.past + st.tokens, width}, b.dtype);
    const int64_t rows = st.batch * st.tokens;
    const int q_nope = perHead(b, p + ".kv_b_proj.q_absorb", q, rows, s.heads, s.qk_nope, s.kv_lora);
    const int query = perHeadConcat(b, p + ".query", q_nope, s.kv_lora, q, s.qk_rope, s.heads);
    const int lat = attend(b, p, query, cache, cache, 1, width, s.kv_lora, 0, s, st);
    ctx = perHead(b, p + ".kv_b_proj.v_absorb", lat, rows, s.heads, s.kv_lora, s.v_head);
    (void)latent;
    (void)k_rope;
  }
  return linear(b, p + ".o_proj", ctx, s.d, false);
}

}  // namespace tessel::models::hf
