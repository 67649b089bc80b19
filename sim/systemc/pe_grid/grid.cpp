#include "sim/systemc/pe_grid/grid.h"

namespace tessel::sim::pe_grid {

PeArray::PeArray(sc_core::sc_module_name name, int rows, int cols, Dataflow dataflow)
    : sc_module(name),
      rows_(rows),
      cols_(cols),
      pes_("pe"),
      right_("right", size_t(rows * (cols + 1))),
      down_("down", size_t((rows + 1) * cols)),
      sum_("sum", size_t((rows + 1) * cols)) {
  pes_.init(size_t(rows * cols),
            [&](const char* n, size_t i) { return new Pe(n, dataflow, int(i) / cols); });
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      Pe& pe = pes_[size_t(r * cols + c)];
      const size_t h = size_t(r * (cols + 1) + c), v = size_t(r * cols + c);
      pe.clk(clk);
      pe.left(right_[h]);
      pe.right(right_[h + 1]);
      pe.up(down_[v]);
      pe.down(down_[v + size_t(cols)]);
      pe.sum_in(sum_[v]);
      pe.sum_out(sum_[v + size_t(cols)]);
    }
  }
}

}  // namespace tessel::sim::pe_grid
