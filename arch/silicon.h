// Internal to arch/: energies, areas and leakage derived from the technology (arch/silicon.cpp).
#pragma once

namespace tessel::arch {

struct Building;

// Fills every energy, area and leakage the YAML left out, then Accelerator::silicon.
// Runs after the other defaults (it needs row widths, dtypes and fan-outs).
void deriveSilicon(Building& b);

}  // namespace tessel::arch
