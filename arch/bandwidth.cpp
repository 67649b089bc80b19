#include "arch/bandwidth.h"

#include "util/units.h"

namespace tessel::arch {

OffChipBandwidth offChipBandwidth(const Accelerator& acc) {
  using units::formatNumber;
  const StorageLevel& dram = acc.levels.at(0);
  double latency = dram.latency;
  OffChipBandwidth b{dram.bandwidth, "dram.bandwidth",
                     "DRAM delivers " + formatNumber(dram.bandwidth) + " B/cycle"};
  if (dram.efficiency < 1) {
    const double sustained = dram.bandwidth * dram.efficiency;
    b = {sustained, "dram.efficiency",
         "DRAM sustains " + formatNumber(dram.efficiency) + " x " + formatNumber(dram.bandwidth) +
             " = " + formatNumber(sustained) + " B/cycle"};
  }
  if (const StorageLevel* l2 = acc.level(LevelKind::L2)) {
    latency += l2->latency;
    if (l2->bandwidth < b.bytes_per_cycle) {
      b = {l2->bandwidth, "l2.bandwidth",
           "every off-chip byte passes the L2's " + formatNumber(l2->bandwidth) + " B/cycle port"};
    }
  }
  if (acc.dma.bus_bytes_per_cycle < b.bytes_per_cycle) {
    b = {acc.dma.bus_bytes_per_cycle, "dma.bus_width",
         "the DMA bus moves " + formatNumber(acc.dma.bus_bytes_per_cycle) + " B/cycle"};
  }
  if (latency > 0) {
    const double in_flight = static_cast<double>(acc.dma.max_inflight) * acc.dma.max_request_bytes;
    const double window = in_flight / latency;
    if (window < b.bytes_per_cycle) {
      b = {window, "dma window",
           "Little's law: " + std::to_string(acc.dma.max_inflight) + " requests x " +
               std::to_string(acc.dma.max_request_bytes) + " B in flight / " +
               formatNumber(latency) + " cycles latency = " + formatNumber(window) + " B/cycle"};
    }
  }
  return b;
}

}  // namespace tessel::arch
