#include "sim/systemc/pe_grid/edges.h"

#include <algorithm>

namespace tessel::sim::pe_grid {

Driver::Driver(sc_core::sc_module_name name, const Schedule& schedule, int rows, int cols)
    : sc_module(name), left("left", size_t(rows)), top("top", size_t(cols)), schedule_(schedule) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void Driver::tick() {
  for (size_t r = 0; r < left.size(); ++r) left[r].write(schedule_.left(edge_, int(r)));
  for (size_t c = 0; c < top.size(); ++c) top[c].write(schedule_.top(edge_, int(c)));
  ++edge_;
}

Collector::Collector(sc_core::sc_module_name name, const Schedule& schedule, int cols,
                     Collected& out)
    : sc_module(name),
      bottom("bottom", size_t(cols)),
      schedule_(schedule),
      out_(out),
      seen_(size_t(cols), 0),
      missing_(schedule.outputsPerColumn() * cols) {
  out_.tile_end.assign(size_t(schedule.tiles()), -1);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void Collector::tick() {
  for (size_t c = 0; c < bottom.size(); ++c) {
    const SumReg& s = bottom[c].read();
    if (!s.valid || seen_[c] >= schedule_.outputsPerColumn()) continue;
    schedule_.collect(int(c), seen_[c], s.value, out_.c);
    int64_t& end = out_.tile_end[size_t(schedule_.tileOfOutput(seen_[c]))];
    end = std::max(end, edge_);
    ++seen_[c];
    if (--missing_ == 0) {
      out_.end = edge_;
      sc_core::sc_stop();
    }
  }
  ++edge_;
}

}  // namespace tessel::sim::pe_grid
