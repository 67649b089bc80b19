// Costs of memories and wires from a technology table (docs/technology.md):
//   SRAM  per-bit read energy  e(C) = fixed + k * sqrt(C · p)    C = bits of one bank, p = port
//                                                                 area factor (longer lines)
//         + the H-tree from the macro's edge to a bank: wire · side / 2 when banks > 1
//         area = bits · cell · p / efficiency; leakage = bits · leakage per bit · p
//   cells (register files, pipeline registers): per bit, flat
//   wires energy per bit per mm x distance
// Energies are per byte (the engines count bytes), at the technology's voltage.
#pragma once

#include <cstdint>

#include "tech/technology.h"

namespace tessel::tech {

struct MemoryCost {
  double read_pj_per_byte = 0;
  double write_pj_per_byte = 0;
  double area_mm2 = 0;
  double leakage_mw = 0;
};

struct SramShape {
  uint64_t capacity_bytes = 0;
  int banks = 1;
  int ports = 1;
};

MemoryCost sram(const Technology& t, const SramShape& shape);
// `bytes` of flip-flop storage built from `cells` (t.register_file or t.flip_flop).
MemoryCost cellStorage(const Technology& t, const CellTable& cells, uint64_t bytes);
// One byte moved `mm` millimetres on an on-chip wire.
double wirePjPerByte(const Technology& t, double mm);
// Leakage of `area_um2` of standard-cell logic, in mW.
double logicLeakageMw(const Technology& t, double area_um2);

}  // namespace tessel::tech
