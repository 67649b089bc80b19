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

}  // namespace tessel::arch
