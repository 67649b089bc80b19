// Sweep specs for tests: YAML text over the shipped Gemmini, written to a fresh folder.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace tessel::testing {

inline std::string gemminiPath() {
  return std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";
}

// A fresh, empty folder under the system's temp folder.
inline std::string freshDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("tessel-sweep-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string writeSpec(const std::string& dir, const std::string& body) {
  const std::string path = dir + "/spec.yaml";
  std::ofstream(path) << "base: " << gemminiPath() << "\n" << body;
  return path;
}

}  // namespace tessel::testing
