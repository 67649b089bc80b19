#include "arch/load.h"

#include "arch/building.h"
#include "arch/scalesim_config.h"
#include "arch/schema.h"
#include "util/yaml.h"

namespace tessel::arch {
namespace {

bool alwaysPresent(const SectionSpec& s) {
  for (const auto& p : s.params) {
    if (p.need == Need::Required) return false;
  }
  return !s.path.empty();
}

Accelerator build(yaml::Document doc, const std::vector<std::string>& overrides) {
  // Presets (the file), then overrides, then the schema, defaults and cross-checks.
  if (!overrides.empty()) {
    // Sections that exist by default (host, dma, ...) can take -p even when left out.
    for (const auto& s : schema()) {
      if (alwaysPresent(s)) doc.ensureMapping(s.path);
    }
  }
  for (const auto& o : overrides) doc.override(o);
  Building b;
  b.acc.source = doc.source();
  readSections(doc.root(), b);
  deriveDefaults(b);
  validate(b);
  return std::move(b.acc);
}

}  // namespace

Accelerator loadFile(const std::string& path, const std::vector<std::string>& overrides) {
  // A SCALE-Sim config is a design too: imported as `tessel arch import` would write it (the
  // assumptions that prints are in the YAML's comments), then loaded with the overrides.
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".cfg") == 0) {
    return loadString(importScalesimConfig(path).yaml, path + " (as imported)", overrides);
  }
  return build(yaml::Document::fromFile(path), overrides);
}

Accelerator loadString(const std::string& yaml, const std::string& source_name,
                       const std::vector<std::string>& overrides) {
  return build(yaml::Document::fromString(yaml, source_name), overrides);
}

}  // namespace tessel::arch
