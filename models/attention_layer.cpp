// The single-layer attention workload "attention:S=..,T=..,H=..,D=..[,KV=..][,causal=0|1][,B=..]":
// Q [B, S, H*D], K and V [B, T, KV*D] as graph inputs, then score (QKᵀ per head, scaled,
// causally masked when asked), softmax and context (·V), as the decoder families build them
// (query heads of one K/V head stacked as rows). What `--fusion` does to attention, alone.
#include <cmath>
#include <string>
#include <utility>

#include "models/builder.h"
#include "models/builders.h"
#include "models/params.h"

namespace tessel::models::detail {
namespace {

const char kAttentionUsage[] = "attention:S=..,T=..,H=..,D=..[,KV=..][,causal=0|1][,B=..]";

}  // namespace

Graph buildAttentionLayer(const std::string& params, const WorkloadOptions& o) {
  const std::string text = "attention:" + params;
  Params p = parseParams(text, params, kAttentionUsage,
                         {{"S", true, 1, 0},
                          {"T", true, 1, 0},
                          {"H", true, 1, 0},
                          {"D", true, 1, 0},
                          {"KV", false, 1, 0},
                          {"causal", false, 0, 0},
                          {"B", false, 1, o.batch}});
  const int64_t s = p.at("S"), t = p.at("T"), heads = p.at("H"), d = p.at("D"), batch = p.at("B");
  const int64_t kv = p.at("KV") > 0 ? p.at("KV") : heads;
  if (heads % kv != 0) {
    configError("workload", "'" + text + "': KV=" + std::to_string(kv) + " must divide H=" +
                                std::to_string(heads) + " (query heads share K/V heads evenly)");
  }
  if (p.at("causal") > 1) configError("workload", "'" + text + "': causal is 0 or 1");
  checkedProduct(text, {batch, heads, s, t, d});
  const int64_t group = heads / kv;
  Graph g;
  g.name = "attention:S=" + std::to_string(s) + ",T=" + std::to_string(t) + ",H=" +
           std::to_string(heads) + ",KV=" + std::to_string(kv) + ",D=" + std::to_string(d) +
           ",causal=" + std::to_string(p.at("causal")) + ",B=" + std::to_string(batch);
  Builder b{g, o.dtype};
  const int q = b.input("q", {batch, s, heads * d}, o.dtype);
  const int k = b.input("k", {batch, t, kv * d}, o.dtype);
  const int v = b.input("v", {batch, t, kv * d}, o.dtype);
  Op score = makeOp("score", OpKind::BatchMatMul, {q, k});
  score.attn.heads = heads;
  score.attn.kv_heads = kv;
  score.attn.head_dim = d;
  score.attn.transpose_b = true;
  score.attn.causal = p.at("causal") == 1;
  score.attn.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
  score.gemm = {batch * kv, group * s, t, d};
  score.macs = score.gemm.macs();
  const int scores = b.emit(std::move(score), {batch, heads, s, t});
  const int probs = unary(b, "softmax", OpKind::Softmax, scores);
  Op context = makeOp("context", OpKind::BatchMatMul, {probs, v});
  context.attn.heads = heads;
  context.attn.kv_heads = kv;
  context.attn.head_dim = d;
  context.gemm = {batch * kv, group * s, d, t};
  context.macs = context.gemm.macs();
  b.emit(std::move(context), {batch, s, heads * d});
  return g;
}

}  // namespace tessel::models::detail
