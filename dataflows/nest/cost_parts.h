// The cost model's parts, each counting one thing (cost.cpp puts them together):
//   reuse.h      residency and reuse: elements crossing a cut of the nest
//   transfers    reads, writes and NoC bytes per level and tensor
//   timing       the array's time, the ports', the off-chip stream's and their overlap
// Internal to the cost model.
#pragma once

#include "dataflows/nest/cost.h"
#include "dataflows/nest/reuse.h"

namespace tessel::dataflows::nest {

// Fills c.reads, c.writes, c.noc_bytes and c.delivered.
void countTransfers(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
                    const Nest& nest, Cost& c);

// Fills the time fields of c (steps .. cycles, utilization) from its transfers.
void timeOp(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
            const Nest& nest, Cost& c);

inline double sizeOf(DType t) { return static_cast<double>(tessel::bytesOf(t)); }
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace tessel::dataflows::nest
