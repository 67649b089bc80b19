// Which limit sets the rate at which tiles stream between DRAM and the local memories. The
// analytical memory model takes the slowest of these; reports say which one binds, so a user who
// raises dram.bandwidth and sees nothing change learns why.
#pragma once

#include <string>

#include "arch/accelerator.h"

namespace tessel::arch {

struct OffChipBandwidth {
  double bytes_per_cycle = 0;  // the effective rate
  std::string limit;           // "dram.bandwidth", "l2.bandwidth", "dma.bus_width", "dma window"
  std::string why;             // one line: the numbers behind it
};

// min(dram.bandwidth, l2.bandwidth, dma.bus_width, dma window), the window being Little's law:
// max_inflight x max_request bytes in flight over the round-trip latency of DRAM (+ L2).
OffChipBandwidth offChipBandwidth(const Accelerator& acc);

}  // namespace tessel::arch
