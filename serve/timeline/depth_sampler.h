// Samples of the queue depths on an even grid over time, at most kMaxSamples however long the
// run: when the grid would overflow, its step doubles and every other sample goes. Each sample
// is the value at its instant (after every change at that instant). Plain C++.
#pragma once

#include <cstdint>
#include <vector>

#include "serve/timeline.h"

namespace tessel::serve::systemc {

using Ticks = int64_t;  // the simulation's time unit (SystemC's resolution)

class DepthSampler {
 public:
  static constexpr size_t kMaxSamples = 256;

  // The values held from the last call until `t`: records the grid instants before `t`.
  void advance(Ticks t, int submit, int in_system);
  // The samples, grid instants up to and including `end` (where the values are `submit`,
  // `in_system`), in seconds.
  std::vector<DepthSample> finish(Ticks end, int submit, int in_system, double tick_seconds);

 private:
  struct Point {
    int submit, in_system;
  };
  void coarsen();

  Ticks step_ = 1;             // grid spacing
  Ticks next_ = 0;             // the first instant not yet recorded
  std::vector<Point> points_;  // points_[k] holds instant k * step_
};

}  // namespace tessel::serve::systemc
