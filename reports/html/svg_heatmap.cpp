// Heatmap: one cell per (x, y) pair, coloured by value on a ramp whose scale is a value axis.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "reports/format.h"
#include "reports/html/palette.h"
#include "reports/html/svg.h"
#include "reports/html/svg_axis.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using namespace svgparts;

// Cell labels in the scale's unit, with as many decimals as it takes for different values to
// read differently, up to 6 significant digits: a sweep whose cells differ in the 5th digit
// shows it (the tooltip has the exact value).
std::map<double, std::string> cellLabels(const Heatmap& c, double factor) {
  double top = 0;
  for (const auto& cell : c.cells) top = std::max(top, std::fabs(cell.mark.value / factor));
  const int magnitude = top > 0 ? static_cast<int>(std::floor(std::log10(top))) : 0;
  int decimals = std::max(0, 2 - magnitude);
  const int most = std::max(decimals, 5 - magnitude);
  std::map<double, std::string> labels;
  for (;; ++decimals) {
    labels.clear();
    std::map<std::string, double> seen;
    bool distinct = true;
    for (const auto& cell : c.cells) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*f", decimals, cell.mark.value / factor);
      labels[cell.mark.value] = buf;
      auto [it, added] = seen.emplace(buf, cell.mark.value);
      distinct = distinct && (added || it->second == cell.mark.value);
    }
    if (distinct || decimals >= most) return labels;
  }
}

Axis colorAxis(const Heatmap& c, double x0, double x1) {
  double lo = c.lo, hi = c.hi;
  if (!c.has_range) {
    lo = INFINITY, hi = -INFINITY;
    for (const auto& cell : c.cells)
      lo = std::min(lo, cell.mark.value), hi = std::max(hi, cell.mark.value);
    if (c.cells.empty()) lo = hi = 0;
  }
  return valueAxis(lo, hi, x0, x1, c.unit);
}

std::string tickLabels(const Heatmap& c, double left, double bottom, double cw, double ch) {
  std::string s = categoryAxisOpen("x");
  for (size_t i = 0; i < c.x_ticks.size(); ++i) {
    s += text(left + cw * (static_cast<double>(i) + 0.5), bottom + 16, cut(c.x_ticks[i], 12),
              "text-anchor=\"middle\"");
  }
  s += text(left + cw * static_cast<double>(c.x_ticks.size()) / 2, bottom + 36, c.x_label,
            "text-anchor=\"middle\" class=\"axis-label\"");
  s += "</g>\n" + categoryAxisOpen("y");
  for (size_t i = 0; i < c.y_ticks.size(); ++i) {
    s += text(left - 6, bottom - ch * (static_cast<double>(i) + 0.5) + 4, cut(c.y_ticks[i], 14),
              "text-anchor=\"end\"");
  }
  return s + "</g>\n";
}

}  // namespace

std::string heatmapSvg(const Heatmap& c) {
  constexpr double kLeft = 110;
  const double top = c.heading.empty() ? 34 : 52;
  const double nx = std::max<double>(1, c.x_ticks.size()),
               ny = std::max<double>(1, c.y_ticks.size());
  const double cw = std::min(90.0, (900 - kLeft - 20) / nx), ch = std::min(44.0, 420 / ny);
  const double bottom = top + ch * ny;
  const Axis scale = colorAxis(c, kLeft, kLeft + 240);
  const auto labels = cellLabels(c, scale.shown.factor);
  std::string s = openSvg(c.id, std::max(520.0, kLeft + cw * nx + 20), bottom + 112, c.data);
  if (!c.heading.empty()) s += text(8, 18, c.heading, "class=\"panel-title\"");
  for (const auto& cell : c.cells) {
    const double x = kLeft + cw * cell.x, y = bottom - ch * (cell.y + 1);
    const double f = scale.hi > scale.lo ? (cell.mark.value - scale.lo) / (scale.hi - scale.lo) : 0;
    s += "<rect class=\"mark\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cw - 1) +
         "\" height=\"" + num(ch - 1) + "\" fill=\"" + rampColor(f) + "\"" +
         dataAttrs(cell.mark.data) + ">" + title(cell.mark.tooltip) + "</rect>\n";
    if (cw >= 48 && ch >= 16) {
      s += text(x + cw / 2, y + ch / 2 + 4, labels.at(cell.mark.value),
                std::string("text-anchor=\"middle\" class=\"cell-label\" fill=\"") +
                    (f > 0.45 ? "#fff" : "#222") + "\"");
    }
  }
  s += tickLabels(c, kLeft, bottom, cw, ch);
  // Above the row labels, not rotated: a long key name would not fit beside two rows.
  s += text(8, top - 8, "\u2191 " + c.y_label, "class=\"axis-label\"");
  if (!c.cells.empty()) s += rampLegend(c.id, scale, bottom + 52);
  return s + "</svg>\n";
}

}  // namespace tessel::reports::html
