#include "dataflows/nest/hardware.h"

#include <algorithm>

#include "arch/bandwidth.h"
#include "util/error.h"

namespace tessel::dataflows::nest {

namespace {

// Per-tensor energies from the arch levels that hold each tensor here.
void setEnergies(Level& l, std::array<const arch::StorageLevel*, kTensors> from) {
  for (int t = 0; t < kTensors; ++t) {
    l.read_pj[size_t(t)] = from[size_t(t)]->readPj(t);
    l.write_pj[size_t(t)] = from[size_t(t)]->writePj(t);
  }
}

// The fan-out below an arch level, as the nest sees it.
void setFanout(Level& l, const arch::StorageLevel& s) {
  l.fanout = s.fanout.instances;
  l.fanout_multicast = s.fanout.multicast;
  l.fanout_reduction = s.fanout.reduction;
  l.fanout_bandwidth = s.fanout.bandwidth;
  l.fanout_split_reduction = s.fanout.split_reduction;
  l.fanout_pj = s.fanout.energy_pj_per_byte;
}

Level offChipLevel(const arch::Accelerator& acc, size_t index, double bandwidth) {
  const arch::StorageLevel& s = acc.levels[index];
  Level l;
  l.name = s.name;
  l.off_chip = true;
  l.arch_level.fill(static_cast<int>(index));
  l.can_hold = {true, true, true};
  if (s.kind == arch::LevelKind::L2) l.can_hold = {s.holds.inputs, s.holds.weights, s.holds.outputs};
  l.pool_of = {0, 0, 0};
  const double cap = s.capacity_bytes == 0 || s.kind == arch::LevelKind::DRAM
                         ? -1.0
                         : static_cast<double>(s.capacity_bytes);
  l.pool_bytes = {cap, -1, -1};
  l.bandwidth.fill(bandwidth);
  setEnergies(l, {&s, &s, &s});
  return l;
}

// One SRAM level per tensor role: a scratchpad with an accumulator (Gemmini), or one global
// buffer (Eyeriss). A scratchpad whose `holds` leaves weights out streams them past (TPU).
Level localLevel(const arch::Accelerator& acc) {
  auto index = [&](arch::LevelKind k) -> int {
    for (size_t i = 0; i < acc.levels.size(); ++i) {
      if (acc.levels[i].kind == k) return static_cast<int>(i);
    }
    return -1;
  };
  const int sp = index(arch::LevelKind::Scratchpad);
  const int accum = index(arch::LevelKind::Accumulator);
  const int gb = index(arch::LevelKind::GlobalBuffer);
  const int in_level = sp >= 0 ? sp : gb;
  if (in_level < 0) {
    throw InfeasibleError("accelerator '" + acc.name +
                          "' has no scratchpad or global buffer next to its array");
  }
  const int out_level = sp >= 0 && accum >= 0 ? accum : in_level;
  const arch::StorageLevel& a = acc.levels[static_cast<size_t>(in_level)];
  const arch::StorageLevel& o = acc.levels[static_cast<size_t>(out_level)];
  Level l;
  l.name = a.name + (out_level != in_level ? "+" + o.name : "");
  l.arch_level = {in_level, in_level, out_level};
  l.can_hold = {a.holds.inputs, a.holds.weights, o.holds.outputs};
  l.pool_of = {0, 0, out_level != in_level ? 1 : 0};
  l.pool_bytes = {static_cast<double>(a.capacity_bytes), static_cast<double>(o.capacity_bytes),
                  -1};
  if (a.partitioned) {  // a buffer per tensor: a global buffer's three, a scratchpad's two
    l.pool_of = {0, 1, 2};
    for (size_t t = 0; t < kTensors; ++t)
      l.pool_bytes[t] = static_cast<double>(a.tensor_capacity[t]);
    if (out_level != in_level) l.pool_bytes[2] = static_cast<double>(o.capacity_bytes);
  }
  const double in_bw = a.bandwidth * std::max(1, a.ports);
  l.bandwidth = {in_bw, in_bw, o.bandwidth * std::max(1, o.ports)};
  setEnergies(l, {&a, &a, &o});
  setFanout(l, a);
  return l;
}

// A buffer per fan-out instance: one pool, or one per tensor.
Level clusterLevel(const arch::Accelerator& acc, const arch::StorageLevel& s) {
  Level l;
  l.name = s.name;
  l.arch_level.fill(static_cast<int>(&s - acc.levels.data()));
  l.can_hold = {s.holds.inputs, s.holds.weights, s.holds.outputs};
  if (s.partitioned) {
    l.pool_of = {0, 1, 2};
    for (size_t t = 0; t < kTensors; ++t) l.pool_bytes[t] = static_cast<double>(s.tensor_capacity[t]);
  } else {
    l.pool_of = {0, 0, 0};
    l.pool_bytes = {static_cast<double>(s.capacity_bytes), -1, -1};
  }
  l.bandwidth.fill(s.bandwidth * std::max(1, s.ports));
  setEnergies(l, {&s, &s, &s});
  setFanout(l, s);
  return l;
}

// A level inside each PE: no arch level of its own, one energy per byte for every tensor.
Level perPeLevel(const std::string& name, double pj) {
  Level l;
  l.name = name;
  l.per_pe = true;
  l.arch_level = {-1, -1, -1};
  l.read_pj.fill(pj);
  l.write_pj.fill(pj);
  return l;
}

// Registers inside each PE, below its register file: one pool per tensor.
Level registerLevel(const arch::ComputeArray& a) {
  Level l = perPeLevel("registers", a.reg_energy_pj_per_byte);
  l.pool_of = {0, 1, 2};
  l.pool_bytes = {double(a.reg_input_bytes), double(a.reg_weight_bytes), double(a.reg_output_bytes)};
  l.can_hold = {a.reg_input_bytes > 0, a.reg_weight_bytes > 0, a.reg_output_bytes > 0};
  return l;
}

// A systolic PE keeps one element of a tensor in its pipeline register (Gemmini's PE holds a
// weight, or an output in OS). A spatial PE has its register file, shared or split per tensor.
Level peLevel(const arch::Accelerator& acc) {
  const arch::ComputeArray& a = acc.array;
  Level l = perPeLevel("pe", a.rf_energy_pj_per_byte);
  if (a.kind == arch::ArrayKind::Systolic) {
    // One element of any dtype the array computes (an FP16 weight on an INT8 + FP16 array).
    double widest = std::max(bytesOf(a.input_dtype), bytesOf(a.weight_dtype));
    for (const auto& [dtype, rate] : a.macs_per_cycle) widest = std::max<double>(widest, bytesOf(dtype));
    l.can_hold = {true, true, true};
    l.pool_of = {0, 1, 2};
    l.pool_bytes = {widest, widest, std::max<double>(widest, bytesOf(a.accum_dtype))};
    return l;
  }
  // A spatial PE's register file may keep operands compressed (Eyeriss v2).
  l.format = acc.sparse.pe_formats;
  if (a.rf_partitioned) {
    l.pool_of = {0, 1, 2};
    l.pool_bytes = {static_cast<double>(a.rf_input_bytes), static_cast<double>(a.rf_weight_bytes),
                    static_cast<double>(a.rf_output_bytes)};
    l.can_hold = {a.rf_input_bytes > 0, a.rf_weight_bytes > 0, a.rf_output_bytes > 0};
    for (size_t t = 0; t < kTensors; ++t) {  // each pad at its own size and kind
      if (a.rf_pad_read_pj[t] >= 0) l.read_pj[t] = a.rf_pad_read_pj[t];
      if (a.rf_pad_write_pj[t] >= 0) l.write_pj[t] = a.rf_pad_write_pj[t];
    }
  } else {
    l.pool_of = {0, 0, 0};
    l.pool_bytes = {static_cast<double>(a.pe_register_file_bytes), -1, -1};
    const bool any = a.pe_register_file_bytes > 0;
    l.can_hold = {any, any, any};
  }
  return l;
}

}  // namespace

Hardware hardwareOf(const arch::Accelerator& acc) {
  Hardware hw;
  hw.rows = acc.array.rows;
  hw.cols = acc.array.cols;
  const arch::OffChipBandwidth off = arch::offChipBandwidth(acc);
  hw.offchip_bandwidth = off.bytes_per_cycle;
  hw.offchip_latency = acc.levels.at(0).latency;
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    const arch::LevelKind k = acc.levels[i].kind;
    if (k == arch::LevelKind::DRAM) {
      hw.dram = static_cast<int>(hw.levels.size());
      hw.levels.push_back(offChipLevel(acc, i, off.bytes_per_cycle));
    } else if (k == arch::LevelKind::L2) {
      hw.l2 = static_cast<int>(hw.levels.size());
      hw.offchip_latency += acc.levels[i].latency;
      const double bw = std::min(acc.levels[i].bandwidth, acc.dma.bus_bytes_per_cycle);
      hw.levels.push_back(offChipLevel(acc, i, bw));
      hw.levels.back().latency = acc.levels[i].latency;  // an L2 hit
    }
  }
  // A request DRAM serves passes the L2 both ways: its round trip is the whole path's.
  if (hw.dram >= 0) hw.levels[size_t(hw.dram)].latency = hw.offchip_latency;
  hw.dma_inflight = acc.dma.max_inflight;
  hw.dma_request = std::max(1, acc.dma.max_request_bytes);
  hw.dma_row_requests = acc.dma.row_requests;
  hw.local_level = static_cast<int>(hw.levels.size());
  hw.levels.push_back(localLevel(acc));
  if (const arch::StorageLevel* c = acc.level(arch::LevelKind::ClusterBuffer)) {
    hw.levels.push_back(clusterLevel(acc, *c));
  }
  hw.array_level = static_cast<int>(hw.levels.size()) - 1;
  hw.levels.push_back(peLevel(acc));
  if (acc.array.hasRegisters()) hw.levels.push_back(registerLevel(acc.array));
  int64_t copies = 1;
  for (Level& l : hw.levels) {
    l.instances = copies;
    copies *= l.fanout;
    if (static_cast<int>(&l - hw.levels.data()) == hw.array_level) copies *= hw.arrayPes();
  }
  hw.arrays = 1;
  for (int l = 0; l <= hw.array_level; ++l) hw.arrays *= hw.levels[size_t(l)].fanout;
  const arch::ComputeArray& a = acc.array;
  hw.systolic = a.kind == arch::ArrayKind::Systolic;
  // Systolic links forward operands PE to PE (a multicast in space) and add partial sums down
  // the columns (a reduction); a spatial array has what its NoC section says.
  hw.multicast = hw.systolic || acc.noc.multicast;
  hw.reduction = hw.systolic || acc.noc.reduction;
  hw.noc_bandwidth = acc.noc.bandwidth;
  hw.noc_pj = acc.noc.energy_pj_per_byte;
  hw.noc_bus = !hw.systolic && acc.noc.kind == "bus";
  hw.mac_pj = a.mac_energy_pj;
  hw.mac_pj_by_dtype = a.mac_energy_by_dtype;
  hw.fill_drain = a.pipeline_latency >= 0 ? a.pipeline_latency : a.rows + a.cols - 2.0;
  if (!hw.systolic) hw.fill_drain = std::max(0.0, a.pipeline_latency);
  hw.weight_double_buffered = a.weight_double_buffered;
  hw.accum_dtype = a.accum_dtype;
  hw.sparse = acc.sparse;
  hw.sparse.formats.clear();  // per nest level instead:
  hw.sparse.skip_reads.clear();
  hw.sparse.gate_reads.clear();
  for (Level& l : hw.levels) {
    for (int t = 0; t < 2; ++t) {
      const int at = l.arch_level[size_t(t)];
      if (at < 0) continue;
      l.format[size_t(t)] = acc.sparse.formatAt(static_cast<size_t>(at), t);
      l.skip_reads[size_t(t)] = static_cast<int8_t>(acc.sparse.skipReadsAt(static_cast<size_t>(at), t));
      l.gate_reads[size_t(t)] = static_cast<int8_t>(acc.sparse.gateReadsAt(static_cast<size_t>(at), t));
    }
  }
  return hw;
}

double Hardware::macPj(DType t) const {
  for (const auto& [d, pj] : mac_pj_by_dtype) {
    if (d == t) return pj;
  }
  return mac_pj;
}

}  // namespace tessel::dataflows::nest
