// config.json -> the mixture-of-experts part of a DecoderSpec: mixtral's experts, and qwen2_moe's
// experts, sigmoid-gated shared expert and choice of MoE layers.
#include <algorithm>

#include "models/families/family.h"

namespace tessel::models::hf {
namespace {

std::string num(int64_t v) { return std::to_string(v); }

// Experts and their top-k; `experts_key` is the family's name for the expert count.
void readRouting(const Fields& f, const std::string& experts_key, DecoderSpec& s) {
  s.experts = f.count(experts_key, kOpsPerExpert * s.layers * bytesPerOp(),
                      "experts across " + num(s.layers) + " layers");
  s.top_k = f.positive("num_experts_per_tok");
  if (s.top_k > s.experts) {
    f.fail("num_experts_per_tok", "num_experts_per_tok " + num(s.top_k) + " exceeds " +
                                      experts_key + " " + num(s.experts));
  }
}

// Which layers are dense: HF's Qwen2MoeDecoderLayer uses the MoE block when the layer is not in
// mlp_only_layers and (i + 1) % decoder_sparse_step == 0.
void readSparseLayers(const Fields& f, DecoderSpec& s) {
  s.sparse_step = f.positiveOr("decoder_sparse_step", 1);
  s.dense_layers = f.indices("mlp_only_layers");
  for (int64_t i : s.dense_layers) {
    if (i >= s.layers) {
      f.fail("mlp_only_layers", "mlp_only_layers names layer " + num(i) + "; the model has " +
                                    num(s.layers) + " (num_hidden_layers)");
    }
  }
}

// qwen2_moe: routed experts of moe_intermediate_size plus one shared expert on every token.
void readQwen2Moe(const Fields& f, DecoderSpec& s) {
  readRouting(f, "num_experts", s);
  s.expert_ffn = f.positive("moe_intermediate_size");
  s.shared_ffn = f.positive("shared_expert_intermediate_size");
  readSparseLayers(f, s);
  // Renormalizing the kept top-k probabilities changes gate values, never shapes, MACs or bytes;
  // MoeRoute carries no flag for it, and the functional executor does not route tokens.
  const bool renormalize = f.flag("norm_topk_prob", false);
  s.notes.push_back(std::string("qwen2_moe: the top-k gates are ") + (renormalize ? "" : "not ") +
                    "renormalized (norm_topk_prob), which MoeRoute does not record: gate values "
                    "only, no effect on shapes, MACs or bytes");
}

// deepseek_v2/v3: n_routed_experts of moe_intermediate_size, n_shared_experts of the same width
// on every token (one MLP of their summed width, ungated), the first first_k_dense_replace
// layers dense (intermediate_size).
void readDeepseekMoe(const Fields& f, DecoderSpec& s) {
  readRouting(f, "n_routed_experts", s);
  s.expert_ffn = f.positive("moe_intermediate_size");
  s.shared_ffn = f.positiveOr("n_shared_experts", 0) * s.expert_ffn;
  s.shared_gated = false;
  const int64_t dense = std::min(s.layers, f.positiveOr("first_k_dense_replace", 0));
  for (int64_t i = 0; i < dense; ++i) s.dense_layers.push_back(i);
  if (f.positiveOr("moe_layer_freq", 1) != 1) f.fail("moe_layer_freq", "a moe_layer_freq other than 1 is not modeled");
  for (const char* k : {"topk_method", "n_group", "topk_group", "norm_topk_prob", "scoring_func",
                        "routed_scaling_factor", "aux_loss_alpha", "seq_aux", "ep_size"}) {
    f.accept(k);
  }
  s.notes.push_back(s.name + ": routing by " + f.text("scoring_func", "softmax") + " scores, " +
                    f.text("topk_method", "greedy") + " top-" + num(s.top_k) +
                    " (groups, scaling, renormalization): gate values only, no effect on shapes, "
                    "MACs or bytes; experts get their expected share of tokens");
}

}  // namespace

void readExperts(const Fields& f, const std::string& type, DecoderSpec& s) {
  if (type == "qwen2_moe") {
    readQwen2Moe(f, s);
    return;
  }
  if (type == "deepseek_v2" || type == "deepseek_v3") {
    readDeepseekMoe(f, s);
    return;
  }
  for (const char* k :
       {"num_experts", "moe_intermediate_size", "shared_expert_intermediate_size"}) {
    rejectIfSet(f, k, "changes the layers' math");
  }
  if (type == "mixtral") {
    readRouting(f, "num_local_experts", s);
    s.expert_ffn = s.ffn;
  }
}

bool DecoderSpec::moeLayer(int64_t i) const {
  if (experts == 0 || (i + 1) % sparse_step != 0) return false;
  return std::find(dense_layers.begin(), dense_layers.end(), i) == dense_layers.end();
}

}  // namespace tessel::models::hf
