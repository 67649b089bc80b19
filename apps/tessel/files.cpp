#include <cstdio>
#include <filesystem>
#include <fstream>

#include "apps/tessel/commands.h"
#include "util/error.h"

namespace tessel::app {

void writeFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f)
      throw ConfigError({path, 0, 0, ""}, "cannot write this file (does its directory exist?)");
    f << text;
    if (!f.flush())
      throw ConfigError({path, 0, 0, ""}, "cannot write this file (does its directory exist?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw ConfigError({path, 0, 0, ""}, "cannot write this file (does its directory exist?)");
  }
}

void checkOutputsAreNotInputs(const std::vector<std::string>& outputs,
                              const std::vector<std::string>& inputs) {
  for (const auto& out : outputs) {
    if (out.empty()) continue;
    for (const auto& in : inputs) {
      std::error_code ec;
      if (!in.empty() && std::filesystem::equivalent(out, in, ec)) {
        throw ConfigError({out, 0, 0, ""},
                          "refusing to write a report over an input of this "
                          "command; choose another output path");
      }
    }
  }
}

}  // namespace tessel::app

namespace tessel::app {

void checkOutputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs) {
  std::vector<std::string> paths;
  for (const auto& o : outputs) paths.push_back(o.path == "-" ? std::string() : o.path);
  checkOutputsAreNotInputs(paths, inputs);
}

void writeOutput(const std::string& path, const std::string& text, std::ostream& stdout_stream) {
  if (path == "-") {
    stdout_stream << text;
    return;
  }
  writeFileAtomically(path, text);
}

}  // namespace tessel::app
