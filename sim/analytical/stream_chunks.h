// How an op that is not a GEMM streams through its local memory: in n chunks, double buffered
// (two halves, each holding an input chunk and an output chunk), load -> unit -> store per chunk.
// The closed-form time for n chunks, and the n the model picks: the fastest the memory allows.
// The SystemC engine streams the op in the same chunks as commands.
#pragma once

#include <array>
#include <cstdint>

#include "sim/analytical/memory_model.h"

namespace tessel::sim::analytical {

// The terms of a streamed op's time, in cycles, over the whole op.
struct Stream {
  double latency = 0;       // the transfers' round trip, paid once before the first chunk
  double load_latency = 0;  // a load's round trip (0 without loads): every refill waits for it
  double loads = 0;         // L: the loads' own transfer time
  double stores = 0;        // S: the stores' own transfer time
  double unit = 0;          // U: the unit's time (SFU passes, accumulator path)
  // The busiest level the stores use, counting the loads queued ahead of them there: S + L when
  // loads and stores share one level, S when they do not.
  double store_path = 0;
  struct Level {
    double time = 0;    // this off-chip level's transfer time, loads and stores together
    double loads = 0;   // of it, the loads'
    double stores = 0;  // of it, the stores'
  };
  std::array<Level, kMaxLevels> levels{};  // per Accelerator level; on-chip ones stay 0
};

// The largest of three bounds, with l = L/n, s = S/n, u = U/n per chunk, λ the load's round
// trip and, for n >= 3 (stream_chunks.cpp derives each, and what differs for 1 and 2 chunks):
//   unit:   latency + l + U + s
//   level:  its time + (l + λ + u − 2 l')⁺ + (max(λ, q − l) + u + s − 3 s')⁺, each level, with
//           l', s' its share of a chunk's load and store and q = store_path / n
//   halves: latency + l + s + u + max(u, l) + (n − 2)/2 · (u + max(l + λ, q))
// More chunks shorten the fill and the drain; too many expose a round trip per chunk.
double streamCycles(const Stream& s, int64_t n);

// The n in [lo, hi] with the fewest cycles, the smallest of equals: one and two chunks compared
// directly; from three on every bound is convex in 1/n, so the time falls and then rises and a
// bisection on its slope finds the fastest in log2(hi) evaluations. lo >= 1; hi < lo counts as lo.
int64_t fastestChunks(const Stream& s, int64_t lo, int64_t hi);

}  // namespace tessel::sim::analytical
