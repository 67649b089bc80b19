// The technology model: per-operation energies and areas of one process node, read from a
// table (configs/tech/<node>.yaml, embedded in the binary, or a user's own file), and DRAM
// energy per bit by memory type (configs/tech/dram.yaml). Pure data: tech/memory.h turns it
// into the costs of memories and wires. Energies are at the table's nominal voltage; a design
// run at another voltage scales them (dynamicScale, leakageScale).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/dtype.h"

namespace tessel::tech {

struct OpCost {
  double energy_pj = 0;
  double area_um2 = 0;
};

// SRAM: per-bit read energy e(C) = fixed + sqrt_k * sqrt(C), C = bits of one bank.
struct SramTable {
  double fixed_pj_per_bit = 0;
  double sqrt_pj_per_bit = 0;
  double write_ratio = 1;
  double cell_area_um2 = 0;
  double array_efficiency = 1;  // bit-cell area / macro area
  double leakage_pw_per_bit = 0;
  double extra_port_area = 0;   // area factor added per port beyond the first
  double macro_halo_um = 0;     // space kept around a placed macro (absent from a table: 0)
};

// Storage built from flip-flops or latches: a PE's register file or pipeline registers.
struct CellTable {
  double pj_per_bit = 0;
  double area_um2_per_bit = 0;
  double leakage_pw_per_bit = 0;
};

struct Technology {
  std::string node;  // "45nm"
  std::string source;  // the table's file (or "<shipped>/45nm.yaml")
  double feature_nm = 0;
  double nominal_voltage = 0;
  double voltage = 0;  // the design's supply; = nominal unless the design says otherwise
  std::vector<std::pair<std::string, OpCost>> mac;  // by dtype name: "int8", "fp16", ...
  OpCost int_add, fp_add;
  SramTable sram;
  CellTable register_file;
  CellTable flip_flop;
  double wire_pj_per_bit_mm = 0;
  double logic_leakage_pw_per_um2 = 0;

  // The MAC of `t` (nullptr if the table has none).
  const OpCost* macOf(DType t) const;
  // Dynamic energy goes with V^2, leakage power with V (first order; docs/technology.md).
  double dynamicScale() const;
  double leakageScale() const;
};

// The nodes shipped with tessel ("45nm", "28nm", ...), in order of feature size.
std::vector<std::string> shippedNodes();
// A shipped node at `voltage` (0 = nominal). ConfigError if the node is not shipped (the
// message lists the shipped ones) or the voltage is out of range.
Technology shippedTechnology(std::string_view node, double voltage);
// A user's own table, in the shipped tables' format; errors located in that file.
Technology technologyFromFile(const std::string& path, double voltage);

// DRAM energy per bit transferred by memory type ("ddr4", "lpddr4", "hbm2"...).
std::vector<std::string> dramTypes();
// pJ/bit; -1 if the type is not in the table.
double dramPjPerBit(std::string_view type);
// The chip's side of a DRAM interface: one channel (an HBM stack) by its JEDEC speed grade
// and signal count, and the bumps its signals leave the die on (configs/tech/dram.yaml).
struct DramInterface {
  double channel_gb_per_s = 0;
  double signals = 0;
  double bump_pitch_um = 0;
};
const DramInterface* dramInterface(std::string_view type);  // nullptr if not in the table

// A NAND2-equivalent gate (gate counts of controllers, DMA engines, routers): NanGate's 45 nm
// open cell library NAND2_X1, 0.798 um2, scaled as the table scales its logic (its 32-bit add
// over Horowitz's 137 um2 at 45 nm).
double nand2AreaUm2(const Technology& t);
// Energy of one NAND2-equivalent gate switching: the table's 32-bit add over its gates.
double nand2SwitchPj(const Technology& t);

}  // namespace tessel::tech
