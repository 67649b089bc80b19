#include "arch/accelerator.h"

#include <algorithm>

namespace tessel::arch {

std::string_view nameOf(LevelKind k) {
  switch (k) {
    case LevelKind::DRAM:
      return "dram";
    case LevelKind::L2:
      return "l2";
    case LevelKind::Scratchpad:
      return "scratchpad";
    case LevelKind::Accumulator:
      return "accumulator";
    case LevelKind::GlobalBuffer:
      return "global_buffer";
    case LevelKind::ClusterBuffer:
      return "cluster_buffer";
  }
  return "?";
}

std::string_view nameOf(ArrayKind k) { return k == ArrayKind::Systolic ? "systolic" : "spatial"; }

double ComputeArray::macRate(DType t) const {
  for (const auto& [dtype, rate] : macs_per_cycle) {
    if (dtype == t) return rate;
  }
  return 0;
}

double ComputeArray::macRate(DType input, DType weight) const {
  if (input == weight) return macRate(input);
  for (const MixedRate& m : mixed_macs_per_cycle) {
    if (m.input == input && m.weight == weight) return m.rate;
  }
  if (bytesOf(weight) <= bytesOf(input)) return macRate(input);
  return macRate(weight);
}

double ComputeArray::epiloguePj(const std::string& op) const {
  for (const auto& [name, pj] : epilogue_pj) {
    if (name == op) return pj;
  }
  return 0;
}

bool ComputeArray::supportsDataflow(const std::string& name) const {
  return std::find(dataflows.begin(), dataflows.end(), name) != dataflows.end();
}

bool Sfu::supports(const std::string& op) const {
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

double Host::costPerElement(const std::string& op) const {
  for (const auto& [name, cycles] : cycles_per_element) {
    if (name == op) return cycles;
  }
  return -1;
}

const StorageLevel* Accelerator::level(LevelKind kind) const {
  for (const auto& l : levels) {
    if (l.kind == kind) return &l;
  }
  return nullptr;
}

int64_t Accelerator::arrays() const {
  int64_t n = 1;
  for (const auto& l : levels) n *= l.fanout.instances;
  return n;
}

uint64_t StorageLevel::sharedBytes() const {
  if (!partitioned) return capacity_bytes;
  uint64_t least = 0;
  for (uint64_t pool : tensor_capacity) {
    if (pool > 0 && (least == 0 || pool < least)) least = pool;
  }
  return least;
}

double StorageLevel::readPj(int tensor) const {
  const double e = tensor_read_pj.at(static_cast<size_t>(tensor));
  return e >= 0 ? e : read_energy_pj_per_byte;
}

double StorageLevel::writePj(int tensor) const {
  const double e = tensor_write_pj.at(static_cast<size_t>(tensor));
  return e >= 0 ? e : write_energy_pj_per_byte;
}

}  // namespace tessel::arch

namespace tessel::arch {

int64_t Accelerator::instancesOf(size_t level) const {
  int64_t n = 1;
  for (size_t i = 0; i < level && i < levels.size(); ++i) {
    // The accumulator sits beside the scratchpad, not below its fan-out.
    const bool sibling = levels[i].kind == LevelKind::Scratchpad && levels[level].kind == LevelKind::Accumulator;
    if (!sibling) n *= levels[i].fanout.instances;
  }
  return n;
}

double Accelerator::peakMacsPerCycle() const {
  return static_cast<double>(array.rows) * array.cols * static_cast<double>(arrays()) *
         array.macRate(array.input_dtype);
}

std::string_view categoryOf(std::string_view component, std::string_view offchip_level, bool level) {
  if (component == "array" || component == "register_file" || component == "sfu" ||
      component == "epilogue") {
    return "compute";
  }
  if (component == "noc") return "noc";
  if (component == "control" || component == "dma") return "control";
  if (component == "io") return "I/O";
  if (component == "clock") return "clock";
  if (component == "host") return "host";
  if (level) return component == offchip_level ? "dram" : "on-chip memory";
  return "other";
}

double Silicon::totalArea() const {
  double sum = 0;
  for (const auto& [component, mm2] : area_mm2) sum += mm2;
  return sum;
}

double Silicon::totalLeakage() const {
  double sum = 0;
  for (const auto& [component, mw] : leakage_mw) sum += mw;
  return sum;
}

double Silicon::totalLogicGates() const {
  double sum = 0;
  for (const auto& [component, gates] : logic_gates) sum += gates;
  return sum;
}

}  // namespace tessel::arch

namespace tessel::arch {

double ComputeArray::macEnergy(DType t) const {
  for (const auto& [d, pj] : mac_energy_by_dtype) {
    if (d == t) return pj;
  }
  return mac_energy_pj;
}

}  // namespace tessel::arch
