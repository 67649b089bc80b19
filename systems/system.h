// A system of chips: one accelerator design (arch::Accelerator) copied `count` times and the
// interconnect joining them. systems::loadSystem builds it from YAML; every failure is a
// ConfigError naming file:line:column and the YAML path, nothing here prints or exits.
//
//   system:
//     chip: ../arch/tpu-v4-like.yaml   # beside this file (else from the working directory)
//     overrides: [dram.capacity=64GiB] # like -p, on the chip
//     count: 64
//     topology: {kind: torus, dims: [4, 4, 4]}  # ring | torus | mesh | switch |
//                                               # fully_connected | hierarchical (levels:)
//     link: {bandwidth: 50 GB/s, latency: 1 us, energy: 10 pJ/B}
//     collective_overhead: 10 us
#pragma once

#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "systems/topology.h"

namespace tessel::systems {

struct System {
  std::string name;
  std::string source;                 // the YAML file (or the name given to loadSystemString)
  std::string chip_file;              // resolved
  std::vector<std::string> chip_overrides;
  arch::Accelerator chip;
  int count = 1;
  Topology topology;
  double collective_overhead_s = 0;   // one collective call's fixed cost
};

// `overrides` are -p strings on the system's YAML ("system.count=16", "system.link.latency=2us").
System loadSystem(const std::string& path, const std::vector<std::string>& overrides = {});
System loadSystemString(const std::string& yaml, const std::string& source_name,
                        const std::vector<std::string>& overrides = {});

// Defaults, each assumed (docs/systems.md gives the reasoning).
inline constexpr double kDefaultLinkLatency = 1e-6;      // 1 us per crossing
inline constexpr double kDefaultLinkEnergy = 10.0;       // pJ per byte per crossing
inline constexpr double kDefaultCollectiveOverhead = 10e-6;  // 10 us per call
// Beyond these the link tables would not fit a workstation's memory.
inline constexpr int kMaxChips = 65536;
inline constexpr int64_t kMaxLinks = int64_t{1} << 22;

}  // namespace tessel::systems
