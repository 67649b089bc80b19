// Internal to util/: what a yaml::Document holds, shared by the reader (yaml.cpp) and the -p
// overrides (yaml_override.cpp). Includes yaml-cpp, so only util/ sources include it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <string_view>

#include "util/yaml.h"

namespace tessel::yaml {

struct Document::State {
  std::string source;
  YAML::Node root;
  std::map<std::string, std::string> overridden;  // YAML path -> "<-p path=value>"
};

// 'text': how messages quote what the user wrote.
inline std::string inQuotes(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace tessel::yaml
