#include "sim/systemc/timing/memory_path.h"

#include <algorithm>

namespace tessel::sim::systemc {

MemoryPath::MemoryPath(std::vector<LevelRate> rates, const arch::Accelerator& acc, bool ideal)
    : rates_(std::move(rates)),
      lines_(rates_.size()),
      max_request_(std::max(1, acc.dma.max_request_bytes)),
      max_inflight_(acc.dma.max_inflight),
      ideal_(ideal) {
  for (size_t i = 0; i < rates_.size(); ++i) {
    const arch::StorageLevel& l = acc.levels[static_cast<size_t>(rates_[i].level)];
    if (l.kind == arch::LevelKind::DRAM) dram_ = static_cast<int>(i), dram_latency_ = l.latency;
    if (l.kind == arch::LevelKind::L2) l2_latency_ = l.latency;
  }
}

bool MemoryPath::offChip(int level) const {
  for (const LevelRate& r : rates_) {
    if (r.level == level) return true;
  }
  return false;
}

size_t MemoryPath::slot(int level) const {
  for (size_t i = 0; i < rates_.size(); ++i) {
    if (rates_[i].level == level) return i;
  }
  return 0;
}

MemoryPath::Transfer MemoryPath::transfer(double now, const std::vector<int64_t>& bytes,
                                          double request_bytes) {
  Transfer t;
  t.start = now;
  t.issued = now;
  int64_t most = 0;
  for (size_t i = 0; i < rates_.size() && i < bytes.size(); ++i) {
    if (bytes[i] <= 0) continue;
    most = std::max(most, bytes[i]);
    // The level's rate for these requests: its bandwidth, and the request window over its
    // round trip (one request per tile row).
    double rate = rates_[i].bandwidth;
    if (request_bytes > 0 && max_inflight_ > 0 && rates_[i].latency > 0) {
      const double window = max_inflight_ * request_bytes / rates_[i].latency;
      rate = rate > 0 ? std::min(rate, window) : window;
    }
    const double duration = ideal_ || rate <= 0 ? 0 : static_cast<double>(bytes[i]) / rate;
    const Timeline::Slot s = lines_[i].reserve(now, duration);
    t.waited = std::max(t.waited, s.waited);
    t.issued = std::max(t.issued, s.end);
  }
  t.requests = (most + max_request_ - 1) / max_request_;
  // The stream's last request leaves at `issued` and returns one round trip later.
  const bool dram = dram_ >= 0 && static_cast<size_t>(dram_) < bytes.size() && bytes[size_t(dram_)] > 0;
  const double latency = ideal_ ? 0 : (dram ? dram_latency_ : 0) + l2_latency_;
  t.end = t.issued + (t.requests > 0 ? latency : 0);
  return t;
}

}  // namespace tessel::sim::systemc
