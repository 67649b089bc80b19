#include "tech/memory.h"

#include <algorithm>
#include <cmath>

namespace tessel::tech {
namespace {

constexpr double kUm2PerMm2 = 1e6;
constexpr double kPwPerMw = 1e9;

}  // namespace

MemoryCost sram(const Technology& t, const SramShape& shape) {
  const SramTable& s = t.sram;
  const double bits = 8.0 * static_cast<double>(shape.capacity_bytes);
  const int banks = std::max(1, shape.banks);
  const double port_factor = 1.0 + s.extra_port_area * std::max(0, shape.ports - 1);
  MemoryCost c;
  c.area_mm2 = bits * s.cell_area_um2 * port_factor / s.array_efficiency / kUm2PerMm2;
  // Every extra port widens the cell, so bit- and word-lines grow with sqrt of its area.
  const double bank_bits = bits / banks * port_factor;
  double per_bit = s.fixed_pj_per_bit + s.sqrt_pj_per_bit * std::sqrt(bank_bits);
  if (banks > 1) per_bit += t.wire_pj_per_bit_mm * std::sqrt(c.area_mm2) / 2;
  c.read_pj_per_byte = 8.0 * per_bit * t.dynamicScale();
  c.write_pj_per_byte = c.read_pj_per_byte * s.write_ratio;
  c.leakage_mw = bits * s.leakage_pw_per_bit * port_factor * t.leakageScale() / kPwPerMw;
  return c;
}

MemoryCost cellStorage(const Technology& t, const CellTable& cells, uint64_t bytes) {
  const double bits = 8.0 * static_cast<double>(bytes);
  MemoryCost c;
  c.read_pj_per_byte = 8.0 * cells.pj_per_bit * t.dynamicScale();
  c.write_pj_per_byte = c.read_pj_per_byte;
  c.area_mm2 = bits * cells.area_um2_per_bit / kUm2PerMm2;
  c.leakage_mw = bits * cells.leakage_pw_per_bit * t.leakageScale() / kPwPerMw;
  return c;
}

double wirePjPerByte(const Technology& t, double mm) {
  return 8.0 * t.wire_pj_per_bit_mm * mm * t.dynamicScale();
}

double logicLeakageMw(const Technology& t, double area_um2) {
  return area_um2 * t.logic_leakage_pw_per_um2 * t.leakageScale() / kPwPerMw;
}

}  // namespace tessel::tech
