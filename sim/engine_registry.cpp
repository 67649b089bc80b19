// The engine registry: the analytical engine is built in; executables add the engines they link
// (apps/tessel registers the SystemC engine).
#include <utility>

#include "sim/engine.h"
#include "sim/scalesim/scalesim_engine.h"
#include "util/error.h"

namespace tessel::sim {

std::unique_ptr<Engine> makeAnalyticalEngine(const arch::Accelerator&, const dataflows::Dataflow&,
                                             const EngineOptions&);

namespace {
std::vector<std::pair<std::string, EngineFactory>>& registry() {
  static std::vector<std::pair<std::string, EngineFactory>> engines = {
      {"analytical", &makeAnalyticalEngine},
      {"scalesim", &makeScaleSimEngine},
  };
  return engines;
}
}  // namespace

void registerEngine(const std::string& name, EngineFactory factory) {
  for (auto& entry : registry()) {
    if (entry.first == name) {
      entry.second = factory;
      return;
    }
  }
  registry().emplace_back(name, factory);
}

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
