// config.json -> EncoderSpec for gpt2, bert and vit.
#include "models/families/family.h"

namespace tessel::models::hf {
namespace {

std::string num(int64_t v) { return std::to_string(v); }

void checkHeads(const Fields& f, const char* heads_key, const EncoderSpec& s) {
  if (s.d % s.heads != 0) {
    f.fail(heads_key, std::string(heads_key) + " " + num(s.heads) +
                          " does not divide the hidden size " + num(s.d));
  }
}

// GELU flavour from an activation name: "gelu" is the erf form, the others the tanh form.
bool geluTanh(const Fields& f, const char* key, const std::string& fallback) {
  const std::string act = f.text(key, fallback);
  if (act == "gelu") return false;
  if (act == "gelu_new" || act == "gelu_pytorch_tanh" || act == "gelu_fast") return true;
  f.fail(key, std::string("'") + key + "' '" + act +
                  "' is not modeled (gelu, gelu_new, gelu_pytorch_tanh, gelu_fast)");
}

void parseGpt2(const Fields& f, EncoderSpec& s) {
  s.vocab = f.positiveOr("vocab_size", 50257);
  s.max_positions = f.positiveOr("n_positions", 1024);
  s.d = f.positiveOr("n_embd", 768);
  s.layers = f.count("n_layer", bytesPerBlock(), "layers", 12);
  s.heads = f.positiveOr("n_head", 12);
  s.ffn = f.positiveOr("n_inner", 4 * s.d);
  s.gelu_tanh = geluTanh(f, "activation_function", "gelu_new");
  s.eps = static_cast<float>(f.number("layer_norm_epsilon", 1e-5));
  checkHeads(f, "n_head", s);
  if (!f.flag("tie_word_embeddings", true)) {
    f.fail("tie_word_embeddings", "gpt2 with an untied LM head is not modeled");
  }
  if (!f.flag("scale_attn_weights", true)) {
    f.fail("scale_attn_weights", "unscaled attention scores are not modeled");
  }
  rejectIfSet(f, "scale_attn_by_inverse_layer_idx", "per-layer score scaling");
  f.accept("reorder_and_upcast_attn");  // FP32 upcast inside attention: same ops and counts
}

void parseBert(const Fields& f, EncoderSpec& s) {
  s.vocab = f.positive("vocab_size");
  s.d = f.positive("hidden_size");
  s.layers = f.count("num_hidden_layers", bytesPerBlock(), "layers");
  s.heads = f.positive("num_attention_heads");
  s.ffn = f.positive("intermediate_size");
  s.max_positions = f.positive("max_position_embeddings");
  s.type_vocab = f.positiveOr("type_vocab_size", 2);
  s.gelu_tanh = geluTanh(f, "hidden_act", "gelu");
  s.eps = static_cast<float>(f.number("layer_norm_eps", 1e-12));
  checkHeads(f, "num_attention_heads", s);
  if (f.text("position_embedding_type", "absolute") != "absolute") {
    f.fail("position_embedding_type", "only absolute position embeddings are modeled");
  }
  rejectIfSet(f, "is_decoder", "a causal BERT decoder");
  rejectIfSet(f, "add_cross_attention", "cross-attention layers");
}

void parseVit(const Fields& f, EncoderSpec& s) {
  s.d = f.positive("hidden_size");
  s.layers = f.count("num_hidden_layers", bytesPerBlock(), "layers");
  s.heads = f.positive("num_attention_heads");
  s.ffn = f.positive("intermediate_size");
  s.gelu_tanh = geluTanh(f, "hidden_act", "gelu");
  s.eps = static_cast<float>(f.number("layer_norm_eps", 1e-12));
  s.image = f.positiveOr("image_size", 224);
  s.patch = f.positiveOr("patch_size", 16);
  s.channels = f.positiveOr("num_channels", 3);
  checkHeads(f, "num_attention_heads", s);
  if (s.image % s.patch != 0) {
    f.fail("patch_size",
           "patch_size " + num(s.patch) + " does not divide image_size " + num(s.image));
  }
  if (!f.flag("qkv_bias", true))
    f.fail("qkv_bias", "attention without q/k/v biases is not modeled");
  const std::vector<std::string> arch = f.texts("architectures");
  bool classifier = false;
  for (const std::string& a : arch) classifier = classifier || a == "ViTForImageClassification";
  // HF's default label count is 2; id2label, when present, lists the classes.
  const int64_t listed = f.size("id2label");
  s.labels = classifier ? (listed > 0 ? listed : f.positiveOr("num_labels", 2)) : 0;
  f.accept("num_labels");
}

}  // namespace

EncoderSpec parseEncoder(const Fields& f, const std::string& type, const std::string& name) {
  EncoderSpec s;
  s.name = name;
  if (type == "gpt2") {
    s.kind = EncoderSpec::Kind::Gpt2;
    parseGpt2(f, s);
  } else if (type == "bert") {
    s.kind = EncoderSpec::Kind::Bert;
    parseBert(f, s);
  } else {
    s.kind = EncoderSpec::Kind::Vit;
    parseVit(f, s);
  }
  if (!(s.eps > 0))
    f.fail(type == "gpt2" ? "layer_norm_epsilon" : "layer_norm_eps", "must be positive");
  return s;
}

}  // namespace tessel::models::hf
