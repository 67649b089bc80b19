// Axes of the chart primitives. A value axis (what a chart measures) starts at 0, or, when its
// data sit far from 0 with a spread worth seeing, starts above 0 and is drawn broken; its ticks
// read in the unit its title names, the prefix chosen from its range. Every axis carries data-*
// attributes saying so (docs/reports.md, "Axes"), which tests check without a screenshot.
#pragma once

#include <string>
#include <vector>

#include "reports/html/svg.h"

namespace tessel::reports::html::svgparts {

// A value axis zooms (starts above 0, broken) only when every value is above kZoomFloor of the
// largest and they differ by at least kMinSpread of it; a smaller spread is drawn from 0, flat.
constexpr double kZoomFloor = 0.6;
constexpr double kMinSpread = 0.03;

enum class AxisRole {
  Value,  // a measured quantity: from 0 or broken, ticks in `shown`
  Key,    // what the values are plotted against (workers, time): any range, log allowed
};

// A numeric axis mapping [lo, hi] onto the pixels [p0, p1]; linear or log10.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double p0 = 0, p1 = 1;
  AxisRole role = AxisRole::Key;
  bool broken = false;  // a value axis starting above 0
  Unit unit;            // value axes: what is measured
  ShownUnit shown;      // value axes: the unit of the tick labels (ticks are value / factor)
  std::string label;    // key axes: the title
  Formatter format;     // key axes: tick labels (humanNumber when empty)

  double at(double v) const;
  std::vector<double> ticks() const;
  std::vector<std::string> tickLabels(const std::vector<double>& ticks) const;
  std::string title() const;
};

// A value axis for data in [lo, hi] in `u`'s base unit. It starts at 0 (at lo when lo < 0)
// unless `may_break` and every value is above 60% of the largest and they differ by 3% of it or
// more: then it starts at a round value below lo and is `broken`. Bars never break.
Axis valueAxis(double lo, double hi, double p0, double p1, const Unit& u, bool may_break = true);
// A key axis over [lo, hi]: logarithmic when `log` (lo > 0) or when it spans more than 16x above 0.
Axis keyAxis(double lo, double hi, bool log, double p0, double p1, const std::string& label,
             const Formatter& f);

// Grid lines, tick labels, the title and, for a broken axis, the break mark of a vertical axis at
// x (grid lines to x_end); `title_x` is where the rotated title sits.
std::string yAxis(const Axis& a, double x, double x_end, double title_x = 14);
// The same for a horizontal axis at y (grid lines up to y_top); `which` names it ("x", "color").
std::string xAxis(const Axis& a, double y, double y_top, const std::string& which = "x");
// The opening tag of a categorical axis group (heatmap rows, bar groups), with its data-*.
std::string categoryAxisOpen(const std::string& which);

// A colour ramp's legend over the value axis `a` (its pixels the ramp's extent) at height y.
std::string rampLegend(const std::string& id, const Axis& a, double y);

}  // namespace tessel::reports::html::svgparts
