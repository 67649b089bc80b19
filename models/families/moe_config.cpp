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

}  // namespace

void readExperts(const Fields& f, const std::string& type, DecoderSpec& s) {
  if (type == "qwen2_moe") {
    readQwen2Moe(f, s);
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
