// The shipped accelerator designs, configs/arch/*.yaml, as paths in name order: what tests that
// hold for every design loop over.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace tessel::testing {

inline std::vector<std::string> shippedDesigns() {
  std::vector<std::string> paths;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(TESSEL_SOURCE_DIR) + "/configs/arch")) {
    if (e.path().extension() == ".yaml") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace tessel::testing
