// A run's chip in the categories publications break area and power into, so a floor plan or a
// power breakdown can be read line by line against it: compute (the arrays' MACs and registers,
// the SFU), on-chip memory (every storage level on the die, an accumulator's adders), NoC (the
// networks' wires and a mesh's routers), control (controller, instruction memory, DMA engines),
// clock (the tree's energy), I/O (DRAM PHY, host lanes); beside the die, the DRAM's accesses and
// the host's work. Dynamic power follows each component's activity in the run (its counted
// accesses, MACs and transfers, its clocked cycles, over the run's time); leakage is drawn all
// the time. What is still not modeled is named (arch::kNotModeled), never shown as 0.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/stats.h"

namespace tessel::sim {

struct CategoryRow {
  std::string category;  // "compute" | "on-chip memory" | "noc" | "control" | "clock" | "I/O" |
                         // "other" | "dram" | "host"
  bool on_die = true;    // part of the accelerator chip (dram and host are not)
  double area_mm2 = 0;
  double dynamic_w = 0;  // the run's energy in it over the run's time
  double leakage_w = 0;
};

// The on-die categories the design has, in the order above, then the off-die ones with energy.
std::vector<CategoryRow> byCategory(const RunStats& run);


}  // namespace tessel::sim
