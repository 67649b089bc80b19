#include "sim/analytical/memory_model.h"

#include <algorithm>

#include "dataflows/nest/hardware.h"
#include "util/error.h"

namespace tessel::sim::analytical {

using arch::LevelKind;

bool Transfer::empty() const {
  for (size_t i = 0; i < kMaxLevels; ++i) {
    if (read[i] > 0 || write[i] > 0) return false;
  }
  return true;
}

MemoryModel::MemoryModel(const arch::Accelerator& acc, bool ideal) : acc_(acc), ideal_(ideal) {
  if (acc.levels.size() > kMaxLevels) throw Error("too many storage levels");
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    const LevelKind k = acc.levels[i].kind;
    const int idx = static_cast<int>(i);
    if (k == LevelKind::L2) l2_ = idx;
    if ((k == LevelKind::Scratchpad || k == LevelKind::GlobalBuffer) && local_in_ < 0) {
      local_in_ = idx;
    }
    if (k == LevelKind::Accumulator || k == LevelKind::GlobalBuffer) local_out_ = idx;
  }
  if (local_out_ < 0) local_out_ = local_in_;
  if (local_in_ < 0) throw Error("accelerator '" + acc.name + "' has no local memory");
  const dataflows::nest::Hardware hw = dataflows::nest::hardwareOf(acc);
  for (int l = 0; l < hw.local(); ++l) {
    const dataflows::nest::Level& level = hw.levels[static_cast<size_t>(l)];
    rate_[static_cast<size_t>(level.arch_level[0])] = level.bandwidth[0];
  }
}

bool MemoryModel::offChip(size_t level) const {
  const LevelKind k = acc_.levels.at(level).kind;
  return k == LevelKind::DRAM || k == LevelKind::L2;
}

double MemoryModel::latency(const Transfer& t) const {
  if (ideal_ || t.empty()) return 0;
  double all = 0;
  for (size_t i = 0; i < acc_.levels.size(); ++i) {
    if (offChip(i)) all += t.read[i] + t.write[i];
  }
  if (all <= 0) return 0;
  double latency = t.read[0] + t.write[0] > 0 ? acc_.levels[0].latency : 0;
  if (l2_ >= 0) latency += acc_.levels[static_cast<size_t>(l2_)].latency;
  return latency;
}

double MemoryModel::cycles(const Transfer& t) const {
  if (ideal_ || t.empty()) return 0;
  // Each off-chip level streams its bytes at the rate the loop-nest model gives it (DRAM: the
  // slowest of its bandwidth, the L2's, the DMA bus and its request window; L2: its own and the
  // bus): the same rates the SystemC engine's DMA uses.
  double slowest = 0;
  for (size_t i = 0; i < acc_.levels.size(); ++i) {
    const double bytes = t.read[i] + t.write[i];
    if (bytes > 0 && offChip(i) && rate_[i] > 0) slowest = std::max(slowest, bytes / rate_[i]);
  }
  return latency(t) + slowest;
}

}  // namespace tessel::sim::analytical
