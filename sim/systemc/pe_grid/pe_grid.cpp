#include "sim/systemc/pe_grid/pe_grid.h"

#include <memory>
#include <stdexcept>
#include <systemc>

#include "sim/systemc/pe_grid/edges.h"
#include "sim/systemc/pe_grid/grid.h"

namespace tessel::sim::pe_grid {

namespace {

// The array with its driver, collector and clock: the whole elaborated design.
struct Testbench {
  sc_core::sc_clock clk{"clk", 1, sc_core::SC_NS};
  PeArray array;
  Driver driver;
  Collector collector;

  Testbench(const GridConfig& cfg, const Schedule& schedule, Collected& out)
      : array("array", cfg.rows, cfg.cols, cfg.dataflow),
        driver("driver", schedule, cfg.rows, cfg.cols),
        collector("collector", schedule, cfg.cols, out) {
    array.clk(clk);
    driver.clk(clk);
    collector.clk(clk);
    for (int r = 0; r < cfg.rows; ++r) driver.left[size_t(r)](array.leftEdge(r));
    for (int c = 0; c < cfg.cols; ++c) {
      driver.top[size_t(c)](array.topEdge(c));
      collector.bottom[size_t(c)](array.bottomSum(c));
    }
  }
};

}  // namespace

GridResult runSystolicGemm(const GridConfig& config, GemmShape shape, const std::vector<int8_t>& a,
                           const std::vector<int8_t>& b) {
  const auto [m, k, n] = shape;
  if (a.size() != size_t(m) * size_t(k) || b.size() != size_t(k) * size_t(n)) {
    throw std::invalid_argument("runSystolicGemm: A must be M×K and B K×N");
  }
  const Schedule schedule(config, shape, a.data(), b.data());
  static bool elaborated = false;
  if (elaborated) {
    throw std::logic_error(
        "runSystolicGemm: SystemC elaborates once per process; run each simulation in its own "
        "process (fork a child)");
  }
  elaborated = true;
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  Collected out;
  out.c.assign(size_t(m) * size_t(n), 0);
  auto bench = std::make_unique<Testbench>(config, schedule, out);
  // A legal schedule finishes at expectedCycles(); a broken one would wait forever.
  const int64_t limit = 2 * schedule.expectedCycles() + 64;
  sc_core::sc_start(sc_core::sc_time(double(limit), sc_core::SC_NS));

  GridResult result;
  result.complete = out.end >= 0;
  result.c = std::move(out.c);
  result.cycles = out.end;
  result.issue_period = schedule.period();
  for (int t = 0; t < schedule.tiles(); ++t) {
    const int64_t end = out.tile_end[size_t(t)];
    result.tile_cycles.push_back(end < 0 ? -1 : end - schedule.tileStart(t));
  }
  return result;
}

}  // namespace tessel::sim::pe_grid
