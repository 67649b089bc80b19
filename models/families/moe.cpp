// Mixture of experts (mixtral, qwen2_moe): router, MoeRoute, one dispatch Gather + gated MLP per
// expert with its expected share of the routed tokens, a moe_combine of the gated outputs, and
// (qwen2_moe) a shared expert on every token scaled by sigmoid(shared_expert_gate(x)).
#include <utility>

#include "models/families/decoder_blocks.h"

namespace tessel::models::hf {

using detail::Builder;
using detail::makeOp;

namespace {

// An expert no token reaches runs nothing, but its matrices are still the model's parameters.
void idleExpertWeights(Builder& b, const DecoderSpec& s, const std::string& p) {
  for (const char* proj : {".up_proj", ".gate_proj"}) {
    b.weight(p + proj + ".weight", {s.d, s.expert_ffn});
    if (s.mlp_bias) b.weight(p + proj + ".bias", {s.expert_ffn});
  }
  b.weight(p + ".down_proj.weight", {s.expert_ffn, s.d});
  if (s.mlp_bias) b.weight(p + ".down_proj.bias", {s.d});
}

// The shared expert, a gated MLP of shared_ffn on all of x [B, S, d], times sigmoid of a
// [d, 1] gate (no bias) broadcast over its columns.
int sharedExpert(Builder& b, const DecoderSpec& s, const std::string& p, int x) {
  int out = gatedMlp(b, s, p + ".shared_expert", x, s.shared_ffn);
  int gate = detail::linear(b, p + ".shared_expert_gate", x, 1, false);
  gate = detail::unary(b, p + ".shared_expert_gate.sigmoid", OpKind::Sigmoid, gate);
  return b.emit(makeOp(p + ".shared_expert.gated", OpKind::Mul, {out, gate}), b.shape(out));
}

// The routed experts: router, MoeRoute, dispatch + MLP per expert, moe_combine.
int routed(Builder& b, const DecoderSpec& s, const std::string& p, int x,
           const std::vector<double>& expert_load) {
  const int64_t tokens = b.g.tensor(x).elements() / s.d;  // T = B * S rows of [T, d]
  int logits = detail::linear(b, p + ".router", x, s.experts, false);
  Op route = makeOp(p + ".route", OpKind::MoeRoute, {logits});
  route.moe = {s.experts, s.top_k, -1};
  int gates = b.emit(std::move(route), b.shape(logits));
  // Expert parallel with data-parallel attention: every rank's tokens reach these experts; they
  // go there and come back by all-to-all (each rank sends its tokens' top_k copies).
  const std::vector<int64_t> counts =
      expertTokens(tokens * s.routed_from, s.experts, s.top_k, expert_load);
  const int64_t copies = b.g.tensor(x).bytes() * s.top_k;
  if (s.routed_from > 1) communicate(b, "all-to-all", "ep", gates, copies);
  Op combine = makeOp(p + ".combine", OpKind::Elementwise, {gates});
  combine.elt.fn = "moe_combine";
  combine.moe = {s.experts, s.top_k, -1};
  for (int e = 0; e < static_cast<int>(s.experts_held); ++e) {
    const std::string name = p + ".experts." + std::to_string(e);
    const int64_t rows = counts[static_cast<size_t>(e)];
    if (rows == 0) {
      idleExpertWeights(b, s, name);
      continue;
    }
    // The expert's tokens as [T_e, d]; input 0 is read as its [T, d] rows, the gates say which.
    Op dispatch = makeOp(name + ".dispatch", OpKind::Gather, {x, gates});
    dispatch.layout.axis = 0;
    dispatch.layout.on_accelerator = true;
    dispatch.moe = {s.experts, s.top_k, e};
    int mine = b.emit(std::move(dispatch), {rows, s.d});
    combine.inputs.push_back(gatedMlp(b, s, name, mine, s.expert_ffn));
  }
  // Data-parallel attention: the experts' outputs for this rank's tokens, gathered from the
  // ranks that computed them, are what the combine weighs.
  const int out = b.emit(std::move(combine), b.shape(x));
  if (s.routed_from > 1) b.g.communication.push_back({"all-to-all", "ep", copies, b.g.producerOf(out)});
  return out;
}

}  // namespace

int moe(Builder& b, const DecoderSpec& s, const std::string& p, int x,
        const std::vector<double>& expert_load) {
  const int out = routed(b, s, p, x, expert_load);
  if (s.shared_ffn == 0) return out;
  const int shared = s.shared_gated ? sharedExpert(b, s, p, x) : gatedMlp(b, s, p + ".shared_experts", x, s.shared_ffn);
  return detail::add(b, p + ".shared_add", out, shared);
}

}  // namespace tessel::models::hf
