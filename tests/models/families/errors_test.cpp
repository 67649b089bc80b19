// Each class of bad config or option is a ConfigError naming the field (and the source file).
#include <gtest/gtest.h>

#include "../error_checks.h"
#include "family_checks.h"
#include "models/families/hf_config.h"

namespace tessel::models {
namespace {

// Builds `text` as source "cfg.json"; returns the error (failing when there is none).
ConfigError textError(const std::string& text, const WorkloadOptions& o = opts(16)) {
  try {
    hf::buildFromText(text, "cfg.json", o);
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError";
  return ConfigError({}, "");
}

void expectField(const std::string& text, const std::string& path, const std::string& contains) {
  const ConfigError e = textError(text);
  EXPECT_EQ(e.where().yaml_path, path);
  EXPECT_EQ(e.where().file, "cfg.json");
  EXPECT_NE(e.message().find(contains), std::string::npos) << e.message();
}

const std::string kLlama = presetText("llama-3.1-8b");

TEST(FamiliesErrors, MalformedJsonHasLineAndColumn) {
  const ConfigError e = textError("{\n  \"model_type\": \"llama\",\n  \"hidden_size\": ,\n}");
  EXPECT_EQ(e.where().file, "cfg.json");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.where().column, 18);
  EXPECT_NE(e.message().find("malformed JSON"), std::string::npos);
}

// nlohmann reports a number beyond a double as out_of_range, not as a parse error.
TEST(FamiliesErrors, ANumberBeyondADoubleIsMalformedJson) {
  const ConfigError e = textError("{\"model_type\": \"llama\", \"hidden_size\": 1e999}");
  EXPECT_NE(e.message().find("malformed JSON"), std::string::npos) << e.message();
}

TEST(FamiliesErrors, FieldErrorsAreLocated) {
  const std::string text =
      edited(kLlama, "\"num_key_value_heads\": 8", "\"num_key_value_heads\": 5");
  const ConfigError e = textError(text);
  EXPECT_EQ(e.where().yaml_path, "num_key_value_heads");
  EXPECT_NE(e.message().find("does not divide num_attention_heads 32"), std::string::npos);
  // The preset text has the key on line 16, after two spaces of indentation.
  EXPECT_EQ(e.where().line, 16);
  EXPECT_EQ(e.where().column, 3);
}

TEST(FamiliesErrors, BadFields) {
  expectField(edited(kLlama, "\"hidden_size\": 4096,", ""), "hidden_size", "missing");
  expectField(edited(kLlama, "\"hidden_size\": 4096", "\"hidden_size\": \"4096\""), "hidden_size",
              "must be an integer");
  expectField(edited(kLlama, "\"num_hidden_layers\": 32", "\"num_hidden_layers\": 0"),
              "num_hidden_layers", "positive");
  expectField(edited(kLlama, "\"num_attention_heads\": 32", "\"num_attention_heads\": 24"),
              "num_attention_heads", "does not divide hidden_size 4096");
  expectField(edited(kLlama, "\"model_type\": \"llama\"", "\"model_type\": \"llama4\""),
              "model_type",
              "supported: llama, mistral, mixtral, qwen2, qwen2_moe, gemma, phi3, deepseek_v2, deepseek_v3, "
              "gpt2, bert, vit");
  expectField(edited(kLlama, "\"rope_type\": \"llama3\"", "\"rope_type\": \"mystery\""),
              "rope_scaling.rope_type", "is not known");
  expectField(edited(kLlama, "\"use_cache\": true", "\"quantization_config\": {\"bits\": 4}"),
              "quantization_config.quant_method", "quant_method '' is not modeled");
  expectField(edited(kLlama, "\"use_cache\": true",
                     "\"quantization_config\": {\"quant_method\": \"gptq\", \"bits\": 3}"),
              "quantization_config.bits", "only 4- and 8-bit weights are modeled");
  expectField(edited(kLlama, "\"use_cache\": true",
                     "\"quantization_config\": {\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true}"),
              "quantization_config.load_in_4bit", "NF4 weights are not modeled");
  expectField(edited(kLlama, "\"use_cache\": true", "\"qk_layernorm\": true"), "qk_layernorm",
              "not modeled");
  expectField(edited(kLlama, "\"hidden_act\": \"silu\"", "\"hidden_act\": \"relu2\""), "hidden_act",
              "not modeled");
  expectField(edited(kLlama, "\"tie_word_embeddings\": false", "\"tie_word_embeddings\": 0"),
              "tie_word_embeddings", "true or false");
  const std::string qwen = presetText("qwen2-7b");
  expectField(edited(qwen, "\"use_sliding_window\": false", "\"use_sliding_window\": true"),
              "use_sliding_window", "not modeled");
  const std::string mixtral = presetText("mixtral-8x7b");
  expectField(edited(mixtral, "\"num_experts_per_tok\": 2", "\"num_experts_per_tok\": 9"),
              "num_experts_per_tok", "exceeds num_local_experts 8");
  expectField(edited(presetText("vit-b-16"), "\"patch_size\": 16", "\"patch_size\": 15"),
              "patch_size", "does not divide image_size 224");
}

TEST(FamiliesErrors, Options) {
  // Decode needs seq+1 positions of the 131,072-token context.
  expectConfigError("llama-3.1-8b", opts(131072, 1, "decode"), "--seq", "max_position_embeddings");
  EXPECT_NO_THROW(build("llama-3.1-8b", opts(131071, 1, "decode")));
  expectConfigError("gemma-2b", opts(8193), "--seq", "8192");
  // Prefill beyond a sliding window would need a banded mask the IR does not have.
  expectConfigError("mistral-7b", opts(4097), "--seq", "sliding_window");
}

TEST(FamiliesErrors, UnusedOptions) {
  WorkloadOptions o = opts(16);
  o.given = {"--seq", "--image"};
  expectConfigError("llama-3.1-8b", o, "--image", "does not use --image");
  o = opts(16);
  o.expert_load = {1, 1};
  expectConfigError("llama-3.1-8b", o, "--expert-load", "no experts");
  expectConfigError("mixtral-8x7b", o, "--expert-load", "8 experts");
  o.expert_load = {1, 0, 0, 0, 0, 0, 0, 0};
  expectConfigError("mixtral-8x7b", o, "--expert-load", "exceeds 1/top_k");
  expectConfigError("bert-base-uncased", opts(16, 1, "decode"), "--phase", "no decode phase");
  o = opts(16);
  o.given = {"--seq"};
  expectConfigError("vit-b-16", o, "--seq", "197 tokens");
  o = opts(16);
  o.layers = 33;
  expectConfigError("llama-3.1-8b", o, "--layers", "exceeds");
  o = opts(16, 1, "decode");
  o.all_logits = true;
  expectConfigError("llama-3.1-8b", o, "--all-logits", "prefill");
}

TEST(FamiliesErrors, MissingFile) {
  try {
    build("/nonexistent/config.json", opts(8));
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.where().file, "/nonexistent/config.json");
  }
}

}  // namespace
}  // namespace tessel::models

namespace tessel::models::hf {
namespace {

// Every RoPE scaling HF defines only rescales frequencies: the graph is the unscaled one (same
// ops, MACs and parameters) and a warning says so.
TEST(FamiliesErrors, EveryKnownRopeScalingIsAcceptedWithANote) {
  const std::string llama = presetText("llama-3.1-8b");
  const Graph base = buildFromText(llama, "llama", {});
  for (const char* type : {"linear", "dynamic", "yarn", "longrope"}) {
    const std::string text = edited(llama, "\"rope_type\": \"llama3\"",
                                    std::string("\"rope_type\": \"") + type + "\"");
    const Graph g = buildFromText(text, "llama", {});
    EXPECT_EQ(g.totalMacs(), base.totalMacs()) << type;
    EXPECT_EQ(g.parameterCount(), base.parameterCount()) << type;
    bool noted = false;
    for (const std::string& w : g.warnings)
      noted = noted || w.find(std::string("rope_scaling ") + type) != std::string::npos;
    EXPECT_TRUE(noted) << type;
  }
}

}  // namespace
}  // namespace tessel::models::hf
