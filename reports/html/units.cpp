#include "reports/html/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace tessel::reports::html {
namespace {

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

Unit fixedUnit(const std::string& noun, const std::string& unit) {
  return {noun, unit, UnitKind::Fixed, "", "", 0};
}

Unit bytesUnit(const std::string& noun) { return {noun, "B", UnitKind::Bytes, "", "", 0}; }

// The SI prefix of 10^e, e a multiple of 3 in [-12, 12].
const char* siPrefix(int e) {
  static const char* const kPrefix[] = {"p", "n", "\u00b5", "m", "", "k", "M", "G", "T"};
  return kPrefix[(e + 12) / 3];
}

// The multiple of 3 at or below log10(v), within [lo, hi].
int thousands(double v, int lo, int hi) {
  const int e = static_cast<int>(std::floor(std::log10(v) / 3 + 1e-9)) * 3;
  return std::clamp(e, lo, hi);
}

}  // namespace

Unit countUnit(const std::string& noun, const std::string& what) {
  return {noun, what, UnitKind::Count, "", "", 0};
}

Unit siUnit(const std::string& noun, const std::string& symbol, int power) {
  return {noun, std::string(power == 0 ? "" : siPrefix(power)) + symbol, UnitKind::Si, symbol, "",
          power};
}

Unit metricUnit(const std::string& metric) {
  static const std::pair<const char*, const char*> kEnergy[] = {
      {"energy_pj", "energy"},
      {"dynamic_energy_pj", "dynamic energy"},
      {"clocked_energy_pj", "clocked energy"},
      {"static_energy_pj", "static energy"},
      {"energy_per_mac_pj", "energy per MAC"}};
  for (const auto& [name, noun] : kEnergy) {
    if (metric == name) return siUnit(noun, "J", -12);
  }
  if (metric == "cycles") return countUnit("latency", "cycles");
  if (metric == "matmul_cycles") return countUnit("matmul latency", "cycles");
  if (metric == "seconds") return siUnit("latency", "s", 0);
  if (metric == "edp_pj_s") {
    Unit u = siUnit("energy-delay product", "J", -12);
    u.suffix = "\u00b7s";
    u.base += u.suffix;
    return u;
  }
  if (metric == "power_w") return siUnit("power", "W", 0);
  if (metric == "area_mm2") return fixedUnit("area", "mm\u00b2");
  if (metric == "tops") return fixedUnit("throughput", "TOPS");
  if (metric == "peak_tops") return fixedUnit("peak throughput", "TOPS");
  if (metric == "tops_per_w") return fixedUnit("efficiency", "TOPS/W");
  if (metric == "tops_per_mm2") return fixedUnit("area efficiency", "TOPS/mm\u00b2");
  if (metric == "utilization" || metric == "matmul_utilization") {
    return {metric == "utilization" ? "utilization" : "matmul utilization",
            "ratio",
            UnitKind::Percent,
            "",
            "",
            0};
  }
  if (metric == "sram_bytes") return bytesUnit("SRAM");
  if (metric == "dram_bytes") return bytesUnit("DRAM traffic");
  if (endsWith(metric, "bytes")) return bytesUnit(metric);
  if (metric == "macs") return countUnit("MACs", "MACs");
  return countUnit(metric, "");
}

ShownUnit showUnit(const Unit& u, double magnitude) {
  if (u.kind == UnitKind::Percent) return {"%", 0.01};
  if (u.kind == UnitKind::Fixed || !(magnitude > 0) || !std::isfinite(magnitude)) {
    return {u.kind == UnitKind::Bytes ? "B" : u.base, 1};
  }
  if (u.kind == UnitKind::Bytes) {
    static const char* const kBinary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int p = 0;
    while (p < 5 && magnitude >= std::pow(1024.0, p + 1)) ++p;
    return {kBinary[p], std::pow(1024.0, p)};
  }
  if (u.kind == UnitKind::Count) {
    static const char* const kWords[] = {"", "k", "M", "G", "T", "P", "E"};
    const int e = thousands(magnitude, 0, 18);
    const std::string prefix = kWords[e / 3];
    const std::string name = prefix.empty()   ? u.base
                             : u.base.empty() ? prefix
                                              : prefix + " " + u.base;
    return {name, std::pow(10.0, e)};
  }
  // Si: seconds stop at s (a minute is not "ks"); the rest at tera.
  const int top = u.symbol == "s" ? 0 : 12;
  const int e = thousands(magnitude * std::pow(10.0, u.power), -12, top);
  return {siPrefix(e) + u.symbol + u.suffix, std::pow(10.0, e - u.power)};
}

std::string axisTitle(const Unit& u, const ShownUnit& s) {
  return s.name.empty() ? u.noun : u.noun + " (" + s.name + ")";
}

std::string unitText(const Unit& u, double v) {
  const ShownUnit s = showUnit(u, std::fabs(v));
  const double shown = v / s.factor, a = std::fabs(shown);
  char buf[64];
  if (a == std::floor(a) && a < 1000) {
    std::snprintf(buf, sizeof buf, "%.0f", shown);
  } else if (a < 1 || a >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.3g", shown);
  } else {
    std::snprintf(buf, sizeof buf, "%.*f", a < 9.995 ? 2 : a < 99.95 ? 1 : 0, shown);
  }
  if (s.name.empty()) return buf;
  return std::string(buf) + (s.name == "%" ? "" : " ") + s.name;
}

}  // namespace tessel::reports::html
