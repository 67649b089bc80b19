// config.json -> DecoderSpec for the RMSNorm/RoPE/GQA decoder families.
#include <algorithm>
#include <cmath>

#include "models/families/family.h"

namespace tessel::models::hf {
namespace {

std::string num(int64_t v) { return std::to_string(v); }

// Attention geometry: heads, K/V heads, head_dim, with the divisibility the math needs.
void readAttention(const Fields& f, DecoderSpec& s) {
  s.heads = f.positive("num_attention_heads");
  s.kv_heads = f.positiveOr("num_key_value_heads", s.heads);
  if (f.has("head_dim")) {
    s.head_dim = f.positive("head_dim");
  } else {
    f.accept("head_dim");
    if (s.d % s.heads != 0) {
      f.fail("num_attention_heads",
             "num_attention_heads " + num(s.heads) + " does not divide hidden_size " + num(s.d));
    }
    s.head_dim = s.d / s.heads;
  }
  if (s.heads % s.kv_heads != 0) {
    f.fail("num_key_value_heads", "num_key_value_heads " + num(s.kv_heads) +
                                      " does not divide num_attention_heads " + num(s.heads));
  }
}

// The activation of the gated MLP: silu -> SwiGLU; gelu variants -> GeGLU.
void readActivation(const Fields& f, const std::string& type, DecoderSpec& s) {
  std::string key = "hidden_act";
  // gemma: hidden_activation overrides hidden_act; when it is null HF uses the tanh GELU.
  if (type == "gemma") {
    f.accept("hidden_act");
    if (f.has("hidden_activation")) {
      key = "hidden_activation";
    } else {
      f.accept("hidden_activation");
      s.gelu = true;
      s.gelu_tanh = true;
      s.notes.push_back("gemma: hidden_activation unset, so GeGLU uses the tanh GELU (as HF does)");
      return;
    }
  }
  const std::string act = f.text(key, "silu");
  if (act == "silu" || act == "swish") return;
  if (act == "gelu" || act == "gelu_pytorch_tanh" || act == "gelu_new") {
    s.gelu = true;
    s.gelu_tanh = act != "gelu";
    return;
  }
  f.fail(key,
         "'" + key + "' '" + act + "' is not modeled (silu, gelu, gelu_pytorch_tanh, gelu_new)");
}

// RoPE: rope_theta. Every rope_scaling type HF defines rescales the rotation frequencies (and
// yarn scales the logits by a constant): none changes a shape, a MAC or a byte, so each is
// accepted with a note; an unknown type is an error.
void readRope(const Fields& f, DecoderSpec& s) {
  s.rope_theta = f.number("rope_theta", 10000.0);
  if (s.rope_theta <= 0) f.fail("rope_theta", "'rope_theta' must be positive");
  if (auto r = f.object("rope_scaling")) {
    static const std::vector<std::string> known = {"llama3", "linear", "dynamic", "yarn",
                                                   "longrope", "su", "default"};
    std::string type = r->has("rope_type") ? r->requiredText("rope_type") : r->text("type", "");
    if (std::find(known.begin(), known.end(), type) == known.end()) {
      r->fail(r->has("rope_type") ? "rope_type" : "type",
              "rope_scaling type '" + type +
                  "' is not known (llama3, linear, dynamic, yarn, longrope, su, default)");
    }
    for (const char* k : {"type", "factor", "low_freq_factor", "high_freq_factor",
                          "original_max_position_embeddings", "long_factor", "short_factor",
                          "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor",
                          "finetuned"}) {
      r->accept(k);
    }
    s.notes.push_back("rope_scaling " + type +
                      " rescales RoPE frequencies only: no effect on shapes, MACs or bytes; the "
                      "functional executor rotates with the unscaled rope_theta");
  }
}

// deepseek_v2/v3: multi-head latent attention's ranks and head widths.
void readLatentAttention(const Fields& f, DecoderSpec& s) {
  s.q_lora = f.positiveOr("q_lora_rank", 0);  // null (deepseek-v2-lite): a plain q_proj
  s.kv_lora = f.positive("kv_lora_rank");
  s.qk_nope = f.positive("qk_nope_head_dim");
  s.qk_rope = f.positive("qk_rope_head_dim");
  s.v_head = f.positive("v_head_dim");
  s.head_dim = s.qk_nope + s.qk_rope;
  s.kv_heads = s.heads;  // every head has its own keys and values, from the shared latent
  rejectIfSet(f, "attention_bias", "deepseek with projection biases");
  if (f.positiveOr("num_nextn_predict_layers", 0) > 0)
    s.notes.push_back(s.name + ": the multi-token prediction module (num_nextn_predict_layers) is not built; "
                               "inference runs without it");
}

// The family's own fields: biases, fusion, windows.
void readFamily(const Fields& f, const std::string& type, DecoderSpec& s) {
  if (type == "deepseek_v2" || type == "deepseek_v3") {
    readLatentAttention(f, s);
    return;
  }
  const bool bias = (type == "llama" || type == "gemma") && f.flag("attention_bias", false);
  const bool qwen2 = type == "qwen2" || type == "qwen2_moe";
  s.qkv_bias = bias || qwen2;  // Qwen2 always has q/k/v biases, no o_proj bias
  s.o_bias = bias;
  s.mlp_bias = type == "llama" && f.flag("mlp_bias", false);
  if (type == "phi3") {
    rejectIfSet(f, "attention_bias", "phi3 with projection biases");
    if (f.number("partial_rotary_factor", 1.0) != 1.0) {
      f.fail("partial_rotary_factor", "partial rotary embeddings are not modeled");
    }
    s.fused_qkv = s.fused_gate_up = true;
  }
  if (type == "gemma") s.embed_scale = true;
  if (qwen2) {
    f.accept("max_window_layers");
    f.accept("sliding_window");  // used only with use_sliding_window
    rejectIfSet(f, "use_sliding_window", "qwen2's per-layer sliding windows");
  } else if (type == "mistral" || type == "mixtral" || type == "phi3") {
    s.window = f.positiveOr("sliding_window", 0);
  }
}

}  // namespace

DecoderSpec parseDecoder(const Fields& f, const std::string& type, const std::string& name) {
  DecoderSpec s;
  s.name = name;
  s.vocab = f.positive("vocab_size");
  s.d = f.positive("hidden_size");
  s.layers = f.count("num_hidden_layers", bytesPerBlock(), "layers");
  s.ffn = f.positive("intermediate_size");
  s.max_positions = f.positive("max_position_embeddings");
  readAttention(f, s);
  readActivation(f, type, s);
  readRope(f, s);
  readFamily(f, type, s);
  readExperts(f, type, s);
  s.eps = static_cast<float>(f.number("rms_norm_eps", 1e-6));
  if (!(s.eps > 0)) f.fail("rms_norm_eps", "'rms_norm_eps' must be positive");
  s.tied = f.flag("tie_word_embeddings", type == "gemma");
  for (const char* k : {"qk_layernorm", "use_qk_norm", "qk_norm", "attn_logit_softcapping",
                        "final_logit_softcapping", "query_pre_attn_scalar", "layer_types",
                        "attention_chunk_size", "no_rope_layers"}) {
    rejectIfSet(f, k, "changes the layers' math");
  }
  return s;
}

}  // namespace tessel::models::hf
