#include "sweep/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "models/graph.h"

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

bool wants(const std::vector<std::string>& metrics, const char* name) {
  return std::find(metrics.begin(), metrics.end(), name) != metrics.end();
}

bool isGemmClass(models::OpClass c) { return c == models::OpClass::MatMul || c == models::OpClass::Conv; }

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
  const auto [mm_cycles, mm_util] = matmul(run);
  if (wants(metrics, "cycles")) m["cycles"] = quantity(run.totalCycles());
  if (wants(metrics, "seconds")) m["seconds"] = quantity(run.seconds());
  if (wants(metrics, "energy_pj")) m["energy_pj"] = quantity(run.energyTotalPj());
  if (wants(metrics, "macs")) m["macs"] = run.totalMacs();
  if (wants(metrics, "utilization")) m["utilization"] = ratio(run.utilization());
  if (wants(metrics, "dram_bytes")) {
    m["dram_bytes"] = run.level_names.empty() ? 0 : run.bytesAt(run.level_names.front());
  }
  if (wants(metrics, "sram_bytes")) m["sram_bytes"] = sramBytes(acc);
  if (wants(metrics, "edp_pj_s")) m["edp_pj_s"] = quantity(run.energyTotalPj() * run.seconds());
  if (wants(metrics, "matmul_cycles")) m["matmul_cycles"] = quantity(mm_cycles);
  if (wants(metrics, "matmul_utilization")) m["matmul_utilization"] = ratio(mm_util);
  if (wants(metrics, "by_class")) {
    Json c = Json::object();
    for (const auto& [cls, cycles] : run.cyclesByClass()) c[models::nameOf(cls)] = quantity(cycles);
    m["by_class"] = c;
  }
  if (wants(metrics, "by_cause")) {
    Json c = Json::object();
    const auto causes = run.cyclesByCause();
    for (size_t i = 0; i < causes.size(); ++i) {
      c[std::string(sim::nameOf(static_cast<sim::Cause>(i)))] = quantity(causes[i]);
    }
    m["by_cause"] = c;
  }
  return m;
}

}  // namespace tessel::sweep
