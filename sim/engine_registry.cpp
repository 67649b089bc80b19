// The one place engines are registered: a new engine adds one line to kEngines.
#include <utility>

#include "sim/engine.h"
#include "util/error.h"

namespace tessel::sim {

std::unique_ptr<Engine> makeAnalyticalEngine(const arch::Accelerator&, const dataflows::Dataflow&,
                                             const EngineOptions&);

namespace {
using Factory = std::unique_ptr<Engine> (*)(const arch::Accelerator&, const dataflows::Dataflow&,
                                            const EngineOptions&);
const std::vector<std::pair<std::string, Factory>>& registry() {
  static const std::vector<std::pair<std::string, Factory>> kEngines = {
      {"analytical", &makeAnalyticalEngine},
  };
  return kEngines;
}
}  // namespace

std::unique_ptr<Engine> makeEngine(std::string_view name, const arch::Accelerator& acc,
                                   const dataflows::Dataflow& dataflow,
                                   const EngineOptions& options) {
  for (const auto& [n, factory] : registry()) {
    if (n == name) return factory(acc, dataflow, options);
  }
  std::string known;
  for (const auto& entry : registry()) known += (known.empty() ? "" : ", ") + entry.first;
  throw ConfigError({"", 0, 0, "--engine"},
                    "unknown engine '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> engineNames() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.first);
  return names;
}

}  // namespace tessel::sim
