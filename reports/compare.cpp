#include "reports/compare.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/breakdown.h"
#include "reports/csv.h"
#include "reports/format.h"

namespace tessel::reports {
namespace {

using Json = nlohmann::ordered_json;

std::vector<const CompareRun*> runsOf(const Comparison& c, const std::string& workload) {
  std::vector<const CompareRun*> v;
  for (const CompareRun& r : c.runs) {
    if (r.workload == workload) v.push_back(&r);
  }
  return v;
}

// Names in first-seen order over the runs that ran: energy components or storage levels.
template <class F>
std::vector<std::string> unionOf(const Comparison& c, F names) {
  std::vector<std::string> all;
  for (const CompareRun& r : c.runs) {
    if (!r.ok()) continue;
    for (const std::string& n : names(r.run)) {
      if (std::find(all.begin(), all.end(), n) == all.end()) all.push_back(n);
    }
  }
  return all;
}

std::vector<std::string> components(const Comparison& c) {
  return unionOf(c, [](const sim::RunStats& run) {
    std::vector<std::string> v;
    for (const auto& [name, pj] : run.energyByComponent()) v.push_back(name);
    return v;
  });
}

std::vector<std::string> levels(const Comparison& c) {
  return unionOf(c, [](const sim::RunStats& run) { return run.level_names; });
}

// A run's energy per component, summed over its ops once (0 for a component it lacks).
std::map<std::string, double> componentPj(const sim::RunStats& run) {
  std::map<std::string, double> pj;
  for (const auto& [name, v] : run.energyByComponent()) pj[name] = v;
  return pj;
}

// The run minimizing (or maximizing) a metric; the first asked wins a tie.
template <class F>
std::string best(const std::vector<const CompareRun*>& runs, F metric, bool lower) {
  const CompareRun* win = nullptr;
  double v = 0;
  for (const CompareRun* r : runs) {
    if (!r->ok()) continue;
    const double m = metric(r->run);
    if (!win || (lower ? m < v : m > v)) win = r, v = m;
  }
  return win ? win->dataflow : "";
}

}  // namespace

Winners winnersOf(const Comparison& c, const std::string& workload) {
  const auto runs = runsOf(c, workload);
  Winners w;
  w.latency = best(runs, [](const sim::RunStats& r) { return r.totalCycles(); }, true);
  w.energy = best(runs, [](const sim::RunStats& r) { return r.energyTotalPj(); }, true);
  w.edp = best(runs, [](const sim::RunStats& r) { return r.energyTotalPj() * r.seconds(); }, true);
  w.dram = best(runs, [](const sim::RunStats& r) { return double(dramBytes(r)); }, true);
  w.utilization = best(runs, [](const sim::RunStats& r) { return r.utilization(); }, false);
  return w;
}

std::vector<LayerWinner> layerWinners(const Comparison& c, const std::string& workload) {
  std::vector<const CompareRun*> ran;
  for (const CompareRun* r : runsOf(c, workload)) {
    if (r->ok()) ran.push_back(r);
  }
  std::vector<LayerWinner> out;
  if (ran.empty()) return out;
  std::vector<std::map<std::string, const sim::OpStats*>> by_name(ran.size());
  for (size_t i = 0; i < ran.size(); ++i) {
    for (const sim::OpStats& op : ran[i]->run.ops) by_name[i][op.name] = &op;
  }
  for (const sim::OpStats& op : ran.front()->run.ops) {
    if (op.macs <= 0) continue;
    LayerWinner l;
    l.op = op.name;
    l.op_class = std::string(models::nameOf(op.op_class));
    l.macs = op.macs;
    double best_cycles = 0, best_energy = 0;
    bool everywhere = true;
    for (size_t i = 0; i < ran.size() && everywhere; ++i) {
      const auto it = by_name[i].find(op.name);
      if (it == by_name[i].end()) {
        everywhere = false;
        break;
      }
      const double cycles = it->second->cycles, energy = it->second->energyTotal();
      l.cycles.emplace_back(ran[i]->dataflow, cycles);
      l.energy_pj.emplace_back(ran[i]->dataflow, energy);
      if (l.latency.empty() || cycles < best_cycles) l.latency = ran[i]->dataflow, best_cycles = cycles;
      if (l.energy.empty() || energy < best_energy) l.energy = ran[i]->dataflow, best_energy = energy;
    }
    if (everywhere) out.push_back(std::move(l));
  }
  return out;
}

void writeCompareTable(const Comparison& c, std::ostream& os) {
  os << "tessel " << c.tool_version << " | compare on " << c.arch_name;
  if (!c.arch_hash.empty()) os << " (" << c.arch_hash.substr(0, 8) << ")";
  os << " | mapper search, objective " << c.objective << ", budget " << c.budget << "\n";
  const auto comps = components(c);
  const auto lvls = levels(c);
  for (const std::string& w : c.workloads) {
    const auto runs = runsOf(c, w);
    os << "\n" << w << "\n  " << padRight("dataflow", 9) << padLeft("cycles", 16)
       << padLeft("time", 11) << padLeft("energy", 11) << padLeft("util%", 7)
       << padLeft("DRAM", 12) << padLeft("RF", 12) << padLeft("NoC", 12) << "\n";
    for (const CompareRun* r : runs) {
      os << "  " << padRight(r->dataflow, 9);
      if (!r->ok()) {
        os << "cannot run: " << r->refused << "\n";
        continue;
      }
      const sim::RunStats& run = r->run;
      os << padLeft(cyclesText(run.totalCycles()), 16) << padLeft(engSeconds(run.seconds()), 11)
         << padLeft(engEnergyPj(run.energyTotalPj()), 11)
         << padLeft(percentText(run.utilization()), 7) << padLeft(binaryBytes(dramBytes(run)), 12)
         << padLeft(binaryBytes(run.registerFileBytes()), 12)
         << padLeft(binaryBytes(run.nocBytes()), 12) << "\n";
    }
    os << "  energy by component\n  " << padRight("dataflow", 9);
    for (const std::string& comp : comps) os << padLeft(comp, std::max<int>(11, int(comp.size()) + 1));
    os << "\n";
    for (const CompareRun* r : runs) {
      if (!r->ok()) continue;
      os << "  " << padRight(r->dataflow, 9);
      auto pj = componentPj(r->run);
      for (const std::string& comp : comps) {
        os << padLeft(engEnergyPj(pj[comp]), std::max<int>(11, int(comp.size()) + 1));
      }
      os << "\n";
    }
    os << "  accesses (bytes read + written)\n  " << padRight("dataflow", 9);
    for (const std::string& l : lvls) os << padLeft(l, std::max<int>(12, int(l.size()) + 1));
    os << padLeft("register_file", 14) << padLeft("noc", 12) << "\n";
    for (const CompareRun* r : runs) {
      if (!r->ok()) continue;
      os << "  " << padRight(r->dataflow, 9);
      for (const std::string& l : lvls) {
        os << padLeft(binaryBytes(r->run.bytesAt(l)), std::max<int>(12, int(l.size()) + 1));
      }
      os << padLeft(binaryBytes(r->run.registerFileBytes()), 14)
         << padLeft(binaryBytes(r->run.nocBytes()), 12) << "\n";
    }
    const Winners win = winnersOf(c, w);
    if (win.latency.empty()) {
      os << "  no dataflow could run " << w << "\n";
      continue;
    }
    os << "  winners: latency " << win.latency << ", energy " << win.energy << ", EDP " << win.edp
       << ", DRAM traffic " << win.dram << ", utilization " << win.utilization << "\n";
    std::map<std::string, int> lat, en;
    const auto layers = layerWinners(c, w);
    for (const LayerWinner& l : layers) ++lat[l.latency], ++en[l.energy];
    auto counts = [&](const std::map<std::string, int>& m) {
      std::string s;
      for (const std::string& df : c.dataflows) {
        if (auto it = m.find(df); it != m.end()) s += (s.empty() ? "" : ", ") + df + " " + std::to_string(it->second);
      }
      return s;
    };
    os << "  per-layer wins of " << layers.size() << " layers: latency " << counts(lat)
       << "; energy " << counts(en) << "\n";
  }
}

std::string compareJson(const Comparison& c) {
  Json workloads = Json::array();
  for (const std::string& w : c.workloads) {
    Json runs = Json::array();
    for (const CompareRun* r : runsOf(c, w)) {
      Json j = {{"dataflow", r->dataflow}, {"ok", r->ok()}};
      if (!r->ok()) {
        j["reason"] = r->refused;
        runs.push_back(j);
        continue;
      }
      const sim::RunStats& run = r->run;
      Json energy = Json::object(), levels_j = Json::object(), tensors = Json::object();
      for (const auto& [n, pj] : run.energyByComponent()) energy[n] = roundQuantity(pj);
      for (const std::string& l : run.level_names) levels_j[l] = run.bytesAt(l);
      const auto by_t = run.energyByOperand();
      for (int t = 0; t < sim::kNumOperands; ++t) {
        tensors[std::string(sim::nameOf(static_cast<sim::Operand>(t)))] = roundQuantity(by_t[t]);
      }
      j["cycles"] = roundQuantity(run.totalCycles());
      j["seconds"] = roundQuantity(run.seconds());
      j["energy_pj"] = roundQuantity(run.energyTotalPj());
      j["edp_pj_s"] = roundQuantity(run.energyTotalPj() * run.seconds());
      j["utilization"] = roundRatio(run.utilization());
      j["macs"] = run.totalMacs();
      j["dram_bytes"] = dramBytes(run);
      j["bytes_by_level"] = levels_j;
      j["register_file_bytes"] = run.registerFileBytes();
      j["noc_bytes"] = run.nocBytes();
      j["energy_by_component"] = energy;
      j["energy_by_tensor"] = tensors;
      runs.push_back(j);
    }
    const Winners win = winnersOf(c, w);
    Json layers = Json::array();
    for (const LayerWinner& l : layerWinners(c, w)) {
      Json cyc = Json::object(), en = Json::object();
      for (const auto& [df, v] : l.cycles) cyc[df] = roundQuantity(v);
      for (const auto& [df, v] : l.energy_pj) en[df] = roundQuantity(v);
      layers.push_back({{"op", l.op}, {"class", l.op_class}, {"macs", l.macs}, {"cycles", cyc},
                        {"energy_pj", en}, {"winner", {{"latency", l.latency}, {"energy", l.energy}}}});
    }
    workloads.push_back({{"workload", w},
                         {"runs", runs},
                         {"winners",
                          {{"latency", win.latency},
                           {"energy", win.energy},
                           {"edp", win.edp},
                           {"dram_bytes", win.dram},
                           {"utilization", win.utilization}}},
                         {"layers", layers}});
  }
  const Json doc = {{"schema_version", 1},
                    {"kind", "compare"},
                    {"tool", "tessel"},
                    {"tool_version", c.tool_version},
                    {"arch", {{"name", c.arch_name}, {"hash", c.arch_hash}}},
                    {"mapper", {{"name", "search"}, {"objective", c.objective}, {"budget", c.budget}}},
                    {"dataflows", c.dataflows},
                    {"workloads", workloads}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string compareCsv(const Comparison& c) {
  const auto comps = components(c);
  const auto lvls = levels(c);
  std::ostringstream os;
  os << "workload,dataflow,status,reason,cycles,seconds,energy_pj,utilization,dram_bytes";
  for (const std::string& l : lvls) os << "," << csvField("bytes_" + l);
  os << ",register_file_bytes,noc_bytes";
  for (const std::string& comp : comps) os << "," << csvField("energy_pj_" + comp);
  os << "\n";
  for (const CompareRun& r : c.runs) {
    os << csvField(r.workload) << "," << csvField(r.dataflow) << ","
       << (r.ok() ? "ok" : "refused") << "," << csvField(r.refused);
    if (!r.ok()) {
      for (size_t i = 0; i < 5 + lvls.size() + 2 + comps.size(); ++i) os << ",";
      os << "\n";
      continue;
    }
    const sim::RunStats& run = r.run;
    os << "," << quantityText(run.totalCycles()) << "," << quantityText(run.seconds()) << ","
       << quantityText(run.energyTotalPj()) << "," << ratioText(run.utilization()) << ","
       << dramBytes(run);
    for (const std::string& l : lvls) os << "," << run.bytesAt(l);
    os << "," << run.registerFileBytes() << "," << run.nocBytes();
    auto pj = componentPj(run);
    for (const std::string& comp : comps) os << "," << quantityText(pj[comp]);
    os << "\n";
  }
  return os.str();
}

}  // namespace tessel::reports
