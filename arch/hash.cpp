#include "arch/hash.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "arch/accelerator.h"
#include "arch/schema.h"

namespace tessel::arch {

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string toHex(uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
  return buf;
}

namespace {

// "key=value\n" with doubles at full precision, so equal specs give equal text everywhere.
class Canon {
 public:
  void put(const std::string& key, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    line(key, buf);
  }
  void put(const std::string& key, uint64_t v) { line(key, std::to_string(v)); }
  void put(const std::string& key, int v) { line(key, std::to_string(v)); }
  void put(const std::string& key, bool v) { line(key, v ? "true" : "false"); }
  void put(const std::string& key, std::string_view v) { line(key, std::string(v)); }
  void put(const std::string& key, const std::vector<std::string>& v) {
    std::string joined;
    for (const auto& s : v) joined += s + ",";
    line(key, joined);
  }
  std::string str() const { return out_.str(); }

 private:
  void line(const std::string& key, const std::string& value) {
    out_ << key << '=' << value << '\n';
  }
  std::ostringstream out_;
};

void putLevel(Canon& c, const StorageLevel& l) {
  const std::string p = "level." + l.name + ".";
  c.put(p + "kind", nameOf(l.kind));
  c.put(p + "capacity", l.capacity_bytes);
  c.put(p + "banks", l.banks);
  c.put(p + "row_bytes", l.row_bytes);
  c.put(p + "ports", l.ports);
  c.put(p + "holds", std::string(l.holds.inputs ? "i" : "") + (l.holds.weights ? "w" : "") +
                         (l.holds.outputs ? "o" : ""));
  c.put(p + "bandwidth", l.bandwidth);
  c.put(p + "latency", l.latency);
  c.put(p + "read_energy", l.read_energy_pj_per_byte);
  c.put(p + "write_energy", l.write_energy_pj_per_byte);
  c.put(p + "dtype", nameOf(l.dtype));
  c.put(p + "area", l.area_mm2);
  if (l.drain_pj_per_byte >= 0) c.put(p + "drain_energy", l.drain_pj_per_byte);
  c.put(p + "leakage", l.leakage_mw);
  // Only when set: designs written before fan-outs and per-tensor energies keep their hashes.
  const Fanout& f = l.fanout;
  if (f.instances != 1) {
    c.put(p + "fanout.instances", f.instances);
    c.put(p + "fanout.mesh_x", f.mesh_x);
    c.put(p + "fanout.multicast", f.multicast);
    c.put(p + "fanout.reduction", f.reduction);
    c.put(p + "fanout.bandwidth", f.bandwidth);
    c.put(p + "fanout.energy", f.energy_pj_per_byte);
    if (!f.split_reduction) c.put(p + "fanout.split_reduction", false);
  }
  if (l.partitioned) {
    c.put(p + "capacity.inputs", l.tensor_capacity[0]);
    c.put(p + "capacity.weights", l.tensor_capacity[1]);
    c.put(p + "capacity.outputs", l.tensor_capacity[2]);
  }
  const char* tensors[3] = {"inputs", "weights", "outputs"};
  for (size_t t = 0; t < 3; ++t) {
    if (l.tensor_read_pj[t] >= 0) c.put(p + "tensors." + tensors[t] + ".read_energy", l.tensor_read_pj[t]);
    if (l.tensor_write_pj[t] >= 0) c.put(p + "tensors." + tensors[t] + ".write_energy", l.tensor_write_pj[t]);
  }
}

void putArray(Canon& c, const ComputeArray& a) {
  c.put("array.rows", a.rows);
  c.put("array.cols", a.cols);
  c.put("array.kind", nameOf(a.kind));
  c.put("array.input_dtype", nameOf(a.input_dtype));
  c.put("array.weight_dtype", nameOf(a.weight_dtype));
  c.put("array.accum_dtype", nameOf(a.accum_dtype));
  c.put("array.dataflows", a.dataflows);
  for (const auto& [t, rate] : a.macs_per_cycle)
    c.put("array.throughput." + std::string(nameOf(t)), rate);
  for (const auto& m : a.mixed_macs_per_cycle)
    c.put("array.throughput." + std::string(nameOf(m.input)) + "*" + std::string(nameOf(m.weight)), m.rate);
  c.put("array.weight_double_buffered", a.weight_double_buffered);
  c.put("array.register_file", a.pe_register_file_bytes);
  if (a.rf_partitioned) {  // only then: the hashes of designs without split pads stay as they were
    c.put("array.register_file.inputs", a.rf_input_bytes);
    c.put("array.register_file.weights", a.rf_weight_bytes);
    c.put("array.register_file.outputs", a.rf_output_bytes);
  }
  c.put("array.register_file_energy", a.rf_energy_pj_per_byte);
  for (size_t t = 0; t < 3; ++t) {  // a split file's pads: only then, as above
    if (a.rf_pad_read_pj[t] < 0) continue;
    c.put("array.register_file_energy.pad" + std::to_string(t), a.rf_pad_read_pj[t]);
    c.put("array.register_file_energy.pad_write" + std::to_string(t), a.rf_pad_write_pj[t]);
  }
  if (a.hasRegisters()) {
    c.put("array.registers.inputs", a.reg_input_bytes);
    c.put("array.registers.weights", a.reg_weight_bytes);
    c.put("array.registers.outputs", a.reg_output_bytes);
    c.put("array.register_energy", a.reg_energy_pj_per_byte);
  }
  c.put("array.epilogue_ops", a.epilogue_ops);
  if (!a.epilogue_ops.empty()) {  // only then: the hashes of designs without one stay as they were
    for (const auto& [op, pj] : a.epilogue_pj) c.put("array.epilogue_energy." + op, pj);
    c.put("array.epilogue_area", a.epilogue_area_mm2);
    c.put("array.epilogue_leakage", a.epilogue_leakage_mw);
  }
  c.put("array.mac_energy", a.mac_energy_pj);
  for (const auto& [t, pj] : a.mac_energy_by_dtype) c.put("array.mac_energy." + std::string(nameOf(t)), pj);
  c.put("array.mac_area", a.mac_area_um2);
  if (a.rf_drain_pj_per_byte >= 0) c.put("array.register_file_drain_energy", a.rf_drain_pj_per_byte);
  c.put("array.area", a.area_mm2);
  c.put("array.leakage", a.leakage_mw);
  c.put("array.register_file_area", a.register_file_area_mm2);
  c.put("array.register_file_leakage", a.register_file_leakage_mw);
  c.put("array.pipeline_latency", a.pipeline_latency);
}

// Host costs of the layout ops at their defaults are left out, as are cores and layout sections
// at theirs: designs that do not set them keep the hashes they had before these existed.
bool isLayoutOpDefault(const std::string& op, double cycles) {
  for (const auto& [name, fallback] : layoutOpDefaults()) {
    if (name == op) return cycles == fallback;
  }
  return false;
}

void putCoresAndLayout(Canon& c, const Accelerator& acc) {
  if (acc.cores.count != 1 || acc.cores.fused_sync_cycles != 0) {
    c.put("cores.count", acc.cores.count);
    c.put("cores.fused_sync", acc.cores.fused_sync_cycles);
  }
  if (acc.layout.channel_align != 1 || acc.layout.device_lowering_align != 0) {
    c.put("layout.channel_align", static_cast<uint64_t>(acc.layout.channel_align));
    c.put("layout.device_lowering_align", static_cast<uint64_t>(acc.layout.device_lowering_align));
  }
}

void putRest(Canon& c, const Accelerator& acc) {
  c.put("dma.bus_width", acc.dma.bus_bytes_per_cycle);
  c.put("dma.max_request", acc.dma.max_request_bytes);
  c.put("dma.max_inflight", acc.dma.max_inflight);
  c.put("dma.row_requests", acc.dma.row_requests);
  c.put("controller.load_entries", acc.controller.load_entries);
  c.put("controller.execute_entries", acc.controller.execute_entries);
  c.put("controller.store_entries", acc.controller.store_entries);
  c.put("noc.kind", acc.noc.kind);
  c.put("noc.bandwidth", acc.noc.bandwidth);
  c.put("noc.multicast", acc.noc.multicast);
  c.put("noc.reduction", acc.noc.reduction);
  c.put("noc.energy", acc.noc.energy_pj_per_byte);
  c.put("sfu", acc.sfu.has_value());
  if (acc.sfu) {
    c.put("sfu.ops", acc.sfu->ops);
    c.put("sfu.lanes", acc.sfu->lanes);
    c.put("sfu.integer", acc.sfu->integer);
    c.put("sfu.cycles_per_vector", acc.sfu->cycles_per_vector);
    c.put("sfu.energy", acc.sfu->energy_pj_per_element);
    c.put("sfu.area", acc.sfu->area_mm2);
    c.put("sfu.leakage", acc.sfu->leakage_mw);
  }
  const Host& h = acc.host;
  c.put("host.clock", h.clock_hz);
  c.put("host.flops", h.flops);
  c.put("host.memory_bandwidth", h.mem_bandwidth_bytes_per_s);
  c.put("host.link.bandwidth", h.link_bandwidth);
  c.put("host.link.latency", h.link_latency);
  c.put("host.offload_overhead", h.offload_overhead);
  for (const auto& [op, cycles] : h.cycles_per_element) {
    if (!isLayoutOpDefault(op, cycles)) c.put("host.cycles_per_element." + op, cycles);
  }
  putCoresAndLayout(c, acc);
  // Left out at their defaults: designs that do not set them keep their hashes.
  if (acc.levels.at(0).efficiency != 1) c.put("dram.efficiency", acc.levels.at(0).efficiency);
  if (acc.controller.launch_cycles != 0) c.put("controller.launch_latency", acc.controller.launch_cycles);
  if (h.step_overhead != 0) c.put("host.step_overhead", h.step_overhead);
  if (h.sequence_overhead != 0) c.put("host.sequence_overhead", h.sequence_overhead);
}

// The parts around the blocks (arch/chip_parts.cpp) and the floorplan.
void putParts(Canon& c, const Accelerator& acc) {
  const Controller& k = acc.controller;
  c.put("controller.gates", k.gates);
  c.put("controller.command_bits", k.command_bits);
  c.put("controller.instruction_memory", k.instruction_memory_bytes);
  c.put("controller.activity", k.activity);
  c.put("controller.area", k.area_mm2);
  c.put("controller.leakage", k.leakage_mw);
  c.put("controller.energy", k.energy_pj_per_cycle);
  c.put("dma.engines", acc.dma.engines);
  c.put("dma.gates", acc.dma.gates);
  c.put("dma.area", acc.dma.area_mm2);
  c.put("dma.leakage", acc.dma.leakage_mw);
  c.put("noc.area", acc.noc.area_mm2);
  c.put("noc.leakage", acc.noc.leakage_mw);
  c.put("dram.phy_area", acc.levels.front().phy_area_mm2);
  c.put("host.link.lanes", acc.host.link_lanes);
  c.put("host.link.lane_area", acc.host.link_lane_area_mm2);
  c.put("array.register_file_sram", acc.array.rf_sram);
  const Floorplan& f = acc.floorplan;
  c.put("floorplan.logic_utilization", f.logic_utilization);
  c.put("floorplan.sram_macro_size", f.sram_macro_bytes);
  c.put("floorplan.sram_macro_width", f.sram_macro_width);
  c.put("floorplan.macro_halo", f.macro_halo_um);
  c.put("floorplan.clock_gating", f.clock_gating);
  c.put("floorplan.clock_energy", f.clock_energy_pj);
}

// A dense design (the default) adds nothing, so designs without a sparsity section keep their
// hashes; decode_energy alone (derived on every design) is hardware only when something decodes.
void putSparse(Canon& c, const SparseSupport& s) {
  if (s.dense()) return;
  std::string patterns;
  for (const auto& p : s.structured) patterns += std::to_string(p.n) + ":" + std::to_string(p.m) + ",";
  c.put("sparsity.structured", std::string_view(patterns));
  c.put("sparsity.structured_operand", s.structured_operand);
  c.put("sparsity.skip", s.skip[0] * 1 + s.skip[1] * 2);
  c.put("sparsity.gate", s.gate[0] * 1 + s.gate[1] * 2);
  c.put("sparsity.run_bits", s.run_bits);
  c.put("sparsity.decode_energy", s.decode_pj);
  for (size_t l = 0; l < s.formats.size(); ++l) {
    for (size_t t = 0; t < 2; ++t) {
      if (s.formats[l][t] != SparseFormat::None)
        c.put("sparsity.format." + std::to_string(l) + "." + std::to_string(t), nameOf(s.formats[l][t]));
    }
  }
  for (size_t t = 0; t < 2; ++t) {
    if (s.pe_formats[t] != SparseFormat::None)
      c.put("sparsity.format.register_file." + std::to_string(t), nameOf(s.pe_formats[t]));
  }
  for (size_t l = 0; l < std::max(s.skip_reads.size(), s.gate_reads.size()); ++l) {
    for (int t = 0; t < 2; ++t) {
      const std::string at = std::to_string(l) + "." + std::to_string(t);
      if (s.skipReadsAt(l, t) >= 0) c.put("sparsity.skip_reads." + at, s.skipReadsAt(l, t));
      if (s.gateReadsAt(l, t) >= 0) c.put("sparsity.gate_reads." + at, s.gateReadsAt(l, t));
    }
  }
}

}  // namespace

std::string Accelerator::canonical() const {
  Canon c;
  // Bump when the serialization changes. 2: silicon (area, leakage); 3: the parts around the
  // blocks and the floorplan.
  c.put("format", std::string_view("tessel-arch-3"));
  c.put("clock", clock_hz);
  for (const auto& l : levels) putLevel(c, l);
  putArray(c, array);
  putRest(c, *this);
  putParts(c, *this);
  putSparse(c, sparse);
  return c.str();
}

std::string Accelerator::hash() const { return toHex(fnv1a64(canonical())); }

}  // namespace tessel::arch
