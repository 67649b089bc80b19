#include "sweep/metric_names.h"

namespace tessel::sweep {

const std::vector<MetricInfo>& metricCatalog() {
  using B = Better;
  static const std::vector<MetricInfo> catalog = {
      {"cycles", B::Lower, false},
      {"seconds", B::Lower, false},
      {"energy_pj", B::Lower, false},
      {"dynamic_energy_pj", B::Lower, false},
      {"clocked_energy_pj", B::Lower, false},
      {"static_energy_pj", B::Lower, false},
      {"power_w", B::Lower, false},
      {"energy_per_mac_pj", B::Lower, false},
      {"macs", B::Lower, false},
      {"tops", B::Higher, false},
      {"tops_per_w", B::Higher, false},
      {"tops_per_mm2", B::Higher, false},
      {"utilization", B::Higher, false},
      {"dram_bytes", B::Lower, false},
      {"sram_bytes", B::Lower, false},
      {"area_mm2", B::Lower, false},
      {"edp_pj_s", B::Lower, false},
      {"matmul_cycles", B::Lower, false},
      {"matmul_utilization", B::Higher, false},
      {"by_class", B::None, false},
      {"by_cause", B::None, false},
      // What sets the off-chip rate: every ok line has them, so a flat axis can be explained.
      {"offchip_limit", B::None, true},
      {"offchip_bytes_per_cycle", B::Higher, true},
  };
  return catalog;
}

const std::vector<std::string>& metricNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const MetricInfo& m : metricCatalog()) v.push_back(m.name);
    return v;
  }();
  return names;
}

const std::vector<std::string>& numericMetricNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const MetricInfo& m : metricCatalog()) {
      if (m.better != Better::None) v.push_back(m.name);
    }
    return v;
  }();
  return names;
}

std::optional<std::string> canonicalMetric(std::string_view name) {
  if (name == "static_energy") return std::string("static_energy_pj");
  if (metricInfo(name)) return std::string(name);
  return std::nullopt;
}

const MetricInfo* metricInfo(std::string_view name) {
  for (const MetricInfo& m : metricCatalog()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

}  // namespace tessel::sweep
