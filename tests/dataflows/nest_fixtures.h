// Hand-built loop-nest hardware for the cost and search tests: every bandwidth and energy is a
// round number, so the expected counts can be derived on paper.
#pragma once

#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"

namespace tessel::testing {

using dataflows::nest::Dim;
using dataflows::nest::Factors;
using dataflows::nest::Hardware;
using dataflows::nest::kOnes;
using dataflows::nest::Level;
using dataflows::nest::Mapping;

// DRAM -> one shared local buffer -> rows x cols PEs. A systolic PE holds one element of each
// tensor; a spatial one has `rf` bytes per tensor (0 = none). Bandwidths 0 = unlimited.
inline Hardware tinyNest(int rows, int cols, bool systolic, double local_bytes = 1 << 20,
                         double rf = 0) {
  Hardware hw;
  Level dram;
  dram.name = "dram";
  dram.off_chip = true;
  dram.can_hold = {true, true, true};
  dram.pool_of = {0, 0, 0};
  dram.pool_bytes = {-1, -1, -1};
  dram.read_pj = dram.write_pj = {200, 200, 200};
  Level local;
  local.name = "buffer";
  local.arch_level = {1, 1, 1};
  local.can_hold = {true, true, true};
  local.pool_of = {0, 0, 0};
  local.pool_bytes = {local_bytes, -1, -1};
  local.read_pj = local.write_pj = {6, 6, 6};
  Level pe;
  pe.name = "pe";
  pe.per_pe = true;
  pe.arch_level = {-1, -1, -1};
  pe.pool_of = {0, 1, 2};
  pe.read_pj = pe.write_pj = {1, 1, 1};
  if (systolic) {
    pe.can_hold = {true, true, true};
    pe.pool_bytes = {1, 1, 4};
  } else {
    pe.can_hold = {rf > 0, rf > 0, rf > 0};
    pe.pool_bytes = {rf, rf, rf};
  }
  hw.levels = {dram, local, pe};
  hw.rows = rows;
  hw.cols = cols;
  hw.systolic = systolic;
  hw.multicast = true;
  hw.reduction = true;
  hw.noc_pj = 2;
  hw.mac_pj = 1;
  hw.fill_drain = systolic ? rows + cols - 2 : 0;
  return hw;
}

// A mapping with the given factors per level (dram, buffer, pe), orders as listed.
inline Mapping nestMapping(const Hardware& hw, Factors dram, std::vector<Dim> dram_order,
                           Factors local, std::vector<Dim> local_order, Factors pe,
                           std::vector<Dim> pe_order, Factors rows, Factors cols) {
  Mapping m;
  m.levels.resize(hw.levels.size());
  m.levels[0].factor = dram;
  m.levels[0].order = std::move(dram_order);
  m.levels[1].factor = local;
  m.levels[1].order = std::move(local_order);
  m.levels[2].factor = pe;
  m.levels[2].order = std::move(pe_order);
  m.rows = rows;
  m.cols = cols;
  return m;
}

inline Factors dims(std::initializer_list<std::pair<Dim, int64_t>> f) {
  Factors x = kOnes;
  for (const auto& [d, v] : f) x[static_cast<size_t>(d)] = v;
  return x;
}

}  // namespace tessel::testing
