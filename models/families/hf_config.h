// Model families from a Hugging Face config.json: llama, mistral, mixtral, qwen2, qwen2_moe,
// gemma, phi3, gpt2, bert, vit. The config's fields decide the graph (GQA/MQA, RoPE, RMSNorm,
// SwiGLU/GeGLU, MoE, tied or separate LM head, biases); fields that change the math and are not
// modeled are errors, never ignored.
#pragma once

#include <string>
#include <vector>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models::hf {

// A config.json on disk. Throws ConfigError naming the file and the field.
Graph buildFromFile(const std::string& path, const WorkloadOptions& options);
// The same from JSON text; `source` names it in errors (a file name or a preset name).
Graph buildFromText(const std::string& json_text, const std::string& source,
                    const WorkloadOptions& options);

// Shipped presets (e.g. "llama-3.1-8b"), each the published config.json of that model.
bool isPreset(const std::string& name);
std::vector<std::string> presetNames();
Graph buildPreset(const std::string& name, const WorkloadOptions& options);

// The decoder facts of a preset or config.json (models/workload.h); false for encoders.
bool decoderFactsOf(const std::string& name, DecoderFacts& facts);

// The options ("--seq", "--phase", ...) a config-built model reads.
std::vector<std::string> optionsOfConfig();

}  // namespace tessel::models::hf
