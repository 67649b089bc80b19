// One chip's share of a decoder under tensor and expert parallelism (Megatron-LM's splits):
// attention heads and the MLP's intermediate columns divided among the tensor-parallel ranks,
// K/V heads divided or (fewer than ranks) replicated, the vocabulary padded to a multiple of the
// ranks and divided; experts divided among the expert-parallel ranks.
#include <string>

#include "models/families/family.h"

namespace tessel::models::hf {

namespace {

std::string n(int64_t v) { return std::to_string(v); }

void divides(const std::string& option, int64_t ranks, int64_t what, const std::string& name) {
  if (what % ranks != 0)
    optionError(option, option.substr(2) + " " + n(ranks) + " does not divide " + name + " (" + n(what) + ")");
}

}  // namespace

void communicate(detail::Builder& b, const char* op, const char* group, int tensor, int64_t bytes) {
  b.g.communication.push_back({op, group, bytes, b.g.producerOf(tensor)});
}

DecoderSpec shard(const DecoderSpec& s, const WorkloadOptions& o) {
  const int64_t tp = o.tensor_parallel, ep = o.expert_parallel;
  if (tp < 1) optionError("--tp", "tp must be at least 1");
  if (ep < 1) optionError("--ep", "ep must be at least 1");
  DecoderSpec c = s;
  c.experts_held = s.experts;
  c.tp = tp;
  c.ep = ep;
  if (tp == 1 && ep == 1) return c;
  divides("--tp", tp, s.heads, s.name + "'s attention heads");
  c.heads = s.heads / tp;
  if (s.mla()) {
    c.kv_heads = c.heads;  // each rank's heads from the latent every rank holds
  } else if (s.kv_heads >= tp) {
    divides("--tp", tp, s.kv_heads, s.name + "'s key/value heads");
    c.kv_heads = s.kv_heads / tp;
  } else {
    // Fewer K/V heads than ranks: each rank keeps the one its query heads read (replicated).
    if (tp % s.kv_heads != 0)
      optionError("--tp", "tp " + n(tp) + " is neither a divisor nor a multiple of " + s.name + "'s " +
                              n(s.kv_heads) + " key/value heads");
    c.kv_heads = 1;
  }
  divides("--tp", tp, s.ffn, s.name + "'s intermediate_size");
  c.ffn = s.ffn / tp;
  c.vocab = (s.vocab + tp - 1) / tp;  // padded to a multiple of tp, as Megatron pads it
  if (s.shared_ffn > 0) {
    divides("--tp", tp, s.shared_ffn, s.name + "'s shared expert");
    c.shared_ffn = s.shared_ffn / tp;
  }
  if (ep > 1 && s.experts == 0)
    optionError("--ep", s.name + " has no experts (--ep applies to mixture-of-experts models)");
  if (s.experts == 0) return c;
  divides("--ep", ep, s.experts, s.name + "'s experts");
  c.experts_held = s.experts / ep;
  if (tp > 1 && tp % ep != 0)
    optionError("--ep", "ep " + n(ep) + " must divide tp " + n(tp) +
                            " (experts spread over the tensor-parallel group), or tp must be 1 "
                            "(attention data-parallel, experts over its ranks)");
  const int64_t within = tp > 1 ? tp / ep : 1;  // ranks sharing one expert's columns
  divides("--tp", within, s.expert_ffn, s.name + "'s expert intermediate size (tp/ep ranks share an expert)");
  c.expert_ffn = s.expert_ffn / within;
  if (tp == 1 && ep > 1) {
    divides("--ep", ep, o.batch, "the batch (attention is data-parallel over the expert-parallel ranks); --batch");
    c.routed_from = ep;
  }
  return c;
}

}  // namespace tessel::models::hf
