// summary(): one screen describing a loaded accelerator, for `tessel arch check`.
#include <algorithm>
#include <iomanip>
#include <sstream>

#include "arch/bandwidth.h"
#include "arch/load.h"
#include "util/suggest.h"
#include "util/units.h"

namespace tessel::arch {
namespace {

using units::formatBytes;
using units::formatNumber;

std::string holdsText(const Holds& h) {
  std::vector<std::string> names;
  if (h.inputs) names.push_back("inputs");
  if (h.weights) names.push_back("weights");
  if (h.outputs) names.push_back("outputs");
  return joinNames(names);
}

std::string cycles(double c) { return formatNumber(c) + (c == 1 ? " cycle" : " cycles"); }

void levelLine(std::ostringstream& out, const StorageLevel& l) {
  out << "  " << std::left << std::setw(14) << l.name << std::right << std::setw(9)
      << (l.capacity_bytes ? formatBytes(l.capacity_bytes) : "unbounded") << "  " << std::setw(7)
      << formatNumber(l.bandwidth) << " B/cycle  latency " << std::left << std::setw(11)
      << cycles(l.latency) << " ";
  if (l.row_bytes > 0) {
    out << l.banks << " x " << formatBytes(static_cast<uint64_t>(l.row_bytes)) << " rows, ";
  }
  if (l.row_bytes > 0 || l.ports != 1) out << l.ports << (l.ports == 1 ? " port; " : " ports; ");
  out << holdsText(l.holds);
  if (l.kind == LevelKind::Accumulator) out << " (" << nameOf(l.dtype) << ")";
  if (l.partitioned) {
    static const char* const kPools[] = {"inputs ", "weights ", "outputs "};
    std::string pools;
    for (size_t t = 0; t < 3; ++t) {
      if (l.tensor_capacity[t] == 0) continue;
      pools +=
          (pools.empty() ? "" : ", ") + std::string(kPools[t]) + formatBytes(l.tensor_capacity[t]);
    }
    out << (l.kind == LevelKind::ClusterBuffer ? " (per instance: " : " (pools: ") << pools << ")";
  }
  out << "\n";
  const Fanout& f = l.fanout;
  if (f.instances > 1) {
    out << "    fan-out x" << f.instances;
    if (f.mesh_x > 0) out << " (" << f.mesh_x << " x " << f.instances / f.mesh_x << " mesh)";
    out << (f.multicast ? ", multicast" : "") << (f.reduction ? ", reduction" : "") << ", "
        << (f.bandwidth > 0 ? formatNumber(f.bandwidth) + " B/cycle per instance" : "unlimited bandwidth")
        << ", " << formatNumber(f.energy_pj_per_byte) << " pJ/B per hop\n";
  }
}

void energyLine(std::ostringstream& out, const Accelerator& acc) {
  out << "energy: MAC " << formatNumber(acc.array.mac_energy_pj) << " pJ; per byte read/write:";
  const char* tensors[3] = {"inputs", "weights", "outputs"};
  for (const auto& l : acc.levels) {
    out << " " << l.name << " " << formatNumber(l.read_energy_pj_per_byte) << "/"
        << formatNumber(l.write_energy_pj_per_byte);
    for (int t = 0; t < 3; ++t) {
      if (l.tensor_read_pj[size_t(t)] >= 0 || l.tensor_write_pj[size_t(t)] >= 0) {
        out << " (" << tensors[t] << " " << formatNumber(l.readPj(t)) << "/" << formatNumber(l.writePj(t)) << ")";
      }
    }
    out << ",";
  }
  out << " RF " << formatNumber(acc.array.rf_energy_pj_per_byte);
  for (int t = 0; t < 3; ++t) {
    const ComputeArray& a = acc.array;
    if (a.rf_pad_read_pj[size_t(t)] < 0) continue;
    out << " (" << tensors[t] << " " << formatNumber(a.rf_pad_read_pj[size_t(t)]) << "/"
        << formatNumber(a.rf_pad_write_pj[size_t(t)]) << ")";
  }
  out << ", NoC "
      << formatNumber(acc.noc.energy_pj_per_byte) << " pJ per hop";
  if (acc.sfu) out << ", SFU " << formatNumber(acc.sfu->energy_pj_per_element) << " pJ/element";
  if (!acc.array.epilogue_pj.empty()) {
    out << "; epilogue pJ/element:";
    for (const auto& [op, pj] : acc.array.epilogue_pj) out << " " << op << " " << formatNumber(pj);
  }
  out << "\n";
}

// The process and what it gives: area and leakage per component, the PE pitch.
void siliconLines(std::ostringstream& out, const Accelerator& acc) {
  const Technology& t = acc.technology;
  out << "technology: " << (t.table.empty() ? t.node : t.table) << " at " << formatNumber(t.voltage)
      << " V; DRAM " << acc.levels.at(0).dram_type << "; PE pitch "
      << formatNumber(acc.silicon.pe_pitch_mm * 1000) << " um; MAC " << formatNumber(acc.array.mac_area_um2)
      << " um2\n";
  const Silicon& s = acc.silicon;
  out << "area " << formatNumber(s.totalArea()) << " mm2, leakage " << formatNumber(s.totalLeakage())
      << " mW:";
  for (size_t i = 0; i < s.area_mm2.size(); ++i) {
    out << " " << s.area_mm2[i].first << " " << formatNumber(s.area_mm2[i].second) << " mm2 / "
        << formatNumber(s.leakage_mw[i].second) << " mW" << (i + 1 < s.area_mm2.size() ? "," : "");
  }
  out << "\n";
  // The same by the categories publications use (sim/categories.h), and what is not counted.
  std::vector<std::pair<std::string_view, double>> by;
  for (const auto& [component, mm2] : s.area_mm2) {
    const bool level = std::any_of(acc.levels.begin(), acc.levels.end(),
                                   [&](const StorageLevel& l) { return l.name == component; });
    const std::string_view c = categoryOf(component, acc.levels.at(0).name, level);
    auto it = std::find_if(by.begin(), by.end(), [&](const auto& e) { return e.first == c; });
    if (it == by.end()) it = by.insert(by.end(), {c, 0.0});
    it->second += mm2;
  }
  out << "area by category:";
  for (size_t i = 0; i < by.size(); ++i) {
    out << " " << by[i].first << " " << formatNumber(by[i].second) << " mm2"
        << (i + 1 < by.size() ? "," : "");
  }
  out << "; not modeled: " << kNotModeled << "\n";
  // Gate counts as chip papers give them: thousands (millions from ten million on).
  const auto count = [](double gates) {
    if (gates >= 1e7) return units::formatFixed(gates / 1e6, gates < 1e8 ? 1 : 0) + " M";
    return units::formatFixed(gates / 1e3, gates < 1e5 ? 1 : 0) + " k";
  };
  out << "logic " << count(s.totalLogicGates()) << " NAND2-equivalent gates:";
  for (size_t i = 0; i < s.logic_gates.size(); ++i) {
    out << " " << s.logic_gates[i].first << " " << count(s.logic_gates[i].second)
        << (i + 1 < s.logic_gates.size() ? "," : "");
  }
  out << "\n";
  double bytes = 0, macros = 0;
  for (const Silicon::Sram& m : s.sram) {
    bytes += m.bytes;
    macros += m.macros;
  }
  out << "on-chip SRAM " << formatBytes(static_cast<uint64_t>(bytes)) << " in " << formatNumber(macros) << " macros:";
  for (size_t i = 0; i < s.sram.size(); ++i) {
    out << " " << s.sram[i].component << " " << formatBytes(static_cast<uint64_t>(s.sram[i].bytes)) << " ("
        << formatNumber(s.sram[i].macros) << ")" << (i + 1 < s.sram.size() ? "," : "");
  }
  out << "\n";
}

void arrayLines(std::ostringstream& out, const ComputeArray& a) {
  out << "array: " << nameOf(a.kind) << " " << a.rows << "x" << a.cols << ", "
      << nameOf(a.input_dtype) << " x " << nameOf(a.weight_dtype) << " -> " << nameOf(a.accum_dtype)
      << ", dataflows " << joinNames(a.dataflows) << "\n  ";
  for (const auto& [t, rate] : a.macs_per_cycle) {
    out << formatNumber(rate * a.rows * a.cols) << " " << nameOf(t) << " MACs/cycle; ";
  }
  for (const auto& m : a.mixed_macs_per_cycle) {
    out << formatNumber(m.rate * a.rows * a.cols) << " " << nameOf(m.input) << "*" << nameOf(m.weight)
        << " MACs/cycle; ";
  }
  out << "pipeline latency "
      << (a.pipeline_latency < 0 ? cycles(a.rows + a.cols - 2) + " (rows + cols - 2)"
                                 : cycles(a.pipeline_latency))
      << "\n  epilogue ops: " << (a.epilogue_ops.empty() ? "none" : joinNames(a.epilogue_ops))
      << (a.weight_double_buffered ? "; weights double-buffered" : "");
  if (a.pe_register_file_bytes > 0) {
    out << "; " << formatBytes(static_cast<uint64_t>(a.pe_register_file_bytes)) << " RF per PE";
    if (a.rf_partitioned) {
      out << " (inputs " << formatBytes(static_cast<uint64_t>(a.rf_input_bytes)) << ", weights "
          << formatBytes(static_cast<uint64_t>(a.rf_weight_bytes)) << ", outputs "
          << formatBytes(static_cast<uint64_t>(a.rf_output_bytes)) << ")";
    }
  }
  out << "\n";
}

void hostLines(std::ostringstream& out, const Accelerator& acc) {
  const Host& h = acc.host;
  out << "host: " << units::formatFrequency(h.clock_hz) << ", " << formatNumber(h.flops / 1e9)
      << " GFLOP/s, " << formatNumber(h.mem_bandwidth_bytes_per_s / 1e9) << " GB/s memory; link "
      << formatNumber(h.link_bandwidth) << " B/cycle + " << cycles(h.link_latency) << "; "
      << cycles(h.offload_overhead) << " per call; " << formatNumber(h.energy_pj_per_flop)
      << " pJ/FLOP, " << formatNumber(h.energy_pj_per_byte) << " pJ/B\n"
      << "  cycles/element:";
  for (const auto& [op, c] : h.cycles_per_element) out << " " << op << " " << formatNumber(c);
  out << "\n";
}

// Only what differs from one core and no layout preference.
void coresLines(std::ostringstream& out, const Accelerator& acc) {
  const Cores& k = acc.cores;
  if (k.count != 1 || k.fused_sync_cycles != 0) {
    out << "cores: " << k.count << " sharing the DRAM"
        << (acc.level(LevelKind::L2) ? " and L2" : "") << "; fused: " << k.count << "x wider, "
        << cycles(k.fused_sync_cycles) << " per op to keep in step\n";
  }
  const Layout& l = acc.layout;
  if (l.channel_align != 1 || l.device_lowering_align != 0) {
    out << "layout: channels padded to a multiple of " << l.channel_align << "; ";
    if (l.device_lowering_align == 0) {
      out << "the host lowers every input\n";
    } else {
      out << "the device lowers inputs whose channels are a multiple of " << l.device_lowering_align
          << "\n";
    }
  }
}

}  // namespace

std::string summary(const Accelerator& acc) {
  std::ostringstream out;
  out << acc.name << " (" << acc.hash() << ")";
  if (!acc.source.empty()) out << " from " << acc.source;
  out << "\nclock " << units::formatFrequency(acc.clock_hz) << "\n";
  if (!acc.description.empty()) out << acc.description << "\n";
  out << "memory, DRAM inwards:       capacity  bandwidth\n";
  for (const auto& l : acc.levels) levelLine(out, l);
  out << "dma: " << formatNumber(acc.dma.bus_bytes_per_cycle) << " B/cycle bus, "
      << acc.dma.max_request_bytes << " B requests, " << acc.dma.max_inflight << " in flight\n";
  out << "controller: " << acc.controller.load_entries << " load, " << acc.controller.execute_entries
      << " execute, " << acc.controller.store_entries << " store entries";
  if (acc.controller.launch_cycles > 0) out << "; " << cycles(acc.controller.launch_cycles) << " per kernel launch";
  out << "\n";
  if (acc.host.step_overhead > 0 || acc.host.sequence_overhead > 0) {
    auto us = [&](double c) { return formatNumber(c / acc.clock_hz * 1e6) + " us"; };
    out << "LLM service host work per iteration: " << us(acc.host.step_overhead) << " + "
        << us(acc.host.sequence_overhead) << " per sequence\n";
  }
  const OffChipBandwidth bw = offChipBandwidth(acc);
  out << "off-chip streaming: " << formatNumber(bw.bytes_per_cycle) << " B/cycle, set by "
      << bw.limit << " (" << bw.why << ")\n";
  arrayLines(out, acc.array);
  const Noc& n = acc.noc;
  out << "noc: " << n.kind << ", "
      << (n.bandwidth > 0 ? formatNumber(n.bandwidth) + " B/cycle" : "unlimited bandwidth")
      << (n.multicast ? ", multicast" : "") << (n.reduction ? ", reduction" : "") << "\n";
  if (acc.sfu) {
    const Sfu& s = *acc.sfu;
    out << "sfu: " << s.lanes << " lanes, " << (s.integer ? "integer" : "float") << ", "
        << cycles(s.cycles_per_vector) << "/vector: " << joinNames(s.ops) << "\n";
  } else {
    out << "sfu: none (nonlinear ops run on the host)\n";
  }
  hostLines(out, acc);
  coresLines(out, acc);
  energyLine(out, acc);
  siliconLines(out, acc);
  for (const auto& w : acc.warnings) out << "warning: " << w << "\n";
  return out.str();
}

}  // namespace tessel::arch
