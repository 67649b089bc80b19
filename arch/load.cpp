#include "arch/load.h"

#include "arch/building.h"
#include "util/yaml.h"

namespace tessel::arch {
namespace {

Accelerator build(yaml::Document doc, const std::vector<std::string>& overrides) {
  // Presets (the file), then overrides, then the schema, defaults and cross-checks.
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
  return build(yaml::Document::fromFile(path), overrides);
}

Accelerator loadString(const std::string& yaml, const std::string& source_name,
                       const std::vector<std::string>& overrides) {
  return build(yaml::Document::fromString(yaml, source_name), overrides);
}

}  // namespace tessel::arch
