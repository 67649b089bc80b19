// What the chart primitives share: coordinates, marks with tooltips, text, legends. Axes are in
// svg_axis.h.
#pragma once

#include <string>
#include <vector>

#include "reports/html/svg.h"

namespace tessel::reports::html::svgparts {

std::string num(double v);  // pixel coordinates, 2 decimals
std::string dataAttrs(const Attrs& a);
std::string title(const std::string& tooltip);
// The root <svg>; `data` adds data-* attributes to it (data-chart="stacked", data-panel=...).
std::string openSvg(const std::string& id, double w, double h, const Attrs& data = {});
std::string text(double x, double y, const std::string& s, const std::string& extra = "");
// Swatches and names from (x, y), wrapping into rows of 18 px before max_x; each entry a
// <g class="legend-entry" data-series="NAME">.
std::string legend(const std::vector<LegendEntry>& entries, double x, double y, double max_x);
// How many rows legend() takes for `entries` between x and max_x (0 when there are none).
int legendRows(const std::vector<LegendEntry>& entries, double x, double max_x);
Formatter orHuman(const Formatter& f);

}  // namespace tessel::reports::html::svgparts
