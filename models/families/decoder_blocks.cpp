#include "models/families/decoder_blocks.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tessel::models::hf {
namespace {

using detail::Builder;
using detail::linear;
using detail::makeOp;

// Rotates `heads` heads of `src` starting at column `offset`; the other columns pass through,
// so the output has the input's shape (and column layout).
int rope(Builder& b, const std::string& name, int src, int64_t offset, int64_t heads,
         const DecoderSpec& s, const Step& st) {
  Op op = makeOp(name, OpKind::Rope, {src});
  op.rope = {heads, s.head_dim, s.head_dim, offset, st.past, s.rope_theta, false};
  return b.emit(std::move(op), b.shape(src));
}

// Query heads of one K/V group are stacked as GEMM rows (graph.h): each K/V head is one operand.
int score(Builder& b, const std::string& name, int q, int keys, int64_t k_offset,
          const DecoderSpec& s, const Step& st) {
  const int64_t t = b.shape(keys)[1], group = s.heads / s.kv_heads;
  Op op = makeOp(name, OpKind::BatchMatMul, {q, keys});
  op.attn.heads = s.heads;
  op.attn.kv_heads = s.kv_heads;
  op.attn.head_dim = s.head_dim;
  op.attn.b_col_offset = k_offset;
  op.attn.transpose_b = true;
  op.attn.causal = true;
  op.attn.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.head_dim)));
  op.gemm = {st.batch * s.kv_heads, group * st.tokens, t, s.head_dim};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {st.batch, s.heads, st.tokens, t});
}

int context(Builder& b, const std::string& name, int probs, int values, int64_t v_offset,
            const DecoderSpec& s, const Step& st) {
  const int64_t t = b.shape(probs)[3], group = s.heads / s.kv_heads;
  Op op = makeOp(name, OpKind::BatchMatMul, {probs, values});
  op.attn.heads = s.heads;
  op.attn.kv_heads = s.kv_heads;
  op.attn.head_dim = s.head_dim;
  op.attn.b_col_offset = v_offset;
  op.gemm = {st.batch * s.kv_heads, group * st.tokens, s.head_dim, t};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {st.batch, st.tokens, s.heads * s.head_dim});
}

// Self-attention; returns o_proj's output [B, S, d].
int attention(Builder& b, const DecoderSpec& s, const Step& st, const std::string& p, int x) {
  const int64_t qd = s.heads * s.head_dim, kvd = s.kv_heads * s.head_dim;
  int q, keys, values;
  int64_t k_off = 0, v_off = 0;
  if (s.fused_qkv) {
    // phi3: columns [0, qd) Q, [qd, qd+kvd) K, then V. Q and K heads are adjacent and share
    // head_dim, so one Rope over H + KV heads rotates both and leaves V as it is.
    values = linear(b, p + ".qkv_proj", x, qd + 2 * kvd, s.qkv_bias);
    q = keys = rope(b, p + ".rope", values, 0, s.heads + s.kv_heads, s, st);
    k_off = qd;
    v_off = qd + kvd;
  } else {
    q = linear(b, p + ".q_proj", x, qd, s.qkv_bias);
    keys = linear(b, p + ".k_proj", x, kvd, s.qkv_bias);
    values = linear(b, p + ".v_proj", x, kvd, s.qkv_bias);
    q = rope(b, p + ".q_rope", q, 0, s.heads, s, st);
    keys = rope(b, p + ".k_rope", keys, 0, s.kv_heads, s, st);
  }
  if (st.decode) {
    // The cache already holds the new tokens' (rotated) K and V, as GPT-2's decode does; a
    // sliding window keeps only its last `window` keys (a rolling cache).
    int64_t rows = st.past + st.tokens;
    if (s.window > 0) rows = std::min(rows, s.window);
    keys = b.input(p + ".k_cache", {st.batch, rows, kvd}, b.dtype);
    values = b.input(p + ".v_cache", {st.batch, rows, kvd}, b.dtype);
    k_off = v_off = 0;
  }
  int probs = detail::unary(b, p + ".softmax", OpKind::Softmax,
                            score(b, p + ".score", q, keys, k_off, s, st));
  int ctx = context(b, p + ".context", probs, values, v_off, s, st);
  return linear(b, p + ".o_proj", ctx, s.d, s.o_bias);
}

}  // namespace

int rmsNorm(Builder& b, const std::string& name, int x, float eps) {
  Op op = makeOp(name, OpKind::RmsNorm, {x, b.weight(name + ".weight", {b.shape(x).back()})});
  op.eps = eps;
  return b.emit(std::move(op), b.shape(x));
}

int gatedMlp(Builder& b, const DecoderSpec& s, const std::string& p, int x, int64_t width) {
  // phi3 stores gate and up as one [d, 2I] matrix; elementwise ops take no column views, so its
  // halves are two MatMuls with the same MACs and parameters.
  const std::string up_name = s.fused_gate_up ? p + ".gate_up_proj.up" : p + ".up_proj";
  const std::string gate_name = s.fused_gate_up ? p + ".gate_up_proj.gate" : p + ".gate_proj";
  int up = linear(b, up_name, x, width, s.mlp_bias);
  int gate = linear(b, gate_name, x, width, s.mlp_bias);
  Op act = makeOp(p + ".act", s.gelu ? OpKind::Gelu : OpKind::Silu, {gate});
  act.gelu_tanh = s.gelu_tanh;
  int a = b.emit(std::move(act), b.shape(gate));
  int h = b.emit(makeOp(p + ".mul", OpKind::Mul, {a, up}), b.shape(up));
  return linear(b, p + ".down_proj", h, s.d, s.mlp_bias);
}

int decoderBlock(Builder& b, const DecoderSpec& s, const Step& st, int i, int x,
                 const std::vector<double>& expert_load) {
  const std::string p = "layers." + std::to_string(i);
  b.layer = i;
  const int normed = rmsNorm(b, p + ".input_layernorm", x, s.eps);
  int a = s.mla() ? latentAttention(b, s, st, p + ".attn", normed) : attention(b, s, st, p + ".attn", normed);
  // Row-split o_proj and down_proj leave partial sums on every tensor-parallel rank.
  if (s.tp > 1) communicate(b, "all-reduce", "tp", a, b.g.tensor(a).bytes());
  x = detail::add(b, p + ".attn.residual", x, a);
  int h = rmsNorm(b, p + ".post_attention_layernorm", x, s.eps);
  int m =
      s.moeLayer(i) ? moe(b, s, p + ".moe", h, expert_load) : gatedMlp(b, s, p + ".mlp", h, s.ffn);
  if (s.tp > 1) communicate(b, "all-reduce", "tp", m, b.g.tensor(m).bytes());
  return detail::add(b, p + ".mlp.residual", x, m);
}

}  // namespace tessel::models::hf
