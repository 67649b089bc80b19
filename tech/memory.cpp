#include "tech/memory.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace tessel::tech {
namespace {

constexpr double kUm2PerMm2 = 1e6;
constexpr double kPwPerMw = 1e9;

// The table's array_efficiency is CACTI's for a 64 KB macro (configs/tech/*.yaml, sram): the
// periphery strip P is the width that gives a square macro of that size that efficiency.
constexpr double kEfficiencyAnchorBits = 512.0 * 1024;

double peripheryCells(const SramTable& s) {
  return std::sqrt(kEfficiencyAnchorBits) * (1.0 / std::sqrt(s.array_efficiency) - 1.0);
}

// Rows and columns of a macro of `bits` read `word` bits at a time: the column mux (a power of
// two) that makes it closest to square, as memory compilers offer.
std::pair<double, double> macroShape(double bits, double word) {
  double best_rows = bits / word, best_cols = word;
  for (double mux = 2; mux <= 256; mux *= 2) {
    const double cols = word * mux, rows = bits / cols;
    if (rows < 1) break;
    if (std::abs(std::log(rows / cols)) < std::abs(std::log(best_rows / best_cols))) {
      best_rows = rows;
      best_cols = cols;
    }
  }
  return {best_rows, best_cols};
}

}  // namespace

double MacroPlan::efficiency() const {
  return rows * cols / ((rows + periphery_cells) * (cols + periphery_cells));
}

MacroPlan sramMacros(const Technology& t, const SramShape& shape) {
  MacroPlan m;
  m.periphery_cells = peripheryCells(t.sram);
  const double bits = 8.0 * static_cast<double>(shape.capacity_bytes);
  if (bits <= 0) return m;
  const auto ceilDiv = [](double a, double b) { return static_cast<int64_t>(std::min(std::ceil(a / b), 1e15)); };
  const double word = std::max(1, shape.word_bits);
  m.parallel = std::max<int64_t>(1, ceilDiv(word, std::max(1, shape.limits.max_word_bits)));
  m.count = std::max({static_cast<int64_t>(std::max(1, shape.banks)), m.parallel,
                      ceilDiv(bits, static_cast<double>(std::max<uint64_t>(1, shape.limits.max_bits)))});
  m.count = ceilDiv(static_cast<double>(m.count), static_cast<double>(m.parallel)) * m.parallel;
  const double macro_bits = bits / static_cast<double>(m.count);
  std::tie(m.rows, m.cols) = macroShape(macro_bits, std::min(word / static_cast<double>(m.parallel), macro_bits));
  return m;
}

double placedMacrosUm2(int64_t count, double w_um, double h_um, double halo_um) {
  if (count <= 0) return 0;
  const double n = static_cast<double>(count);
  const double gx = std::ceil(std::sqrt(n)), gy = std::ceil(n / gx);
  const double a = halo_um, tw = w_um + a, th = h_um + a;
  return n * tw * th + a * (gx * tw + gy * th) + a * a;
}

MemoryCost sram(const Technology& t, const SramShape& shape) {
  const SramTable& s = t.sram;
  const double bits = 8.0 * static_cast<double>(shape.capacity_bytes);
  const int banks = std::max(1, shape.banks);
  const double port_factor = 1.0 + s.extra_port_area * std::max(0, shape.ports - 1);
  MemoryCost c;
  const MacroPlan plan = sramMacros(t, shape);
  c.macros = bits > 0 ? plan.count : 0;
  c.efficiency = plan.efficiency();
  if (bits > 0) {
    c.macro_mm2 = bits * s.cell_area_um2 * port_factor / c.efficiency / kUm2PerMm2;
    const double cell_side = std::sqrt(s.cell_area_um2 * port_factor);
    c.area_mm2 = placedMacrosUm2(plan.count, (plan.cols + plan.periphery_cells) * cell_side,
                                 (plan.rows + plan.periphery_cells) * cell_side, shape.halo_um) /
                 kUm2PerMm2;
  }
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

double nand2AreaUm2(const Technology& t) {
  constexpr double kNangateNand2Um2 = 0.798, kHorowitzAdd32Um2 = 137;
  return kNangateNand2Um2 * t.int_add.area_um2 / kHorowitzAdd32Um2;
}

double nand2SwitchPj(const Technology& t) {
  return t.int_add.energy_pj * t.dynamicScale() / (t.int_add.area_um2 / nand2AreaUm2(t));
}

double logicLeakageMw(const Technology& t, double area_um2) {
  return area_um2 * t.logic_leakage_pw_per_um2 * t.leakageScale() / kPwPerMw;
}

}  // namespace tessel::tech
