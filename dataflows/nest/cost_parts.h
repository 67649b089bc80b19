// The cost model's parts, each counting one thing (cost.cpp puts them together):
//   reuse.h      residency and reuse: elements crossing a cut of the nest
//   transfers    reads, writes and NoC bytes per level and tensor
//   timing       the array's time, the ports', the off-chip stream's and their overlap
// Internal to the cost model.
#pragma once

#include <array>
#include <cstdint>

#include "dataflows/nest/cost.h"
#include "dataflows/nest/reuse.h"

namespace tessel::dataflows::nest {

// Fills c.reads, c.writes, c.noc_bytes and c.delivered.
void countTransfers(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
                    const Nest& nest, Cost& c);

// Fills the time fields of c (steps .. cycles, utilization) from its transfers.
struct SparseEffect;
void timeOp(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
            const Nest& nest, Cost& c, const SparseEffect& sparse);

// Bytes per element, looked up once per dtype and thread: the cost model asks millions of times
// per search, and a dtype's size never changes once it exists (registered block-scaled dtypes
// keep their slot for the life of the process).
inline double sizeOf(DType t) {
  thread_local std::array<double, 256> bytes{};  // 0: not looked up yet (no dtype has 0 bytes)
  double& b = bytes[static_cast<uint8_t>(t)];
  if (b == 0) b = tessel::bytesOf(t);
  return b;
}
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace tessel::dataflows::nest
