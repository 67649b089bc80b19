// Internal to models/families/: the published config.json of each shipped preset, compiled in.
#pragma once

#include <string>
#include <vector>

namespace tessel::models::hf {

struct Preset {
  const char* name;  // lowercase workload name, e.g. "llama-3.1-8b"
  const char* repo;  // its source on huggingface.co
  const char* json;  // the config.json text
};

const std::vector<Preset>& presets();
// DeepSeek's (presets_deepseek.cpp), part of presets().
std::vector<Preset> deepseekPresets();
// Llama 2's (presets_llama2.cpp), part of presets().
std::vector<Preset> llama2Presets();

}  // namespace tessel::models::hf
