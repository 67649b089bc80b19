// Pareto fronts of a sweep: SRAM vs latency and energy vs latency.
#include <cmath>

#include "reports/html/pareto.h"
#include "reports/html/sweep_charts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

Chart front(const WorkloadView& w, const std::string& xm, const std::string& ym,
            const std::string& suffix, Table& table) {
  std::vector<const SweepPoint*> pts;
  std::vector<std::pair<double, double>> xy;
  for (const SweepPoint* p : w.ok) {
    const double x = metricOf(*p, xm), y = metricOf(*p, ym);
    if (std::isnan(x) || std::isnan(y)) continue;
    pts.push_back(p);
    xy.emplace_back(x, y);
  }
  std::vector<bool> on(pts.size(), false);
  for (const size_t i : paretoFront(xy)) on[i] = true;
  Scatter c;
  c.id = w.prefix + "-pareto-" + suffix;
  c.x_label = metricLabel(xm), c.y_label = metricLabel(ym);
  c.x_format = [xm](double v) { return metricText(xm, v); };
  c.x_log = xm == "sram_bytes";
  for (size_t i = 0; i < pts.size(); ++i) {
    const SweepPoint& p = *pts[i];
    c.points.push_back({xy[i].first,
                        xy[i].second,
                        on[i],
                        paramsText(p, w.all_keys) + ": " + xm + " " + metricText(xm, xy[i].first) +
                            ", " + ym + " " + metricText(ym, xy[i].second) +
                            (on[i] ? " (on the front)" : " (dominated)"),
                        {{"index", std::to_string(p.index)},
                         {"x", exactNumber(xy[i].first)},
                         {"y", exactNumber(xy[i].second)},
                         {"front", on[i] ? "1" : "0"}}});
    if (!on[i]) continue;
    table.addRow({textCell(w.name), textCell(xm + " vs " + ym),
                  countCell(static_cast<double>(p.index)), textCell(paramsText(p, w.all_keys)),
                  numberCell(xy[i].first, metricText(xm, xy[i].first)),
                  numberCell(xy[i].second, metricText(ym, xy[i].second))});
  }
  return {c.id, "Pareto front: " + xm + " vs " + ym, scatterSvg(c),
          "Highlighted points are on the front (no other point is as good in both and better in "
          "one); grey points are dominated."};
}

}  // namespace

std::vector<Chart> paretoCharts(const WorkloadView& w, Table& pareto) {
  std::vector<Chart> v;
  if (w.ok.empty() || std::isnan(metricOf(*w.ok[0], "cycles"))) return v;
  if (!std::isnan(metricOf(*w.ok[0], "sram_bytes"))) {
    v.push_back(front(w, "sram_bytes", "cycles", "sram", pareto));
  }
  if (!std::isnan(metricOf(*w.ok[0], "energy_pj"))) {
    v.push_back(front(w, "energy_pj", "cycles", "energy", pareto));
  }
  return v;
}

}  // namespace tessel::reports::html
