// Entry points: a config.json (file, text or shipped preset) -> the family's graph.
#include "models/families/hf_config.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "models/families/family.h"
#include "models/families/presets.h"
#include "models/precision.h"
#include "util/error.h"
#include "util/input_file.h"

namespace tessel::models::hf {
namespace {

const std::vector<std::string> kDecoders = {"llama", "mistral", "mixtral",     "qwen2",      "qwen2_moe",
                                            "gemma", "phi3",    "deepseek_v2", "deepseek_v3"};
const std::vector<std::string> kEncoders = {"gpt2", "bert", "vit"};

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// "models/Llama-3.1-8B/config.json" -> "Llama-3.1-8B" (HF checkouts are named after the model);
// "my-llama.json" -> "my-llama"; a preset name stays as it is.
std::string modelName(const std::string& source) {
  std::string path = source;
  const size_t slash = path.find_last_of('/');
  std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  if (file.size() < 5 || file.compare(file.size() - 5, 5, ".json") != 0) return source;
  if (file == "config.json" && slash != std::string::npos && slash > 0) {
    const std::string dir = path.substr(0, slash);
    const size_t up = dir.find_last_of('/');
    return up == std::string::npos ? dir : dir.substr(up + 1);
  }
  return file.substr(0, file.size() - 5);
}

void rejectUnusedOptions(const std::string& source, const WorkloadOptions& o) {
  const std::vector<std::string> used = optionsOfConfig();
  for (const std::string& option : o.given) {
    if (contains(used, option)) continue;
    optionError(option, "workload '" + source + "' does not use " + option +
                            " (a Hugging Face config takes --seq, --batch, --phase, --layers, "
                            "--all-logits, --expert-load and --dtype)");
  }
}

std::string supported() {
  std::string all;
  for (const auto* list : {&kDecoders, &kEncoders}) {
    for (const std::string& t : *list) all += (all.empty() ? "" : ", ") + t;
  }
  return all;
}

}  // namespace

Graph buildFromText(const std::string& json_text, const std::string& source,
                    const WorkloadOptions& options) {
  const Fields f = Fields::parse(json_text, source);
  acceptBookkeeping(f);
  const std::string type = f.requiredText("model_type");
  if (!contains(kDecoders, type) && !contains(kEncoders, type)) {
    f.fail("model_type", "unknown model_type '" + type + "'; supported: " + supported());
  }
  const std::optional<DType> stored_weights = checkpointWeights(f);
  rejectUnusedOptions(source, options);
  const std::string name = modelName(source);
  Graph g = contains(kDecoders, type) ? buildDecoder(parseDecoder(f, type, name), options)
                                      : buildEncoder(parseEncoder(f, type, name), options);
  if (stored_weights && *stored_weights != options.dtype) {
    // The checkpoint's matmul weights at their stored width, widened in the datapath.
    PrecisionPlan plan;
    plan.default_dtype = options.dtype;
    plan.default_weights = stored_weights;
    g = applyPrecision(g, plan);
  }
  for (const std::string& key : f.unread()) {
    g.warnings.push_back(source + ": config field '" + key +
                         "' is not read by tessel; check that it does not change the model");
  }
  return g;
}

Graph buildFromFile(const std::string& path, const WorkloadOptions& options) {
  std::string text;
  try {  // the one rule every input file follows (util/input_file.h); a config is a few KiB
    text = readInputFile(path, "a Hugging Face config.json", size_t{16} << 20);
  } catch (const ConfigError& e) {
    throw ConfigError({path, 0, 0, "workload"}, e.message());
  }
  return buildFromText(text, path, options);
}

bool isPreset(const std::string& name) {
  for (const Preset& p : presets()) {
    if (name == p.name) return true;
  }
  return false;
}

std::vector<std::string> presetNames() {
  std::vector<std::string> names;
  for (const Preset& p : presets()) names.push_back(p.name);
  return names;
}

Graph buildPreset(const std::string& name, const WorkloadOptions& options) {
  for (const Preset& p : presets()) {
    if (name == p.name) return buildFromText(p.json, p.name, options);
  }
  throw ConfigError({"", 0, 0, "workload"}, "unknown preset '" + name + "'");
}

bool decoderFactsOf(const std::string& name, DecoderFacts& facts) {
  std::string text = name;
  for (const Preset& p : presets()) {
    if (name == p.name) text = p.json;
  }
  if (text == name) {
    try {
      text = readInputFile(name, "a Hugging Face config.json", size_t{16} << 20);
    } catch (const ConfigError& e) {
      throw ConfigError({name, 0, 0, "workload"}, e.message());
    }
  }
  const Fields f = Fields::parse(text, name);
  acceptBookkeeping(f);
  const std::string type = f.requiredText("model_type");
  if (!contains(kDecoders, type)) return false;
  const DecoderSpec s = parseDecoder(f, type, modelName(name));
  const bool uniform = s.experts == 0 || (s.sparse_step == 1 && s.dense_layers.empty());
  facts = {s.name, s.layers, s.kv_heads, s.head_dim, s.max_positions, s.window, uniform};
  if (s.mla()) {
    // The cache holds one latent (kv_lora) and one rotary key (qk_rope) per token, no heads:
    // as "K and V of one head", half of it each (rounded up).
    facts.kv_heads = 1;
    facts.head_dim = (s.kv_lora + s.qk_rope + 1) / 2;
  }
  return true;
}

std::vector<std::string> optionsOfConfig() {
  return {"--seq", "--batch", "--phase", "--layers", "--all-logits", "--expert-load", "--dtype"};
}

}  // namespace tessel::models::hf
