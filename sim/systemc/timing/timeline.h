// A resource that serves one transaction at a time: a port, a link, a unit. Reserving it for a
// duration starts the work when both the request and the resource are ready. Plain C++: the
// SystemC blocks call it to learn a transaction's annotated delay.
#pragma once

#include <algorithm>

namespace tessel::sim::systemc {

// Times are in accelerator cycles; SystemC's time resolves to a picosecond, a thousandth of a
// cycle at 1 ns per cycle: closer than this is the same instant.
inline constexpr double kTimeEps = 1e-3;

class Timeline {
 public:
  struct Slot {
    double start = 0;
    double end = 0;
    double waited = 0;  // how long the request found the resource busy
  };

  Slot reserve(double now, double duration) {
    Slot s;
    s.start = std::max(now, free_);
    s.waited = s.start - now;
    s.end = s.start + std::max(0.0, duration);
    free_ = s.end;
    busy_ += s.end - s.start;
    return s;
  }
  // The resource stays occupied until `t` (a compute waiting on its operands' delivery).
  void holdUntil(double t) { free_ = std::max(free_, t); }
  double free() const { return free_; }
  double busy() const { return busy_; }  // total reserved time since construction

 private:
  double free_ = 0;
  double busy_ = 0;
};

}  // namespace tessel::sim::systemc
