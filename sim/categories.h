// A run's chip in the categories publications break area and power into, so a floor plan or a
// power breakdown can be read line by line against it: compute (the arrays' MACs and registers,
// the SFU), on-chip memory (every storage level on the die), NoC (the networks' wires); beside
// the die, the DRAM's accesses and the host's work. Dynamic power follows each component's
// activity in the run (its counted accesses, MACs and transfers over the run's time); leakage is
// drawn all the time. Control and I/O are not modeled yet: they are named so, never shown as 0.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/stats.h"

namespace tessel::sim {

struct CategoryRow {
  std::string category;  // "compute" | "on-chip memory" | "noc" | "other" | "dram" | "host"
  bool on_die = true;    // part of the accelerator chip (dram and host are not)
  double area_mm2 = 0;
  double dynamic_w = 0;  // the run's energy in it over the run's time
  double leakage_w = 0;
};

// The on-die categories the design has, in the order above, then the off-die ones with energy.
std::vector<CategoryRow> byCategory(const RunStats& run);


}  // namespace tessel::sim
