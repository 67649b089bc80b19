// The energy components every op reports, in one order: each storage level (its traffic at the
// level's per-byte energies), register_file, array (MACs), epilogue, noc, sfu, host.
#pragma once

#include "arch/accelerator.h"
#include "sim/stats.h"

namespace tessel::sim::analytical {

struct EnergyParts {
  double register_file = 0, array = 0, noc = 0, sfu = 0, host = 0;  // pJ
  double epilogue = 0;  // the array's epilogue lanes (arch: ComputeArray::epiloguePj)
};

// Appends the components to s.energy_pj; s.traffic must already hold the op's bytes per level.
void addEnergy(OpStats& s, const arch::Accelerator& acc, const EnergyParts& parts);

}  // namespace tessel::sim::analytical
