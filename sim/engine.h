// The Engine interface: one op plan in, its stats out. Both engines (analytical, systemc) fill the
// same OpStats; MAC and byte counts must agree exactly, cycles within a stated tolerance.
// An engine built on this library alone is one new folder plus one line in
// sim/engine_registry.cpp; one that needs more (the SystemC engine: libsystemc owns `main`, so
// every binary linking it must define sc_main) is registered by the executables that link it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/plan.h"
#include "sim/stats.h"

namespace tessel::sim {

struct EngineOptions {
  bool ideal_memory = false;  // infinite bandwidth, zero latency: the compute-only bound
  bool trace = false;         // record a TraceSlice per command (engines that have commands)
  // Engine-specific knobs, key -> value as the user gave them (tessel run --scalesim-timing
  // fold_overlap=on): the engine that reads them rejects keys and values it does not know.
  std::vector<std::pair<std::string, std::string>> params;
};


class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;
  // One op's plan (fused members carry their anchor's id; their costs are their own).
  virtual OpStats evaluate(const dataflows::OpPlan& plan) = 0;
  // The commands of every op evaluated so far, when EngineOptions::trace asked for them; empty
  // for engines without commands (the analytical engine).
  virtual std::vector<TraceSlice> trace() const { return {}; }
};

using EngineFactory = std::unique_ptr<Engine> (*)(const arch::Accelerator&,
                                                  const dataflows::Dataflow&,
                                                  const EngineOptions&);
// Engines that need more than this library (the SystemC engine needs libsystemc, which owns
// `main`) are registered by the executable that links them, before any makeEngine call.
void registerEngine(const std::string& name, EngineFactory factory);

// Throws ConfigError listing the known names if `name` is unknown.
std::unique_ptr<Engine> makeEngine(std::string_view name, const arch::Accelerator& acc,
                                   const dataflows::Dataflow& dataflow,
                                   const EngineOptions& options);
std::vector<std::string> engineNames();

}  // namespace tessel::sim
