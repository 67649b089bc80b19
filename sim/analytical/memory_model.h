// Time to move bytes between the off-chip levels (DRAM, L2) and the local memories. A transfer
// pays the latency of the levels it touches once (DRAM's when it touches DRAM, the L2's
// whenever there is one), then each level streams its bytes at its rate: DRAM at the slowest of
// its bandwidth, the L2's, the DMA bus and the DMA's request window (Little's law:
// max_inflight * max_request / latency); the L2 at the slower of its own and the bus.
#pragma once

#include <array>
#include <cstddef>

#include "arch/accelerator.h"

namespace tessel::sim::analytical {

inline constexpr size_t kMaxLevels = 8;

// Bytes read from / written to each level (indexed like Accelerator::levels).
struct Transfer {
  std::array<double, kMaxLevels> read{};
  std::array<double, kMaxLevels> write{};
  bool empty() const;
};

class MemoryModel {
 public:
  MemoryModel(const arch::Accelerator& acc, bool ideal);

  double cycles(const Transfer& t) const;
  double latency(const Transfer& t) const;  // the part of cycles(t) that does not scale with bytes
  int l2() const { return l2_; }     // index of the L2, or -1
  bool offChip(size_t level) const;  // DRAM or L2
  // Index of the level that holds inputs/weights locally (scratchpad or global buffer) and the
  // one that holds outputs (accumulator, or the same global buffer).
  int localInputs() const { return local_in_; }
  int localOutputs() const { return local_out_; }

 private:
  const arch::Accelerator& acc_;
  bool ideal_;
  int l2_ = -1;
  int local_in_ = -1;
  int local_out_ = -1;
  std::array<double, kMaxLevels> rate_{};  // bytes/cycle of each off-chip level
};

}  // namespace tessel::sim::analytical
