// The parts of a chip around its arrays and storage levels (docs/technology.md, "Silicon
// beyond the datapath"). Each from the design's geometry and the technology table; every
// constant here is assumed and says so. Logic areas are placed areas: standard cells over
// floorplan.logic_utilization.
#include "arch/chip_parts.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "arch/building.h"
#include "tech/memory.h"
#include "tech/technology.h"

namespace tessel::arch {
namespace {

// Ports of a mesh router (four neighbours and the node) and flits buffered per port (assumed:
// the smallest buffer that keeps a link busy with one-cycle credits).
constexpr double kRouterPorts = 5, kRouterFlitsPerPort = 2;
// A PE mesh (one array whose PEs pass operands to their neighbours) has no routers: each PE
// buffers what arrives from its two upstream neighbours.
constexpr double kPeMeshFifos = 2;
// Supply bumps beside each signal bump of a DRAM PHY (assumed: one power or ground per signal).
constexpr double kSupplyBumpsPerSignal = 1;
// Clock energy per flip-flop bit per cycle over the flip-flop's own energy per bit written
// (assumed: the clock pin swings every cycle, about half a flop's switching energy at data
// activity 0.5, and the tree's wires and buffers drive as much again as the pins).
constexpr double kClockOverFlop = 1.0;

double placed(const Building& b, double cell_mm2) { return cell_mm2 / b.acc.floorplan.logic_utilization; }

// `gates` NAND2 equivalents, placed: area in mm2 and leakage in mW.
std::pair<double, double> logicOf(const Building& b, const tech::Technology& t, double gates) {
  const double um2 = gates * tech::nand2AreaUm2(t);
  return {placed(b, um2 * 1e-6), tech::logicLeakageMw(t, um2)};
}

double flopMm2(const tech::Technology& t, double bits) {
  return tech::cellStorage(t, t.flip_flop, 1).area_mm2 * bits / 8;
}

double flopLeakMw(const tech::Technology& t, double bits) {
  return tech::cellStorage(t, t.flip_flop, 1).leakage_mw * bits / 8;
}

// One lane's unit for an epilogue op, at the accumulator's dtype: its cells (unplaced) and its
// energy per element (assumed compositions from the technology's own units: relu a sign test and
// select, costed as the integer add; a residual add an add; a scale (requantize, quantize,
// dequantize, batch norm's scale and shift) a multiply with its rounding add, the accumulator
// dtype's MAC; pooling a compare or add and the running value's register). A residual adds into
// an accumulator with the accumulator's own adders (addAccumulatorAdders), as the engines load
// it there: a unit of its own only without one.
tech::OpCost epilogueUnit(const tech::Technology& t, DType accum, bool accumulator,
                          const std::string& op) {
  const bool integer = isInteger(accum);
  const tech::OpCost& add = integer ? t.int_add : t.fp_add;
  if (op == "relu") return t.int_add;
  if (op == "residual_add") return accumulator ? tech::OpCost{} : add;
  if (op == "maxpool" || op == "avgpool") {
    const tech::MemoryCost reg =
        tech::cellStorage(t, t.flip_flop, static_cast<uint64_t>(std::ceil(bytesOf(accum))));
    return {add.energy_pj + reg.write_pj_per_byte * bytesOf(accum),
            add.area_um2 + reg.area_mm2 * 1e6};
  }
  const tech::OpCost* mac = t.macOf(accum);
  if (mac == nullptr) mac = t.macOf(integer ? DType::Int32 : DType::FP32);
  return mac != nullptr ? *mac : add;
}

}  // namespace

void deriveEpilogue(Building& b, const tech::Technology& t) {
  ComputeArray& a = b.acc.array;
  a.epilogue_pj.clear();
  const bool accumulator = b.acc.level(LevelKind::Accumulator) != nullptr;
  const bool given = b.isGiven("array.epilogue_energy");
  double lane_um2 = 0;
  for (const std::string& op : a.epilogue_ops) {
    const tech::OpCost unit = epilogueUnit(t, a.accum_dtype, accumulator, op);
    lane_um2 += unit.area_um2;
    a.epilogue_pj.emplace_back(op,
                               given ? a.epilogue_energy_pj : unit.energy_pj * t.dynamicScale());
  }
  const double cells_um2 = a.cols * lane_um2;
  if (!b.isGiven("array.epilogue_area")) a.epilogue_area_mm2 = placed(b, cells_um2 * 1e-6);
  a.epilogue_logic_um2 = a.epilogue_area_mm2 * 1e6 * b.acc.floorplan.logic_utilization;
  if (!b.isGiven("array.epilogue_leakage"))
    a.epilogue_leakage_mw = tech::logicLeakageMw(t, a.epilogue_logic_um2);
}

tech::SramShape sramShape(const Accelerator& acc, uint64_t bytes, int word_bits) {
  tech::SramShape s{bytes, 1, 1, word_bits};
  s.limits = {acc.floorplan.sram_macro_bytes * 8, acc.floorplan.sram_macro_width};
  s.halo_um = acc.floorplan.macro_halo_um;
  return s;
}

tech::SramShape sramShapeOf(const Accelerator& acc, const StorageLevel& l, uint64_t bytes) {
  const double row = l.row_bytes > 0 ? l.row_bytes : l.bandwidth / std::max(1, l.banks);
  tech::SramShape s = sramShape(acc, bytes, row > 0 ? static_cast<int>(std::min(8.0 * row, 1e6)) : 64);
  s.banks = l.banks;
  s.ports = l.ports;
  return s;
}

std::array<RegisterFilePad, 3> registerFilePads(const ComputeArray& a) {
  const auto sram = [&](const char* tensor) {
    return std::find(a.rf_sram.begin(), a.rf_sram.end(), tensor) != a.rf_sram.end();
  };
  const auto pad = [&](const char* tensor, int bytes, DType dtype) {
    return RegisterFilePad{tensor, a.rf_partitioned ? static_cast<uint64_t>(std::max(bytes, 0)) : 0, dtype,
                           sram(tensor)};
  };
  return {pad("inputs", a.rf_input_bytes, a.input_dtype), pad("weights", a.rf_weight_bytes, a.weight_dtype),
          pad("outputs", a.rf_output_bytes, a.accum_dtype)};
}

tech::SramShape padSramShape(const Accelerator& acc, const RegisterFilePad& pad) {
  return sramShape(acc, pad.bytes, elementBits(acc.array.input_dtype));
}

tech::SramShape dmaBufferShape(const Accelerator& acc) {
  const Dma& d = acc.dma;
  return sramShape(acc, static_cast<uint64_t>(d.max_inflight) * static_cast<uint64_t>(d.max_request_bytes),
                   static_cast<int>(std::min(8.0 * d.bus_bytes_per_cycle, 1e6)));
}

uint64_t pipelineBytes(const ComputeArray& a) {
  const double in = bytesOf(a.input_dtype), w = bytesOf(a.weight_dtype), sum = bytesOf(a.accum_dtype);
  const auto runs = [&](const char* d) {
    return std::find(a.dataflows.begin(), a.dataflows.end(), d) != a.dataflows.end();
  };
  const bool os = a.kind == ArrayKind::Systolic && runs("os"), ws = !os || runs("ws");
  // Weight-stationary: the weight and the one preloading behind it stay; the input and the
  // partial sum pass through. Output-stationary (a systolic array's): the sum accumulating and
  // the one draining down its column stay; the input and the weight pass through. An array
  // that runs both shares them, the wider kept (Gemmini's PE.scala: c1 and c2 at the
  // accumulator's width hold the weights in WS and the sums in OS; one pipe carries WS's sums
  // and OS's weights).
  const double stay = std::max(ws ? 2 * w : 0.0, os ? 2 * sum : 0.0);
  const double pass = in + std::max(ws ? sum : 0.0, os ? w : 0.0);
  return static_cast<uint64_t>(std::ceil(stay + pass));
}

uint64_t skewBytes(const Accelerator& acc) {
  const ComputeArray& a = acc.array;
  if (a.kind != ArrayKind::Systolic) return 0;
  const auto triangle = [](int n) { return static_cast<double>(n) * (n - 1) / 2; };
  const bool os = std::find(a.dataflows.begin(), a.dataflows.end(), "os") != a.dataflows.end();
  // Row i's inputs wait i cycles to enter; OS streams the weights in from the top, column j's
  // waiting j. Column j's results leave j cycles apart and are lined up again, unless each
  // column writes an accumulator bank of its own (TPU v1's 256 RAMs, each on its own schedule).
  const StorageLevel* accumulator = acc.level(LevelKind::Accumulator);
  const bool bank_per_column = accumulator != nullptr && accumulator->banks >= a.cols;
  const double bytes = triangle(a.rows) * bytesOf(a.input_dtype) +
                       (os ? triangle(a.cols) * bytesOf(a.weight_dtype) : 0) +
                       (bank_per_column ? 0 : triangle(a.cols) * bytesOf(a.accum_dtype));
  return static_cast<uint64_t>(std::ceil(bytes));
}

// A flip-flop register file's clock loads: a gate per word of each pad not built as SRAM (an
// SRAM macro clocks itself within its access energy), or every bit without clock gating.
double registerFileClockLoads(const ComputeArray& a, bool clock_gating) {
  const auto load = [&](double bytes, DType dtype) {
    return clock_gating ? std::ceil(bytes / std::max(bytesOf(dtype), 0.125)) : 8 * bytes;
  };
  if (!a.rf_partitioned) return load(a.pe_register_file_bytes, a.input_dtype);
  double loads = 0;
  for (const RegisterFilePad& pad : registerFilePads(a)) {
    if (!pad.sram) loads += load(static_cast<double>(pad.bytes), pad.dtype);
  }
  return loads;
}

double clockedBitsPerPe(const ComputeArray& a, bool clock_gating) {
  return 8.0 * (static_cast<double>(pipelineBytes(a)) + a.reg_input_bytes + a.reg_weight_bytes + a.reg_output_bytes) +
         registerFileClockLoads(a, clock_gating);
}

double queueBits(const Accelerator& acc) {
  const Controller& c = acc.controller;
  return static_cast<double>(c.load_entries + c.execute_entries + c.store_entries) * c.command_bits;
}

// A flit is one operand row of the node: an array's columns of inputs, or one input. A router
// buffers every port; a PE of a PE mesh has two neighbour FIFOs (ShiDianNao's FIFO-H, FIFO-V).
double routerBufferEntries(const Accelerator& acc) {
  return (acc.arrays() > 1 ? kRouterPorts : kPeMeshFifos) * kRouterFlitsPerPort;
}

double routerBufferBits(const Accelerator& acc) {
  const ComputeArray& a = acc.array;
  const double flit = 8.0 * bytesOf(a.input_dtype) * (acc.arrays() > 1 ? a.cols : 1);
  return routerBufferEntries(acc) * flit;
}

double queueClockLoads(const Accelerator& acc) {
  const Controller& c = acc.controller;
  const double entries = c.load_entries + c.execute_entries + c.store_entries;
  return acc.floorplan.clock_gating ? entries : queueBits(acc);
}

double routerClockLoads(const Accelerator& acc) {
  return acc.floorplan.clock_gating ? routerBufferEntries(acc) : routerBufferBits(acc);
}

void deriveFloorplan(Building& b, const tech::Technology& t) {
  Floorplan& f = b.acc.floorplan;
  if (!b.isGiven("floorplan.clock_energy")) {
    f.clock_energy_pj = kClockOverFlop * t.flip_flop.pj_per_bit * t.dynamicScale();
  }
  if (!b.isGiven("floorplan.macro_halo")) f.macro_halo_um = t.sram.macro_halo_um;
}

// Gates, command queues in flip-flops, and an instruction memory when it has one.
void deriveController(Building& b, const tech::Technology& t) {
  Controller& c = b.acc.controller;
  const double queue_bits = queueBits(b.acc);
  auto [area, leak] = logicOf(b, t, c.gates);
  area += placed(b, flopMm2(t, queue_bits));
  leak += flopLeakMw(t, queue_bits);
  if (c.instruction_memory_bytes > 0) {
    const tech::MemoryCost imem = tech::sram(t, sramShape(b.acc, c.instruction_memory_bytes, 32));
    area += imem.area_mm2;
    leak += imem.leakage_mw;
  }
  if (!b.isGiven("controller.area")) c.area_mm2 = area;
  c.logic_um2 = b.isGiven("controller.area") ? c.area_mm2 * 1e6 * b.acc.floorplan.logic_utilization
                                             : c.gates * tech::nand2AreaUm2(t) + flopMm2(t, queue_bits) * 1e6;
  if (!b.isGiven("controller.leakage")) c.leakage_mw = leak;
  if (!b.isGiven("controller.energy")) c.energy_pj_per_cycle = c.gates * c.activity * tech::nand2SwitchPj(t);
}

// Each engine: its logic and an SRAM buffer for the bytes it has in flight.
void deriveDma(Building& b, const tech::Technology& t) {
  Dma& d = b.acc.dma;
  const auto [logic, logic_leak] = logicOf(b, t, d.gates);
  const tech::MemoryCost buffer = tech::sram(t, dmaBufferShape(b.acc));
  if (!b.isGiven("dma.area")) d.area_mm2 = d.engines * (logic + buffer.area_mm2);
  d.logic_um2 = b.isGiven("dma.area") ? d.area_mm2 * 1e6 * b.acc.floorplan.logic_utilization
                                      : d.engines * d.gates * tech::nand2AreaUm2(t);
  if (!b.isGiven("dma.leakage")) d.leakage_mw = d.engines * (logic_leak + buffer.leakage_mw);
}

// A mesh: a router per array when there are several (Simba's PEs): buffers in flip-flops and a
// crossbar of one gate per input, output and bit of a flit (assumed); else a PE mesh, two
// neighbour FIFOs per PE (ShiDianNao's) and no crossbar.
void deriveNocRouters(Building& b, const tech::Technology& t) {
  Noc& n = b.acc.noc;
  const ComputeArray& a = b.acc.array;
  if (n.kind != "mesh") {
    n.routers = 0;
  } else {
    const int64_t arrays = b.acc.arrays();
    n.routers = static_cast<int>(arrays > 1 ? arrays : static_cast<int64_t>(a.rows) * a.cols);
  }
  const double buffer_bits = routerBufferBits(b.acc);
  const double flit = buffer_bits / (kRouterPorts * kRouterFlitsPerPort);
  const auto [xbar, xbar_leak] = logicOf(b, t, b.acc.arrays() > 1 ? kRouterPorts * kRouterPorts * flit : 0);
  const double per_area = xbar + placed(b, flopMm2(t, buffer_bits));
  const double per_leak = xbar_leak + flopLeakMw(t, buffer_bits);
  if (!b.isGiven("noc.area")) n.area_mm2 = n.routers * per_area;
  n.logic_um2 = n.area_mm2 * 1e6 * b.acc.floorplan.logic_utilization;
  if (!b.isGiven("noc.leakage")) n.leakage_mw = n.routers * per_leak;
}

// The channels the DRAM's bandwidth needs at its type's speed grade, each its signals' bumps
// and their supply bumps (a PHY's circuits sit under its bumps).
void deriveDramPhy(Building& b) {
  StorageLevel& d = b.acc.levels.front();
  if (b.isGiven("dram.phy_area")) return;
  const tech::DramInterface* io = tech::dramInterface(d.dram_type);
  if (io == nullptr || io->channel_gb_per_s <= 0) return;
  const double bytes_per_s = d.bandwidth * b.acc.clock_hz;
  d.phy_channels = static_cast<int>(std::min(std::ceil(bytes_per_s / (io->channel_gb_per_s * 1e9) - 1e-9), 1e6));
  d.phy_channels = std::max(1, d.phy_channels);
  const double bump_mm2 = io->bump_pitch_um * io->bump_pitch_um * 1e-6;
  d.phy_area_mm2 = d.phy_channels * io->signals * (1 + kSupplyBumpsPerSignal) * bump_mm2;
}

// An accumulator adds each incoming partial sum to the one it holds: one adder of its dtype per
// element of a row (Gemmini's accumulator, TPU v1's accumulators).
void addAccumulatorAdders(Building& b, const tech::Technology& t, StorageLevel& l) {
  if (l.kind != LevelKind::Accumulator) return;
  const double lanes = l.row_bytes / std::max(bytesOf(l.dtype), 0.125);
  const tech::OpCost& add = isInteger(l.dtype) ? t.int_add : t.fp_add;
  if (!b.isGiven(l.name + ".area")) {
    l.area_mm2 += placed(b, lanes * add.area_um2 * 1e-6);
    l.logic_um2 = lanes * add.area_um2;
  }
  if (!b.isGiven(l.name + ".leakage")) l.leakage_mw += tech::logicLeakageMw(t, lanes * add.area_um2);
}

}  // namespace tessel::arch
