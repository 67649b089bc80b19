// Need::Derived energies, areas and leakage: each from the design's technology table
// (tech/technology.h) and the hardware's own geometry, unless the YAML gives it.
//   MAC: the node's MAC of array.input_dtype.
//   PE: MAC + pipeline flip-flops (input, weight twice for the preload, accumulator) + its
//       register file and registers; the PE pitch is the side of that area. A systolic array
//       adds the skew registers at its edges (skewBytes).
//   SRAM levels: tech::sram at one instance's capacity, banks, ports and row width, cut into
//       the floorplan's macros; per-tensor pools of a cluster buffer each at their own
//       capacity; an accumulator's adders beside its SRAM.
//   Logic (PEs, register files, epilogue, SFU, controller, DMA, routers): placed, the cells'
//       area over floorplan.logic_utilization. The rest of the chip: arch/chip_parts.cpp.
//   DRAM: 8 x the type's pJ/bit, whatever the MAC.
//   Networks: a wire one PE pitch long plus the receiving flip-flop per hop (systolic, mesh);
//       a bus the array's width per transfer; a level's fan-out one instance's side per copy.
#include <algorithm>
#include <cmath>

#include "arch/building.h"
#include "arch/chip_parts.h"
#include "arch/silicon.h"
#include "tech/memory.h"
#include "tech/technology.h"
#include "util/paths.h"

namespace tessel::arch {
namespace {

bool onChip(LevelKind k) { return k != LevelKind::DRAM; }

tech::Technology loadTechnology(const Building& b) {
  const Technology& t = b.acc.technology;
  try {
    if (t.table.empty()) return tech::shippedTechnology(t.node, t.voltage);
    return tech::technologyFromFile(resolveBeside(b.acc.source, t.table), t.voltage);
  } catch (const ConfigError& e) {
    b.fail(t.table.empty() ? "technology.node" : "technology.table", e.what());
  }
}

uint64_t registerBytes(const ComputeArray& a) {
  return static_cast<uint64_t>(a.pe_register_file_bytes);
}

// The largest pad of a PE's register file: what one access addresses.
uint64_t largestPad(const ComputeArray& a) {
  if (!a.rf_partitioned) return registerBytes(a);
  return static_cast<uint64_t>(std::max({a.rf_input_bytes, a.rf_weight_bytes, a.rf_output_bytes}));
}

// Energy per byte of a register file of `bytes`: a word or two is bare flip-flops; the read mux
// and address decode grow with log2 of the entries, reaching the table's register file (a few
// hundred bytes) at 512 B (assumed: interpolated in log2(bytes) from 8 B to 512 B).
double registerFilePjPerByte(const tech::Technology& t, uint64_t bytes) {
  const double ff = tech::cellStorage(t, t.flip_flop, 1).read_pj_per_byte;
  const double rf = tech::cellStorage(t, t.register_file, 1).read_pj_per_byte;
  const double x = std::clamp(std::log2(std::max<double>(1, static_cast<double>(bytes)) / 8.0) / 6.0, 0.0, 1.0);
  return ff + (rf - ff) * x;
}
uint64_t secondRegisterBytes(const ComputeArray& a) {
  return static_cast<uint64_t>(a.reg_input_bytes + a.reg_weight_bytes + a.reg_output_bytes);
}

// One PE's register file, placed: flip-flop pools over the logic utilization, pools named in
// array.register_file_sram as one SRAM macro each (read a value of the input dtype at a time).
// `flop_um2`: the flip-flops' cells, unplaced.
tech::MemoryCost registerFileSilicon(const Building& b, const tech::Technology& t, double& flop_um2) {
  const ComputeArray& a = b.acc.array;
  const double u = b.acc.floorplan.logic_utilization;
  uint64_t flops = a.rf_partitioned ? 0 : registerBytes(a);
  tech::MemoryCost sum;
  for (const RegisterFilePad& pad : registerFilePads(a)) {
    if (pad.bytes == 0) continue;
    if (!pad.sram) {
      flops += pad.bytes;
      continue;
    }
    const tech::MemoryCost m = tech::sram(t, padSramShape(b.acc, pad));
    sum.area_mm2 += m.area_mm2;
    sum.leakage_mw += m.leakage_mw;
  }
  const tech::MemoryCost f = tech::cellStorage(t, t.register_file, flops);
  flop_um2 = f.area_mm2 * 1e6;
  sum.area_mm2 += f.area_mm2 / u;
  sum.leakage_mw += f.leakage_mw;
  return sum;
}

// Each pad of a split register file at its own size: flip-flops by registerFilePjPerByte, a pad
// of array.register_file_sram its macro's read and write (a value of the input dtype a time).
void derivePadEnergies(Building& b, const tech::Technology& t) {
  ComputeArray& a = b.acc.array;
  a.rf_pad_read_pj.fill(-1);
  a.rf_pad_write_pj.fill(-1);
  const auto pads = registerFilePads(a);
  for (size_t x = 0; x < pads.size(); ++x) {
    if (pads[x].bytes == 0) continue;
    if (pads[x].sram) {
      const tech::MemoryCost m = tech::sram(t, padSramShape(b.acc, pads[x]));
      a.rf_pad_read_pj[x] = m.read_pj_per_byte;
      a.rf_pad_write_pj[x] = m.write_pj_per_byte;
    } else {
      a.rf_pad_read_pj[x] = a.rf_pad_write_pj[x] = registerFilePjPerByte(t, pads[x].bytes);
    }
  }
}

void deriveArray(Building& b, const tech::Technology& t) {
  ComputeArray& a = b.acc.array;
  const tech::OpCost* mac = t.macOf(a.input_dtype);
  if (mac == nullptr && !(b.isGiven("array.mac_energy") && b.isGiven("array.mac_area"))) {
    b.fail("array.input_dtype", "the technology table " + t.source + " has no MAC for " +
                                    std::string(nameOf(a.input_dtype)) + "; give array.mac_energy and array.mac_area");
  }
  if (!b.isGiven("array.mac_energy")) a.mac_energy_pj = mac->energy_pj * t.dynamicScale();
  if (!b.isGiven("array.mac_area")) a.mac_area_um2 = mac->area_um2;
  // A PE that runs several dtypes holds the largest of their MACs; each dtype's ops pay its own
  // MAC energy.
  a.mac_energy_by_dtype.clear();
  for (const auto& [dtype, rate] : a.macs_per_cycle) {
    const tech::OpCost* m = t.macOf(dtype);
    if (m == nullptr) continue;
    if (!b.isGiven("array.mac_area")) a.mac_area_um2 = std::max(a.mac_area_um2, m->area_um2);
    a.mac_energy_by_dtype.emplace_back(dtype, b.isGiven("array.mac_energy") ? a.mac_energy_pj
                                                                             : m->energy_pj * t.dynamicScale());
  }
  const double pes = static_cast<double>(a.rows) * a.cols;
  const tech::MemoryCost flops = tech::cellStorage(t, t.flip_flop, pipelineBytes(a));
  const tech::MemoryCost skew = tech::cellStorage(t, t.flip_flop, skewBytes(b.acc));
  const double u = b.acc.floorplan.logic_utilization;
  a.edge_area_mm2 = b.isGiven("array.area") ? 0 : skew.area_mm2 / u;
  if (!b.isGiven("array.area")) {
    a.area_mm2 = pes * (a.mac_area_um2 * 1e-6 + flops.area_mm2) / u + a.edge_area_mm2;
  }
  a.logic_um2 = a.area_mm2 * 1e6 * u;
  if (!b.isGiven("array.leakage")) {
    a.leakage_mw =
        pes * (tech::logicLeakageMw(t, a.mac_area_um2) + flops.leakage_mw) + skew.leakage_mw;
  }
  double rf_flop_um2 = 0;
  const tech::MemoryCost rf = registerFileSilicon(b, t, rf_flop_um2);
  const tech::MemoryCost regs = tech::cellStorage(t, t.flip_flop, secondRegisterBytes(a));
  if (b.isGiven("array.register_file_area")) {
    a.register_file_logic_um2 = a.register_file_area_mm2 * 1e6 * u;
  } else {
    a.register_file_area_mm2 = pes * (rf.area_mm2 + regs.area_mm2 / u);
    a.register_file_logic_um2 = pes * (rf_flop_um2 + regs.area_mm2 * 1e6);
  }
  if (!b.isGiven("array.register_file_leakage")) {
    a.register_file_leakage_mw = pes * (rf.leakage_mw + regs.leakage_mw);
  }
  if (!b.isGiven("array.register_file_energy")) {
    a.rf_energy_pj_per_byte = registerBytes(a) > 0 ? registerFilePjPerByte(t, largestPad(a)) : flops.read_pj_per_byte;
    derivePadEnergies(b, t);
  }
  if (!b.isGiven("array.register_energy")) a.reg_energy_pj_per_byte = flops.read_pj_per_byte;
}

// One instance of an on-chip level, or the DRAM's per-byte energy.
void deriveLevel(Building& b, const tech::Technology& t, StorageLevel& l) {
  const std::string p = l.name + ".";
  if (l.kind == LevelKind::DRAM) {
    const double pj = 8.0 * tech::dramPjPerBit(l.dram_type);
    if (!b.isGiven(p + "read_energy")) l.read_energy_pj_per_byte = pj;
    if (!b.isGiven(p + "write_energy")) l.write_energy_pj_per_byte = pj;
    return;
  }
  const tech::MemoryCost c = tech::sram(t, sramShapeOf(b.acc, l, l.capacity_bytes));
  if (!b.isGiven(p + "read_energy")) l.read_energy_pj_per_byte = c.read_pj_per_byte;
  if (!b.isGiven(p + "write_energy")) l.write_energy_pj_per_byte = c.write_pj_per_byte;
  if (!b.isGiven(p + "area")) l.area_mm2 = c.area_mm2;
  if (!b.isGiven(p + "leakage")) l.leakage_mw = c.leakage_mw;
  addAccumulatorAdders(b, t, l);
  if (!l.partitioned) return;
  // Per-tensor pools are separate memories: each at its own size, its area and leakage summed.
  double area = 0, leakage = 0;
  static const char* const kTensors[] = {"inputs", "weights", "outputs"};
  for (size_t x = 0; x < 3; ++x) {
    if (l.tensor_capacity[x] == 0) continue;
    const tech::MemoryCost pool = tech::sram(t, sramShapeOf(b.acc, l, l.tensor_capacity[x]));
    const std::string tp = p + "tensors." + kTensors[x] + ".";
    if (!b.isGiven(tp + "read_energy") && !b.isGiven(p + "read_energy")) l.tensor_read_pj[x] = pool.read_pj_per_byte;
    if (!b.isGiven(tp + "write_energy") && !b.isGiven(p + "write_energy")) l.tensor_write_pj[x] = pool.write_pj_per_byte;
    area += pool.area_mm2;
    leakage += pool.leakage_mw;
  }
  if (!b.isGiven(p + "area")) l.area_mm2 = area;
  if (!b.isGiven(p + "leakage")) l.leakage_mw = leakage;
}

// The side of one PE: its MAC, pipeline and register file, not the array's edges.
double pePitchMm(const ComputeArray& a) {
  const double pes = static_cast<double>(a.rows) * a.cols;
  return std::sqrt((a.area_mm2 - a.edge_area_mm2 + a.register_file_area_mm2) / pes);
}

void deriveNetworks(Building& b, const tech::Technology& t, double pitch_mm) {
  Accelerator& acc = b.acc;
  const ComputeArray& a = acc.array;
  if (!b.isGiven("noc.energy")) {
    const double hop = acc.noc.kind == "bus" ? tech::wirePjPerByte(t, pitch_mm * std::max(a.rows, a.cols))
                                             : tech::wirePjPerByte(t, pitch_mm) +
                                                   tech::cellStorage(t, t.flip_flop, 1).write_pj_per_byte;
    acc.noc.energy_pj_per_byte = hop;
  }
  // A fan-out hop crosses one copy of what lies below the level: the arrays and the levels with
  // more instances than it.
  const double arrays = static_cast<double>(acc.arrays()) * (a.area_mm2 + a.register_file_area_mm2);
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    StorageLevel& l = acc.levels[i];
    if (b.isGiven(l.name + ".fanout.energy")) continue;
    double below = arrays;
    for (size_t j = i + 1; j < acc.levels.size(); ++j) {
      const int64_t n = acc.instancesOf(j);
      if (n > acc.instancesOf(i)) below += static_cast<double>(n) * acc.levels[j].area_mm2;
    }
    const double copies = static_cast<double>(acc.instancesOf(i)) * l.fanout.instances;
    l.fanout.energy_pj_per_byte = tech::wirePjPerByte(t, std::sqrt(below / copies));
  }
}

void deriveSfu(Building& b, const tech::Technology& t) {
  if (!b.acc.sfu) return;
  Sfu& s = *b.acc.sfu;
  const tech::OpCost& add = s.integer ? t.int_add : t.fp_add;
  if (!b.isGiven("sfu.energy")) s.energy_pj_per_element = add.energy_pj * t.dynamicScale();
  // A lane: one multiply-add of the SFU's arithmetic (assumed: I-BERT's integer kernels need
  // 16-bit products into 32-bit sums; float SFUs compute in fp32).
  const tech::OpCost* lane = t.macOf(s.integer ? DType::Int16 : DType::FP32);
  const double lane_um2 = lane != nullptr ? lane->area_um2 : add.area_um2;
  if (!b.isGiven("sfu.area")) s.area_mm2 = s.lanes * lane_um2 * 1e-6 / b.acc.floorplan.logic_utilization;
  s.logic_um2 = s.area_mm2 * 1e6 * b.acc.floorplan.logic_utilization;
  if (!b.isGiven("sfu.leakage")) s.leakage_mw = tech::logicLeakageMw(t, s.area_mm2 * 1e6);
}

// The chip's silicon per component: each on-chip level times its instances, the arrays' PEs
// and register files, the SFU, the controller, the DMA engines, the network's routers, every
// core's (the L2 is shared, once); the I/O (DRAM PHY, host lanes) once.
void addComponent(Silicon& s, const std::string& name, double mm2, double mw) {
  if (mm2 <= 0 && mw <= 0) return;
  s.area_mm2.emplace_back(name, mm2);
  s.leakage_mw.emplace_back(name, mw);
}

// Energy per cycle of the clock tree and the controller's logic: the arrays' clock loads while
// they compute (every cycle without clock gating), the queues' and routers' every cycle.
void addClocked(Silicon& s, const Accelerator& acc) {
  const double cores = acc.cores.count;
  const double e = acc.floorplan.clock_energy_pj;
  const ComputeArray& a = acc.array;
  double array_bits =
      cores * static_cast<double>(acc.arrays()) *
      (static_cast<double>(a.rows) * a.cols * clockedBitsPerPe(a, acc.floorplan.clock_gating) +
       8.0 * static_cast<double>(skewBytes(acc)));
  const double queue_bits = queueClockLoads(acc);
  // A mesh of routers runs whatever the arrays do; a PE mesh's FIFOs are the array's.
  const bool pe_mesh = acc.arrays() == 1;
  const double mesh_bits = cores * acc.noc.routers * routerClockLoads(acc);
  const double router_bits = pe_mesh ? 0 : mesh_bits;
  if (pe_mesh) array_bits += mesh_bits;
  const bool gated = acc.floorplan.clock_gating;
  s.clocked.push_back({"clock", e * (cores * queue_bits + router_bits + (gated ? 0 : array_bits)), false});
  if (gated) s.clocked.push_back({"clock", e * array_bits, true});
  s.clocked.push_back({"control", cores * acc.controller.energy_pj_per_cycle, false});
}

// Each logic component's cells in NAND2 equivalents, every core (the same names as the areas).
void addLogicGates(Silicon& s, const Accelerator& acc, double nand2_um2) {
  const double cores = acc.cores.count;
  const auto add = [&](const std::string& name, double um2) {
    if (um2 > 0) s.logic_gates.emplace_back(name, um2 / nand2_um2);
  };
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    const StorageLevel& l = acc.levels[i];
    add(l.name, static_cast<double>(acc.instancesOf(i)) * (l.kind == LevelKind::L2 ? 1 : cores) * l.logic_um2);
  }
  const double arrays = static_cast<double>(acc.arrays()) * cores;
  add("register_file", arrays * acc.array.register_file_logic_um2);
  add("array", arrays * acc.array.logic_um2);
  add("epilogue", arrays * acc.array.epilogue_logic_um2);
  if (acc.sfu) add("sfu", cores * acc.sfu->logic_um2);
  add("noc", cores * acc.noc.logic_um2);
  add("control", cores * acc.controller.logic_um2);
  add("dma", cores * acc.dma.logic_um2);
}

// Every SRAM on the die: the storage levels (each pool of a split one), the scratch pads built
// as macros, the instruction memory, the DMA engines' buffers.
void addSram(Silicon& s, const Accelerator& acc, const tech::Technology& t) {
  const double cores = acc.cores.count;
  const auto add = [&](const std::string& name, double copies, uint64_t bytes, const tech::SramShape& shape) {
    if (bytes == 0 || copies <= 0) return;
    s.sram.push_back({name, copies * static_cast<double>(bytes), copies * static_cast<double>(tech::sram(t, shape).macros)});
  };
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    const StorageLevel& l = acc.levels[i];
    if (!onChip(l.kind)) continue;
    const double n = static_cast<double>(acc.instancesOf(i)) * (l.kind == LevelKind::L2 ? 1 : cores);
    if (!l.partitioned) {
      add(l.name, n, l.capacity_bytes, sramShapeOf(acc, l, l.capacity_bytes));
      continue;
    }
    Silicon::Sram sum{l.name};
    for (uint64_t pool : l.tensor_capacity) {
      if (pool == 0) continue;
      sum.bytes += n * static_cast<double>(pool);
      sum.macros += n * static_cast<double>(tech::sram(t, sramShapeOf(acc, l, pool)).macros);
    }
    if (sum.bytes > 0) s.sram.push_back(sum);
  }
  const ComputeArray& a = acc.array;
  const double pes = cores * static_cast<double>(acc.arrays()) * a.rows * a.cols;
  for (const RegisterFilePad& pad : registerFilePads(a)) {
    if (pad.sram) add("register_file", pes, pad.bytes, padSramShape(acc, pad));
  }
  const uint64_t imem = acc.controller.instruction_memory_bytes;
  add("control", cores, imem, sramShape(acc, imem, 32));
  const tech::SramShape buffer = dmaBufferShape(acc);
  add("dma", cores * acc.dma.engines, buffer.capacity_bytes, buffer);
}

Silicon summarize(const Accelerator& acc, double pitch_mm) {
  Silicon s;
  s.pe_pitch_mm = pitch_mm;
  const double cores = acc.cores.count;
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    const StorageLevel& l = acc.levels[i];
    if (!onChip(l.kind)) continue;
    const double n = static_cast<double>(acc.instancesOf(i)) * (l.kind == LevelKind::L2 ? 1 : cores);
    s.area_mm2.emplace_back(l.name, n * l.area_mm2);
    s.leakage_mw.emplace_back(l.name, n * l.leakage_mw);
  }
  const double arrays = static_cast<double>(acc.arrays()) * cores;
  s.area_mm2.emplace_back("register_file", arrays * acc.array.register_file_area_mm2);
  s.leakage_mw.emplace_back("register_file", arrays * acc.array.register_file_leakage_mw);
  s.area_mm2.emplace_back("array", arrays * acc.array.area_mm2);
  s.leakage_mw.emplace_back("array", arrays * acc.array.leakage_mw);
  addComponent(s, "epilogue", arrays * acc.array.epilogue_area_mm2,
               arrays * acc.array.epilogue_leakage_mw);
  if (acc.sfu) {
    s.area_mm2.emplace_back("sfu", cores * acc.sfu->area_mm2);
    s.leakage_mw.emplace_back("sfu", cores * acc.sfu->leakage_mw);
  }
  addComponent(s, "noc", cores * acc.noc.area_mm2, cores * acc.noc.leakage_mw);
  addComponent(s, "control", cores * acc.controller.area_mm2, cores * acc.controller.leakage_mw);
  addComponent(s, "dma", cores * acc.dma.area_mm2, cores * acc.dma.leakage_mw);
  addComponent(s, "io", acc.levels.front().phy_area_mm2 + acc.host.link_lanes * acc.host.link_lane_area_mm2, 0);
  addClocked(s, acc);
  return s;
}

}  // namespace

void deriveSilicon(Building& b) {
  const tech::Technology t = loadTechnology(b);
  Accelerator& acc = b.acc;
  if (!b.isGiven("technology.voltage")) acc.technology.voltage = t.voltage;
  deriveFloorplan(b, t);
  deriveArray(b, t);
  for (auto& l : acc.levels) deriveLevel(b, t, l);
  const double pitch = pePitchMm(acc.array);
  deriveNetworks(b, t, pitch);
  deriveNocRouters(b, t);
  deriveSfu(b, t);
  deriveEpilogue(b, t);
  deriveController(b, t);
  deriveDma(b, t);
  deriveDramPhy(b);
  // Decoding a compressed value: an index compare or add per non-zero (the technology's add).
  if (!b.isGiven("sparsity.decode_energy")) {
    acc.sparse.decode_pj = t.int_add.energy_pj * t.dynamicScale();
  }
  if (!b.isGiven("host.energy_per_byte")) acc.host.energy_pj_per_byte = acc.levels.at(0).read_energy_pj_per_byte;
  acc.silicon = summarize(acc, pitch);
  addLogicGates(acc.silicon, acc, tech::nand2AreaUm2(t));
  addSram(acc.silicon, acc, t);
}

}  // namespace tessel::arch
