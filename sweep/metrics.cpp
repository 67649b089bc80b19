#include "sweep/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>

#include "models/graph.h"
#include "sweep/metric_names.h"

namespace tessel::sweep {
namespace {

using Json = nlohmann::ordered_json;

double quantity(double v) {
  if (v == 0 || !std::isfinite(v)) return 0;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return std::strtod(buf, nullptr);
}

double ratio(double v) { return std::round(v * 1e6) / 1e6; }

bool isGemmClass(models::OpClass c) {
  return c == models::OpClass::MatMul || c == models::OpClass::Conv;
}

// Cycles and cycle-weighted utilization of the GEMM-like ops (classes MatMul and Conv).
std::pair<double, double> matmul(const sim::RunStats& run) {
  double cycles = 0, weighted = 0;
  for (const sim::OpStats& op : run.ops) {
    if (!isGemmClass(op.op_class)) continue;
    cycles += op.cycles;
    weighted += op.utilization * op.cycles;
  }
  return {cycles, cycles > 0 ? weighted / cycles : 0.0};
}

Json byClass(const sim::RunStats& run) {
  Json c = Json::object();
  for (const auto& [cls, cycles] : run.cyclesByClass()) c[models::nameOf(cls)] = quantity(cycles);
  return c;
}

Json byCause(const sim::RunStats& run) {
  Json c = Json::object();
  const auto causes = run.cyclesByCause();
  for (size_t i = 0; i < causes.size(); ++i) {
    c[std::string(sim::nameOf(static_cast<sim::Cause>(i)))] = quantity(causes[i]);
  }
  return c;
}

using Compute = std::function<Json(const sim::RunStats&, const arch::Accelerator&)>;

// How each metric of the catalog is computed, by name.
const std::vector<std::pair<std::string, Compute>>& computations() {
  using R = const sim::RunStats&;
  using A = const arch::Accelerator&;
  static const std::vector<std::pair<std::string, Compute>> table = {
      {"cycles", [](R r, A) { return Json(quantity(r.totalCycles())); }},
      {"seconds", [](R r, A) { return Json(quantity(r.seconds())); }},
      {"energy_pj", [](R r, A) { return Json(quantity(r.energyTotalPj())); }},
      {"dynamic_energy_pj", [](R r, A) { return Json(quantity(r.dynamicEnergyPj())); }},
      {"clocked_energy_pj", [](R r, A) { return Json(quantity(r.clockedEnergyPj())); }},
      {"static_energy_pj", [](R r, A) { return Json(quantity(r.staticEnergyPj())); }},
      {"power_w", [](R r, A) { return Json(quantity(r.powerW())); }},
      {"energy_per_mac_pj", [](R r, A) { return Json(quantity(r.energyPerMacPj())); }},
      {"macs", [](R r, A) { return Json(r.totalMacs()); }},
      {"tops", [](R r, A) { return Json(quantity(r.tops())); }},
      {"tops_per_w", [](R r, A) { return Json(quantity(r.topsPerW())); }},
      {"tops_per_mm2", [](R r, A) { return Json(quantity(r.topsPerMm2())); }},
      {"utilization", [](R r, A) { return Json(ratio(r.utilization())); }},
      {"dram_bytes",
       [](R r, A) { return Json(r.level_names.empty() ? 0 : r.bytesAt(r.level_names.front())); }},
      {"sram_bytes", [](R, A a) { return Json(sramBytes(a)); }},
      {"area_mm2", [](R r, A) { return Json(quantity(r.areaMm2())); }},
      {"edp_pj_s", [](R r, A) { return Json(quantity(r.energyTotalPj() * r.seconds())); }},
      {"matmul_cycles", [](R r, A) { return Json(quantity(matmul(r).first)); }},
      {"matmul_utilization", [](R r, A) { return Json(ratio(matmul(r).second)); }},
      {"by_class", [](R r, A) { return byClass(r); }},
      {"by_cause", [](R r, A) { return byCause(r); }},
      {"offchip_limit", [](R r, A) { return Json(r.offchip_limit); }},
      {"offchip_bytes_per_cycle", [](R r, A) { return Json(quantity(r.offchip_bytes_per_cycle)); }},
  };
  return table;
}

}  // namespace

uint64_t sramBytes(const arch::Accelerator& acc) {
  uint64_t total = 0;
  for (const arch::StorageLevel& l : acc.levels) {
    if (l.kind != arch::LevelKind::DRAM && l.kind != arch::LevelKind::L2) total += l.capacity_bytes;
  }
  return total;
}

Json metricsJson(const sim::RunStats& run, const arch::Accelerator& acc,
                 const std::vector<std::string>& metrics) {
  Json m = Json::object();
  for (const auto& [name, compute] : computations()) {
    const bool listed = std::find(metrics.begin(), metrics.end(), name) != metrics.end();
    const MetricInfo* info = metricInfo(name);
    if (listed || (info && info->always)) m[name] = compute(run, acc);
  }
  return m;
}

}  // namespace tessel::sweep
