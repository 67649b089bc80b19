#include "arch/building.h"

#include "util/yaml.h"

namespace tessel::arch {

SourceLocation Building::locate(const std::string& path) const {
  for (std::string p = path;; p = yaml::parentPath(p)) {
    auto it = where.find(p);
    if (it != where.end()) return it->second;
    if (p.empty()) return {acc.source, 0, 0, ""};
  }
}

// A derived value has no place of its own; it is reported at the section it belongs to.
void Building::fail(const std::string& path, const std::string& message) const {
  throw ConfigError(locate(path), message);
}

void Building::warn(const std::string& path, const std::string& message) {
  acc.warnings.push_back(ConfigError(locate(path), message).what());
}

}  // namespace tessel::arch
