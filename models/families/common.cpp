// What every family shares: bookkeeping fields, rejected fields, option checks, MoE token counts.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/families/family.h"
#include "util/error.h"

namespace tessel::models::hf {

void acceptBookkeeping(const Fields& f) {
  for (const char* k : {"architectures",
                        "model_type",
                        "torch_dtype",
                        "transformers_version",
                        "bos_token_id",
                        "eos_token_id",
                        "pad_token_id",
                        "sep_token_id",
                        "decoder_start_token_id",
                        "initializer_range",
                        "initializer_factor",
                        "use_cache",
                        "attention_dropout",
                        "hidden_dropout",
                        "_name_or_path",
                        "auto_map",
                        "pretraining_tp",
                        "output_router_logits",
                        "router_aux_loss_coef",
                        "router_jitter_noise",
                        "embd_pdrop",
                        "resid_pdrop",
                        "attn_pdrop",
                        "hidden_dropout_prob",
                        "attention_probs_dropout_prob",
                        "classifier_dropout",
                        "gradient_checkpointing",
                        "task_specific_params",
                        "n_ctx",
                        "label2id",
                        "original_max_position_embeddings",
                        "problem_type",
                        "finetuning_task",
                        "return_dict",
                        "output_attentions",
                        "output_hidden_states",
                        "tokenizer_class",
                        "tf_legacy_loss",
                        "use_bfloat16",
                        "chunk_size_feed_forward",
                        "encoder_stride",
                        "summary_type",
                        "summary_use_proj",
                        "summary_activation",
                        "summary_proj_to_labels",
                        "summary_first_dropout"}) {
    f.accept(k);
  }
}

void rejectIfSet(const Fields& f, const std::string& key, const std::string& why) {
  f.accept(key);
  if (!f.has(key)) return;
  // A flag set to false asks for nothing; anything else (true, a number, an object) does.
  bool off = false;
  try {
    off = !f.flag(key, false);
  } catch (const ConfigError&) {
    off = false;
  }
  if (!off) f.fail(key, "'" + key + "' is not modeled (" + why + ")");
}

void optionError(const std::string& option, const std::string& message) {
  SourceLocation where;
  where.yaml_path = option;
  throw ConfigError(where, message);
}

int64_t blockCount(const std::string& model, int64_t blocks, const WorkloadOptions& o) {
  if (o.layers > blocks) {
    optionError("--layers", "layers " + std::to_string(o.layers) + " exceeds " + model + "'s " +
                                std::to_string(blocks) + " blocks");
  }
  return o.layers == 0 ? blocks : o.layers;
}

std::string graphName(const std::string& model, const WorkloadOptions& o, bool phase) {
  return model + (phase ? " " + o.phase : std::string()) + " seq=" + std::to_string(o.seq) +
         " batch=" + std::to_string(o.batch) +
         (o.layers == 0 ? "" : " layers=" + std::to_string(o.layers));
}

std::vector<int64_t> expertTokens(int64_t tokens, int64_t experts, int64_t top_k,
                                  const std::vector<double>& load) {
  const auto e = static_cast<size_t>(experts);
  std::vector<double> w = load.empty() ? std::vector<double>(e, 1.0) : load;
  if (w.size() != e) {
    optionError("--expert-load", "expert load has " + std::to_string(w.size()) +
                                     " entries; the model has " + std::to_string(experts) +
                                     " experts");
  }
  for (double x : w) {
    if (!std::isfinite(x) || x < 0) optionError("--expert-load", "expert loads must be >= 0");
  }
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  if (sum <= 0) optionError("--expert-load", "expert loads must not all be 0");
  const int64_t routed = tokens * top_k;
  std::vector<int64_t> count(e);
  std::vector<double> frac(e);
  int64_t given = 0;
  for (size_t i = 0; i < e; ++i) {
    const double share = w[i] / sum;
    // A token picks top_k distinct experts, so no expert sees more than a 1/top_k share.
    if (share * static_cast<double>(top_k) > 1.0 + 1e-9) {
      optionError("--expert-load", "expert " + std::to_string(i) + "'s share " +
                                       std::to_string(share) + " exceeds 1/top_k = 1/" +
                                       std::to_string(top_k) +
                                       ": a token visits an expert at most once");
    }
    const double exact = share * static_cast<double>(routed);
    count[i] = std::min(tokens, static_cast<int64_t>(std::floor(exact)));
    frac[i] = exact - static_cast<double>(count[i]);
    given += count[i];
  }
  // Largest remainder: the leftover tokens go to the largest fractions (ties: lower index).
  std::vector<size_t> order(e);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return frac[a] > frac[b]; });
  for (size_t j = 0; given < routed; j = (j + 1) % e) {
    if (count[order[j]] < tokens) {
      ++count[order[j]];
      ++given;
    }
  }
  return count;
}

}  // namespace tessel::models::hf
