#include "reports/xval.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "reports/format.h"
#include "util/error.h"

namespace tessel::reports {

namespace {

bool sameAccesses(const sim::OpStats& a, const sim::OpStats& b) {
  if (a.accesses.size() != b.accesses.size() || a.networks.size() != b.networks.size()) {
    return false;
  }
  for (size_t l = 0; l < a.accesses.size(); ++l) {
    const sim::LevelAccesses &x = a.accesses[l], &y = b.accesses[l];
    if (x.level != y.level || x.reads != y.reads || x.fills != y.fills || x.updates != y.updates ||
        x.timeloop_reads != y.timeloop_reads || x.read_bytes != y.read_bytes ||
        x.fill_bytes != y.fill_bytes || x.update_bytes != y.update_bytes) {
      return false;
    }
  }
  for (size_t n = 0; n < a.networks.size(); ++n) {
    const sim::NetworkTraffic &x = a.networks[n], &y = b.networks[n];
    if (x.level != y.level || x.sent_bytes != y.sent_bytes ||
        x.delivered_bytes != y.delivered_bytes) {
      return false;
    }
  }
  return true;
}

bool sameBytes(const sim::OpStats& a, const sim::OpStats& b) {
  if (a.traffic.size() != b.traffic.size()) return false;
  for (size_t l = 0; l < a.traffic.size(); ++l) {
    if (a.traffic[l].read_bytes != b.traffic[l].read_bytes ||
        a.traffic[l].write_bytes != b.traffic[l].write_bytes) {
      return false;
    }
  }
  return a.register_file_bytes == b.register_file_bytes && a.noc_bytes == b.noc_bytes &&
         a.macs == b.macs && sameAccesses(a, b);
}

double deviation(const XvalOp& o) { return std::fabs(o.ratio - 1); }

std::string percent(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (ratio - 1) * 100);
  return buf;
}

}  // namespace

int Xval::beyondTolerance() const {
  int n = 0;
  for (const XvalOp& o : ops) n += deviation(o) > tolerance + 1e-12;
  return n;
}

int Xval::byteMismatches() const {
  int n = 0;
  for (const XvalOp& o : ops) n += !o.bytes_equal;
  return n;
}

Xval crossCheck(const sim::RunStats& a, const sim::RunStats& s, double tolerance) {
  if (a.ops.size() != s.ops.size()) {
    throw Error("cross-check: the runs have " + std::to_string(a.ops.size()) + " and " +
                std::to_string(s.ops.size()) + " ops; they must be of the same plans");
  }
  Xval x;
  x.tool_version = a.tool_version;
  x.arch_name = a.arch_name;
  x.arch_hash = a.arch_hash;
  x.workload = a.workload;
  x.options = a.options;
  x.tolerance = tolerance;
  x.analytical = a.totalCycles();
  x.systemc = s.totalCycles();
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const sim::OpStats& oa = a.ops[i];
    const sim::OpStats& os = s.ops[i];
    if (oa.name != os.name) {
      throw Error("cross-check: op " + std::to_string(i) + " is '" + oa.name + "' in one run and '" +
                  os.name + "' in the other");
    }
    // A fused group's members share one pipeline: the engines agree on the group's time, not
    // necessarily on how its fill is split among the members, so the group is one row.
    auto grouped = oa.fusion_group.empty() ? x.ops.end()
                                           : std::find_if(x.ops.begin(), x.ops.end(),
                                                          [&](const XvalOp& r) { return r.name == oa.fusion_group; });
    if (grouped != x.ops.end()) {
      grouped->analytical += oa.cycles;
      grouped->systemc += os.cycles;
      grouped->bytes_equal = grouped->bytes_equal && sameBytes(oa, os);
      for (const auto& [why, cycles] : os.waits) {
        auto w = std::find_if(grouped->waits.begin(), grouped->waits.end(),
                              [&](const auto& e) { return e.first == why; });
        if (w == grouped->waits.end()) {
          grouped->waits.emplace_back(why, cycles);
        } else {
          w->second += cycles;
        }
      }
      std::stable_sort(grouped->waits.begin(), grouped->waits.end(),
                       [](const auto& l, const auto& r) { return l.second > r.second; });
      continue;
    }
    XvalOp o;
    o.name = oa.fusion_group.empty() ? oa.name : oa.fusion_group;
    o.op_class = std::string(models::nameOf(oa.op_class));
    o.placement = std::string(sim::nameOf(oa.placement));
    o.analytical = oa.cycles;
    o.systemc = os.cycles;
    o.bytes_equal = sameBytes(oa, os);
    o.waits = os.waits;
    x.ops.push_back(std::move(o));
  }
  for (XvalOp& o : x.ops) {
    o.ratio = o.analytical > 0 ? o.systemc / o.analytical : (o.systemc > 0 ? HUGE_VAL : 1.0);
  }
  return x;
}

void writeXvalTable(const Xval& x, std::ostream& out, int top) {
  out << "tessel " << x.tool_version << " | xval | arch " << x.arch_name << " ("
      << x.arch_hash.substr(0, 8) << ") | workload " << x.workload << "\n\n";
  out << "Total cycles    analytical " << cyclesText(x.analytical) << "   systemc "
      << cyclesText(x.systemc) << "   ratio " << fixedText(x.ratio(), 4) << " ("
      << percent(x.ratio()) << ")\n";
  double worst = 0;
  for (const XvalOp& o : x.ops) worst = std::max(worst, deviation(o));
  char tol[64];
  std::snprintf(tol, sizeof tol, "%.0f%%", x.tolerance * 100);
  out << "Ops             " << x.ops.size() << ", " << x.beyondTolerance() << " beyond " << tol
      << " (largest gap " << percent(1 + worst) << ")\n";
  out << "Byte counts     "
      << (x.byteMismatches() == 0 ? "identical on every op"
                                  : std::to_string(x.byteMismatches()) + " ops differ")
      << "\n";
  if (top == 0 || x.ops.empty()) return;
  std::vector<const XvalOp*> order;
  for (const XvalOp& o : x.ops) order.push_back(&o);
  std::stable_sort(order.begin(), order.end(),
                   [](const XvalOp* l, const XvalOp* r) { return deviation(*l) > deviation(*r); });
  const size_t n = top < 0 ? order.size() : std::min(order.size(), static_cast<size_t>(top));
  out << "\nLargest gaps (systemc / analytical) and what the SystemC blocks waited on\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-24s %-11s %-6s %14s %14s %8s  %s\n", "op", "class", "place",
                "analytical", "systemc", "gap", "waited on (cycles)");
  out << line;
  for (size_t i = 0; i < n; ++i) {
    const XvalOp& o = *order[i];
    std::string why;
    for (size_t w = 0; w < o.waits.size() && w < 3; ++w) {
      why += (w ? ", " : "") + o.waits[w].first + " " + cyclesText(o.waits[w].second);
    }
    if (!o.bytes_equal) why = "BYTES DIFFER; " + why;
    std::snprintf(line, sizeof line, "  %-24s %-11s %-6s %14s %14s %8s  ", o.name.c_str(),
                  o.op_class.c_str(), o.placement.c_str(), cyclesText(o.analytical).c_str(),
                  cyclesText(o.systemc).c_str(), percent(o.ratio).c_str());
    out << line << why << "\n";
  }
}

std::string xvalJsonString(const Xval& x) {
  nlohmann::json ops = nlohmann::json::array();
  for (const XvalOp& o : x.ops) {
    nlohmann::json waits = nlohmann::json::object();
    for (const auto& [why, cycles] : o.waits) waits[why] = cycles;
    ops.push_back({{"name", o.name},
                   {"class", o.op_class},
                   {"placement", o.placement},
                   {"analytical_cycles", o.analytical},
                   {"systemc_cycles", o.systemc},
                   {"ratio", o.ratio},
                   {"bytes_equal", o.bytes_equal},
                   {"waits", waits}});
  }
  nlohmann::json opts = nlohmann::json::object();
  for (const auto& [k, v] : x.options) opts[k] = v;
  nlohmann::json doc = {
      {"schema", "tessel.xval/1"},
      {"tool_version", x.tool_version},
      {"arch", {{"name", x.arch_name}, {"hash", x.arch_hash}}},
      {"workload", x.workload},
      {"options", opts},
      {"tolerance", x.tolerance},
      {"totals",
       {{"analytical_cycles", x.analytical},
        {"systemc_cycles", x.systemc},
        {"ratio", x.ratio()},
        {"ops", x.ops.size()},
        {"beyond_tolerance", x.beyondTolerance()},
        {"byte_mismatches", x.byteMismatches()}}},
      {"ops", ops}};
  return doc.dump(2) + "\n";
}

}  // namespace tessel::reports
