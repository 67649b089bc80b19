#include "sim/analytical/memory_model.h"

#include <algorithm>

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
}

bool MemoryModel::offChip(size_t level) const {
  const LevelKind k = acc_.levels.at(level).kind;
  return k == LevelKind::DRAM || k == LevelKind::L2;
}

double MemoryModel::cycles(const Transfer& t) const {
  if (ideal_ || t.empty()) return 0;
  const arch::StorageLevel& dram = acc_.levels[0];
  const double dram_bytes = t.read[0] + t.write[0];
  double all = 0;
  for (size_t i = 0; i < acc_.levels.size(); ++i) {
    if (offChip(i)) all += t.read[i] + t.write[i];
  }
  if (all <= 0) return 0;
  double latency = dram_bytes > 0 ? dram.latency : 0;
  double slowest = dram_bytes > 0 ? dram_bytes / dram.bandwidth : 0;
  if (l2_ >= 0) {
    // Everything between DRAM and the local memories passes the L2's port.
    const arch::StorageLevel& l2 = acc_.levels[static_cast<size_t>(l2_)];
    latency += l2.latency;
    slowest = std::max(slowest, all / l2.bandwidth);
  }
  double dma_bw = acc_.dma.bus_bytes_per_cycle;
  if (latency > 0) {
    const double window = acc_.dma.max_inflight * static_cast<double>(acc_.dma.max_request_bytes);
    dma_bw = std::min(dma_bw, window / latency);
  }
  slowest = std::max(slowest, all / dma_bw);
  return latency + slowest;
}

}  // namespace tessel::sim::analytical
