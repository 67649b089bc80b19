// Line plots over one categorical axis, lines of several series over a numeric axis, and scatter
// plots with a highlighted Pareto front.
#include <algorithm>
#include <cmath>

#include "reports/format.h"
#include "reports/html/svg.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using namespace svgparts;

constexpr double kWidth = 900, kLeft = 90, kTop = 20, kBottom = 300;

// `fill` empty: the class's colour from the style sheet.
std::string circle(double x, double y, double r, const std::string& cls, const std::string& tip,
                   const Attrs& data, const std::string& fill = "") {
  return "<circle class=\"mark " + cls + "\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" +
         num(r) + "\"" + (fill.empty() ? "" : " fill=\"" + fill + "\"") + dataAttrs(data) + ">" +
         title(tip) + "</circle>\n";
}

// A value axis over [lo, hi] with a little room above and below.
Axis valueAxis(double lo, double hi, double p0, double p1) {
  const double pad = hi > lo ? (hi - lo) * 0.05 : std::fabs(hi) * 0.05 + 1;
  return niceAxis(std::max(0.0, lo - pad), hi + pad, p0, p1);
}

// A numeric x axis over [lo, hi] in pixels [p0, p1]: logarithmic when asked or when it spans
// more than 16x above 0.
Axis numericAxis(double lo, double hi, bool log, double p0, double p1) {
  return lo > 0 && (log || hi / lo > 16) ? logAxis(lo, hi, p0, p1) : valueAxis(lo, hi, p0, p1);
}

}  // namespace

std::string linePlotSvg(const LinePlot& c) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& p : c.points) lo = std::min(lo, p.mark.value), hi = std::max(hi, p.mark.value);
  if (c.points.empty()) lo = 0, hi = 1;
  const Axis y = valueAxis(lo, hi, kBottom, kTop);
  const double step = (kWidth - kLeft - 40) / std::max<double>(1, c.points.size());
  std::string s = openSvg(c.id, kWidth, kBottom + 50);
  s += yAxis(y, kLeft, kWidth - 20, orHuman(c.y_format), c.y_label);
  std::string line;
  for (size_t i = 0; i < c.points.size(); ++i) {
    const double x = kLeft + step * (static_cast<double>(i) + 0.5);
    line += (i ? " " : "") + num(x) + "," + num(y.at(c.points[i].mark.value));
    s += text(x, kBottom + 16, cut(c.points[i].x_text, 14), "text-anchor=\"middle\"");
  }
  s += "<polyline class=\"line\" fill=\"none\" points=\"" + line + "\"/>\n";
  for (size_t i = 0; i < c.points.size(); ++i) {
    const auto& p = c.points[i];
    s += circle(kLeft + step * (static_cast<double>(i) + 0.5), y.at(p.mark.value), 5, "point",
                p.mark.tooltip, p.mark.data);
  }
  s += text((kLeft + kWidth - 20) / 2, kBottom + 36, c.x_label,
            "text-anchor=\"middle\" class=\"axis-label\"");
  return s + "</svg>\n";
}

std::string scatterSvg(const Scatter& c) {
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (const auto& p : c.points) {
    xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
    ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
  }
  if (c.points.empty()) xlo = ylo = 0, xhi = yhi = 1;
  const Axis x = numericAxis(xlo, xhi, c.x_log, kLeft, kWidth - 30);
  const Axis y = valueAxis(ylo, yhi, kBottom, kTop);
  std::string s = openSvg(c.id, kWidth, kBottom + 50);
  s += yAxis(y, kLeft, kWidth - 30, orHuman(c.y_format), c.y_label);
  s += xAxis(x, kBottom, kTop, orHuman(c.x_format), c.x_label);
  std::vector<const Scatter::Point*> front;
  for (const auto& p : c.points) {
    if (p.front) {
      front.push_back(&p);
    } else {
      s += circle(x.at(p.x), y.at(p.y), 4, "dominated", p.tooltip, p.data);
    }
  }
  std::sort(front.begin(), front.end(), [](auto* a, auto* b) { return a->x < b->x; });
  std::string line;
  for (const auto* p : front)
    line += (line.empty() ? "" : " ") + num(x.at(p->x)) + "," + num(y.at(p->y));
  s += "<polyline class=\"front-line\" fill=\"none\" points=\"" + line + "\"/>\n";
  for (const auto* p : front) s += circle(x.at(p->x), y.at(p->y), 6, "front", p->tooltip, p->data);
  return s + "</svg>\n";
}

std::string seriesPlotSvg(const SeriesPlot& c) {
  constexpr double kSeriesTop = 40;
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
  const Axis x = numericAxis(xlo, xhi, false, kLeft, kWidth - 30);
  const Axis y = valueAxis(ylo, yhi, kBottom, kSeriesTop);
  std::string s = openSvg(c.id, kWidth, kBottom + 50);
  s += legend(legend_entries, kLeft, 18);
  s += yAxis(y, kLeft, kWidth - 30, orHuman(c.y_format), c.y_label);
  s += xAxis(x, kBottom, kSeriesTop, orHuman(c.x_format), c.x_label);
  for (const auto& sr : c.series) {
    std::string line;
    for (size_t i = 0; i < sr.points.size(); ++i) {
      const auto& p = sr.points[i];
      if (c.step && i > 0) {
        line += " " + num(x.at(p.x)) + "," + num(y.at(sr.points[i - 1].mark.value));
      }
      line += (i ? " " : "") + num(x.at(p.x)) + "," + num(y.at(p.mark.value));
    }
    s += "<polyline class=\"series\" fill=\"none\" stroke=\"" + sr.color + "\" points=\"" + line +
         "\"/>\n";
    for (const auto& p : sr.points) {
      s += circle(x.at(p.x), y.at(p.mark.value), c.step ? 2.5 : 4.5, "series-point", p.mark.tooltip,
                  p.mark.data, sr.color);
    }
  }
  return s + "</svg>\n";
}

}  // namespace tessel::reports::html
