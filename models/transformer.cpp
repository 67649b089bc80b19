#include "models/transformer.h"

#include <cmath>
#include <utility>

namespace tessel::models::detail {
namespace {

// Q K^T per head: [B, S, *] x [B, T, *] -> [B, heads, S, T].
int score(Builder& b, const std::string& name, int qkv, int keys, int64_t k_offset,
          int64_t head_dim, const AttentionSpec& spec) {
  const int64_t batch = b.shape(qkv)[0], s = b.shape(qkv)[1], t = b.shape(keys)[1];
  Op op = makeOp(name, OpKind::BatchMatMul, {qkv, keys});
  op.attn = {spec.heads,
             head_dim,
             0,
             k_offset,
             true,
             spec.causal,
             static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)))};
  op.gemm = {batch * spec.heads, s, t, head_dim};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {batch, spec.heads, s, t});
}

// probs V per head, heads merged back: [B, heads, S, T] x [B, T, *] -> [B, S, heads*head_dim].
int context(Builder& b, const std::string& name, int probs, int values, int64_t v_offset,
            int64_t head_dim) {
  const std::vector<int64_t> p = b.shape(probs);  // [B, heads, S, T]
  Op op = makeOp(name, OpKind::BatchMatMul, {probs, values});
  op.attn = {p[1], head_dim, 0, v_offset, false, false, 1.0f};
  op.gemm = {p[0] * p[1], p[2], head_dim, p[3]};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {p[0], p[2], p[1] * head_dim});
}

}  // namespace

int attention(Builder& b, const std::string& prefix, int x, const AttentionSpec& spec) {
  const int64_t d = b.shape(x).back();
  const int64_t head_dim = d / spec.heads;
  // One fused projection: columns [0, d) are Q, [d, 2d) K, [2d, 3d) V.
  int qkv = linear(b, prefix + ".qkv", x, 3 * d, true);
  const bool cached = spec.k_cache >= 0;
  int keys = cached ? spec.k_cache : qkv;
  int values = cached ? spec.v_cache : qkv;
  int s = score(b, prefix + ".score", qkv, keys, cached ? 0 : d, head_dim, spec);
  int probs = unary(b, prefix + ".softmax", OpKind::Softmax, s);
  int ctx = context(b, prefix + ".context", probs, values, cached ? 0 : 2 * d, head_dim);
  return linear(b, prefix + ".proj", ctx, d, true);
}

int feedForward(Builder& b, const std::string& prefix, int x, int64_t hidden, bool gelu_tanh) {
  const int64_t d = b.shape(x).back();
  int h = linear(b, prefix + ".fc", x, hidden, true);
  Op gelu = makeOp(prefix + ".gelu", OpKind::Gelu, {h});
  gelu.gelu_tanh = gelu_tanh;
  h = b.emit(std::move(gelu), b.shape(h));
  return linear(b, prefix + ".proj", h, d, true);
}

}  // namespace tessel::models::detail
