#include "sim/categories.h"

#include <algorithm>
#include <array>

#include "arch/accelerator.h"

namespace tessel::sim {

std::vector<CategoryRow> byCategory(const RunStats& run) {
  static constexpr std::array<std::string_view, 9> kOrder{
      "compute", "on-chip memory", "noc", "control", "clock", "I/O", "other", "dram", "host"};
  std::vector<CategoryRow> rows;
  for (std::string_view c : kOrder) rows.push_back({std::string(c), c != "dram" && c != "host"});
  // The outermost storage level is the off-chip memory; the others are on the die.
  const std::string_view dram =
      run.level_names.empty() ? std::string_view() : std::string_view(run.level_names.front());
  const auto row = [&](std::string_view component) -> CategoryRow& {
    const bool level = std::find(run.level_names.begin(), run.level_names.end(), component) !=
                       run.level_names.end();
    const std::string_view c = arch::categoryOf(component, dram, level);
    return *std::find_if(rows.begin(), rows.end(), [&](const CategoryRow& r) { return r.category == c; });
  };
  const double s = run.seconds();
  for (const auto& [component, pj] : run.energyByComponent()) {
    if (component == "static" || s <= 0) continue;
    row(component).dynamic_w += pj * 1e-12 / s;
  }
  for (const auto& [component, mm2] : run.area_mm2) row(component).area_mm2 += mm2;
  for (const auto& [component, mw] : run.leakage_mw) row(component).leakage_w += mw * 1e-3;
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const CategoryRow& r) {
                              return r.area_mm2 == 0 && r.dynamic_w == 0 && r.leakage_w == 0;
                            }),
             rows.end());
  return rows;
}

}  // namespace tessel::sim
