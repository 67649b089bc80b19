// What the chart primitives share: axes with readable ticks, marks with tooltips, legends.
#pragma once

#include <string>
#include <vector>

#include "reports/html/svg.h"

namespace tessel::reports::html::svgparts {

// A numeric axis mapping [lo, hi] onto a pixel span; linear or log10.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double p0 = 0, p1 = 1;  // pixels of lo and hi
  double at(double v) const;
  std::vector<double> ticks() const;
};
// An axis covering [lo, hi] that starts and ends on round values (1, 2, 5 x 10^k steps).
Axis niceAxis(double lo, double hi, double p0, double p1);
// A log axis over [lo, hi] (both > 0) with ticks at powers of 2 or 10.
Axis logAxis(double lo, double hi, double p0, double p1);

std::string num(double v);  // pixel coordinates, 2 decimals
std::string dataAttrs(const Attrs& a);
std::string title(const std::string& tooltip);
std::string openSvg(const std::string& id, double w, double h);
std::string text(double x, double y, const std::string& s, const std::string& extra = "");
// Swatches and names in one row starting at (x, y); returns the SVG.
std::string legend(const std::vector<LegendEntry>& entries, double x, double y);
// Tick marks, grid lines and labels of a vertical value axis at x over [top, bottom].
std::string yAxis(const Axis& a, double x, double x_end, const Formatter& f,
                  const std::string& label);
std::string xAxis(const Axis& a, double y, double y_top, const Formatter& f,
                  const std::string& label);
Formatter orHuman(const Formatter& f);

}  // namespace tessel::reports::html::svgparts
