// Lines over one categorical axis, lines of several series over a numeric axis, and scatter
// plots with a highlighted Pareto front.
#include <algorithm>
#include <cmath>

#include "reports/format.h"
#include "reports/html/palette.h"
#include "reports/html/svg.h"
#include "reports/html/svg_axis.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using namespace svgparts;

constexpr double kWidth = 900, kLeft = 90, kBottom = 300;

// `fill` empty: the class's colour from the style sheet.
std::string circle(double x, double y, double r, const std::string& cls, const std::string& tip,
                   const Attrs& data, const std::string& fill = "",
                   const std::string& series = "") {
  return "<circle class=\"mark " + cls + "\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" +
         num(r) + "\"" + (fill.empty() ? "" : " fill=\"" + fill + "\"") +
         (series.empty() ? "" : " data-series=\"" + escape(series) + "\"") + dataAttrs(data) + ">" +
         title(tip) + "</circle>\n";
}

std::string polyline(const std::string& cls, const std::string& color, const std::string& pts) {
  return "<polyline class=\"" + cls + "\" fill=\"none\"" +
         (color.empty() ? "" : " stroke=\"" + color + "\"") + " points=\"" + pts + "\"/>\n";
}

// The legend of several series, and the top of the plot below it.
double legendTop(const std::vector<LegendEntry>& entries) {
  return entries.size() > 1 ? 30 + 18.0 * legendRows(entries, kLeft, kWidth - 20) : 20;
}

}  // namespace

std::string linePlotSvg(const LinePlot& c) {
  double lo = INFINITY, hi = -INFINITY;
  std::vector<LegendEntry> entries;
  for (const auto& sr : c.series) {
    entries.push_back({sr.name, sr.color});
    for (const auto& p : sr.points)
      lo = std::min(lo, p.mark.value), hi = std::max(hi, p.mark.value);
  }
  const double top = legendTop(entries);
  const Axis y = valueAxis(lo, hi, kBottom, top, c.unit);
  const double step = (kWidth - kLeft - 40) / std::max<double>(1, c.x_ticks.size());
  auto xAt = [&](int i) { return kLeft + step * (i + 0.5); };
  std::string s =
      openSvg(c.id, kWidth, kBottom + 50, {{"series", std::to_string(c.series.size())}});
  if (entries.size() > 1) s += legend(entries, kLeft, 18, kWidth - 20);
  s += yAxis(y, kLeft, kWidth - 20);
  s += categoryAxisOpen("x");
  for (size_t i = 0; i < c.x_ticks.size(); ++i) {
    s += text(xAt(static_cast<int>(i)), kBottom + 16, cut(c.x_ticks[i], 14),
              "text-anchor=\"middle\"");
  }
  s += text((kLeft + kWidth - 20) / 2, kBottom + 36, c.x_label,
            "text-anchor=\"middle\" class=\"axis-label\"") +
       "</g>\n";
  for (const auto& sr : c.series) {
    std::string line;
    for (const auto& p : sr.points) {
      line += (line.empty() ? "" : " ") + num(xAt(p.x)) + "," + num(y.at(p.mark.value));
    }
    s += polyline("line", sr.color, line);
    for (const auto& p : sr.points) {
      s += circle(xAt(p.x), y.at(p.mark.value), 5, "point", p.mark.tooltip, p.mark.data, sr.color,
                  sr.name);
    }
  }
  return s + "</svg>\n";
}

namespace {

// The colour axis of a shaded scatter, and the fill of each point.
Axis shadeAxis(const Scatter& c) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& p : c.points) lo = std::min(lo, p.shade), hi = std::max(hi, p.shade);
  return valueAxis(c.points.empty() ? 0 : lo, c.points.empty() ? 0 : hi, kLeft + 420, kWidth - 40,
                   c.shade_unit);
}

std::string fillOf(const Axis& a, double v) {
  return rampColor(a.hi > a.lo ? (v - a.lo) / (a.hi - a.lo) : 0.5);
}

}  // namespace

std::string scatterSvg(const Scatter& c) {
  constexpr double kTop = 20;
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (const auto& p : c.points) {
    xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
    ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
  }
  if (c.points.empty()) xlo = ylo = xhi = yhi = 0;
  const Axis x = valueAxis(xlo, xhi, kLeft, kWidth - 30, c.x_unit);
  const Axis y = valueAxis(ylo, yhi, kBottom, kTop, c.y_unit);
  const Axis shade = shadeAxis(c);
  std::string s = openSvg(c.id, kWidth, kBottom + (c.shaded ? 110 : 50));
  s += yAxis(y, kLeft, kWidth - 30);
  s += xAxis(x, kBottom, kTop);
  if (c.shaded) s += rampLegend(c.id, shade, kBottom + 48);
  std::vector<const Scatter::Point*> joined;
  for (const auto& p : c.points) {
    if (p.joined) joined.push_back(&p);
  }
  std::sort(joined.begin(), joined.end(), [](auto* a, auto* b) { return a->x < b->x; });
  std::string line;
  for (const auto* p : joined)
    line += (line.empty() ? "" : " ") + num(x.at(p->x)) + "," + num(y.at(p->y));
  // Dominated points first, so the front is drawn over them.
  for (const bool front : {false, true}) {
    for (const auto& p : c.points) {
      if (p.front != front) continue;
      const std::string fill = c.shaded ? fillOf(shade, p.shade) : "";
      const std::string cls = c.shaded ? (front ? "front-ringed" : "shaded")
                              : front  ? "front"
                                       : "dominated";
      s += circle(x.at(p.x), y.at(p.y), front ? 6 : 4, cls, p.tooltip, p.data, fill);
    }
    if (!front) s += polyline("front-line", "", line);
  }
  return s + "</svg>\n";
}

std::string seriesPlotSvg(const SeriesPlot& c) {
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  std::vector<LegendEntry> legend_entries;
  for (const auto& sr : c.series) {
    legend_entries.push_back({sr.name, sr.color});
    for (const auto& p : sr.points) {
      xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
      ylo = std::min(ylo, p.mark.value), yhi = std::max(yhi, p.mark.value);
    }
  }
  if (!(xlo <= xhi)) xlo = ylo = 0, xhi = yhi = 1;
  const double top = 30 + 18.0 * legendRows(legend_entries, kLeft, kWidth - 20);
  const Axis x = keyAxis(xlo, xhi, false, kLeft, kWidth - 30, c.x_label, c.x_format);
  const Axis y = valueAxis(ylo, yhi, kBottom, top, c.unit);
  std::string s = openSvg(c.id, kWidth, kBottom + 50);
  s += legend(legend_entries, kLeft, 18, kWidth - 20);
  s += yAxis(y, kLeft, kWidth - 30);
  s += xAxis(x, kBottom, top);
  for (const auto& sr : c.series) {
    std::string line;
    for (size_t i = 0; i < sr.points.size(); ++i) {
      const auto& p = sr.points[i];
      if (c.step && i > 0) {
        line += " " + num(x.at(p.x)) + "," + num(y.at(sr.points[i - 1].mark.value));
      }
      line += (i ? " " : "") + num(x.at(p.x)) + "," + num(y.at(p.mark.value));
    }
    s += polyline("series", sr.color, line);
    for (const auto& p : sr.points) {
      s += circle(x.at(p.x), y.at(p.mark.value), c.step ? 2.5 : 4.5, "series-point", p.mark.tooltip,
                  p.mark.data, sr.color);
    }
  }
  return s + "</svg>\n";
}

}  // namespace tessel::reports::html
