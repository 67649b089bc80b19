// The DMA and the off-chip levels behind it (DRAM, and an L2 when there is one). A transfer is
// split into requests of at most dma.max_request bytes; at most dma.max_inflight are
// outstanding, each waiting the round-trip latency; each level streams at its own bandwidth and
// is shared by every transfer touching it, loads and stores alike. A GEMM tile's transfer makes
// one request per tile row (Gemmini's StreamReader/StreamWriter, DMA.scala), so its requests
// carry `request_bytes` each and a level streams them at most at max_inflight x request_bytes /
// that level's round trip (Little's law; dataflows::nest::offchipRate, the same closed form). A whole transfer is one
// transaction: its requests are issued back to back and the last returns one latency after it
// is issued, so transfers pipeline and the latency shows only when the stream runs dry.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/accelerator.h"
#include "sim/systemc/timing/timeline.h"

namespace tessel::sim::systemc {

class MemoryPath {
 public:
  struct LevelRate {
    int level = 0;          // index into Accelerator::levels
    double bandwidth = 0;   // bytes/cycle (0 = unlimited)
    double latency = 0;     // a request's round trip when this level serves it
  };
  // `rates`: the off-chip levels' streaming rates (DRAM: the slowest of dram.bandwidth, the DMA
  // bus and its request window; L2: l2.bandwidth and the bus). A transfer's round trip is the
  // DRAM's latency when it touches DRAM, plus the L2's whenever there is one.
  MemoryPath(std::vector<LevelRate> rates, const arch::Accelerator& acc, bool ideal);

  struct Transfer {
    double start = 0;   // first request issued
    double issued = 0;  // last request issued
    double end = 0;     // last response back
    double waited = 0;  // time the transfer found a level busy with earlier ones
    int64_t requests = 0;
  };
  // bytes[i]: bytes this transfer moves at rates[i]'s level; request_bytes: bytes per request
  // (0: max_request, and no window beyond the levels' own rates).
  Transfer transfer(double now, const std::vector<int64_t>& bytes, double request_bytes = 0);
  bool offChip(int level) const;
  size_t slot(int level) const;  // position of `level` in rates (offChip(level) must hold)

  const std::vector<LevelRate>& rates() const { return rates_; }

 private:
  std::vector<LevelRate> rates_;
  std::vector<Timeline> lines_;
  int dram_ = -1;             // index of the DRAM level in rates_
  double dram_latency_ = 0;
  double l2_latency_ = 0;
  int64_t max_request_ = 64;
  double max_inflight_ = 16;
  bool ideal_ = false;
};

}  // namespace tessel::sim::systemc
