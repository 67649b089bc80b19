// Costs of memories and wires from a technology table (docs/technology.md):
//   SRAM  per-bit read energy  e(C) = fixed + k * sqrt(C · p)    C = bits of one bank, p = port
//                                                                 area factor (longer lines)
//         + the H-tree from the macro's edge to a bank: wire · side / 2 when banks > 1
//         built of compiler macros (sramMacros): as few as the capacity, the word width and
//         the banks allow; each macro r rows x c columns of cells plus its periphery, a strip
//         P cells wide along each edge (decoders and word-line drivers; sense amplifiers,
//         write drivers and column muxes): area = cell · p · (r + P)(c + P) per macro;
//         placed as a near-square grid of gx x gy with a halo a between neighbours and along
//         the edge: n (w + a)(h + a) + a (gx (w + a) + gy (h + a)) + a², one macro
//         (w + 2a)(h + 2a); leakage = bits · leakage per bit · p
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
  int64_t macros = 0;     // SRAM: compiler macros it is built of (0 for cell storage)
  double efficiency = 1;  // SRAM: bit-cell area / macro area
  double macro_mm2 = 0;   // SRAM: the macros alone, without the halos around them (area_mm2)
};

// The largest macro a memory compiler makes (docs/technology.md, "SRAM macros"; assumed
// defaults, overridable per design under floorplan:).
struct MacroLimits {
  uint64_t max_bits = 512 * 1024;  // 64 KiB
  int max_word_bits = 256;
};

struct SramShape {
  SramShape() = default;
  SramShape(uint64_t bytes, int banks_ = 1, int ports_ = 1, int word = 64)
      : capacity_bytes(bytes), banks(banks_), ports(ports_), word_bits(word) {}
  uint64_t capacity_bytes = 0;
  int banks = 1;
  int ports = 1;
  int word_bits = 64;  // bits read or written per access (the level's row)
  MacroLimits limits;
  double halo_um = 0;  // space kept around each placed macro
};

// How a memory is cut into macros: `count` macros of `rows` x `cols` cells, `parallel` of them
// side by side to make one word.
struct MacroPlan {
  int64_t count = 1;
  int64_t parallel = 1;
  double rows = 0, cols = 0;
  double periphery_cells = 0;  // P
  double efficiency() const;   // r c / ((r + P)(c + P))
};
MacroPlan sramMacros(const Technology& t, const SramShape& shape);
// Area of `count` macros of w x h um placed as a near-square grid with `halo` um around each
// (shared between neighbours), in um².
double placedMacrosUm2(int64_t count, double w_um, double h_um, double halo_um);

MemoryCost sram(const Technology& t, const SramShape& shape);
// `bytes` of flip-flop storage built from `cells` (t.register_file or t.flip_flop).
MemoryCost cellStorage(const Technology& t, const CellTable& cells, uint64_t bytes);
// One byte moved `mm` millimetres on an on-chip wire.
double wirePjPerByte(const Technology& t, double mm);
// Leakage of `area_um2` of standard-cell logic, in mW.
double logicLeakageMw(const Technology& t, double area_um2);

}  // namespace tessel::tech
