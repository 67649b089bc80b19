#include "sim/fabric.h"

namespace tessel::sim {

namespace {
FabricRunner& slot() {
  static FabricRunner runner;
  return runner;
}
}  // namespace

void registerFabricRunner(FabricRunner runner) { slot() = std::move(runner); }

const FabricRunner* fabricRunner() { return slot() ? &slot() : nullptr; }

}  // namespace tessel::sim
