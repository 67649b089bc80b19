// Stacked and grouped bar charts.
#include <algorithm>
#include <cmath>

#include "reports/format.h"
#include "reports/html/svg.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using namespace svgparts;

constexpr double kWidth = 900;

std::string rect(double x, double y, double w, double h, const std::string& color, const Mark& m) {
  return "<rect class=\"mark\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) +
         "\" height=\"" + num(h) + "\" fill=\"" + color + "\"" + dataAttrs(m.data) + ">" +
         title(m.tooltip) + "</rect>\n";
}

double rowTotal(const StackedBars::Row& r) {
  double t = 0;
  for (const auto& s : r.segments) t += s.mark.value;
  return t;
}

}  // namespace

std::string stackedBarsSvg(const StackedBars& c) {
  constexpr double kLeft = 190, kTop = 40, kBar = 26, kGap = 12;
  double max_total = 0;
  for (const auto& r : c.rows) max_total = std::max(max_total, rowTotal(r));
  const double plot_bottom = kTop + static_cast<double>(c.rows.size()) * (kBar + kGap);
  const Axis a = niceAxis(0, max_total, kLeft, kWidth - 30);
  std::string s = openSvg(c.id, kWidth, plot_bottom + 50);
  s += legend(c.legend, kLeft, 18);
  s += xAxis(a, plot_bottom, kTop - 6, orHuman(nullptr), c.axis_label);
  double y = kTop;
  for (const auto& r : c.rows) {
    s += text(kLeft - 8, y + kBar / 2 + 4, cut(r.label, 18) + " (" + humanNumber(rowTotal(r)) + ")",
              "text-anchor=\"end\"");
    double at = 0;
    for (const auto& seg : r.segments) {
      if (!(seg.mark.value > 0)) continue;
      const double x0 = a.at(at), x1 = a.at(at + seg.mark.value);
      s += rect(x0, y, x1 - x0, kBar, seg.color, seg.mark);
      at += seg.mark.value;
    }
    y += kBar + kGap;
  }
  return s + "</svg>\n";
}

std::string groupedBarsSvg(const GroupedBars& c) {
  constexpr double kLeft = 90, kTop = 40, kBottom = 300;
  double max_v = 0;
  for (const auto& b : c.bars) max_v = std::max(max_v, b.mark.value);
  const Axis a = niceAxis(0, max_v, kBottom, kTop);
  const double group_w = (kWidth - kLeft - 20) / std::max<double>(1, c.groups.size());
  const double bar_w = std::min(40.0, group_w * 0.8 / std::max<double>(1, c.series.size()));
  std::string s = openSvg(c.id, kWidth, kBottom + 60);
  s += legend(c.series, kLeft, 18);
  s += yAxis(a, kLeft, kWidth - 20, orHuman(c.y_format), c.y_label);
  for (size_t g = 0; g < c.groups.size(); ++g) {
    const double gx = kLeft + group_w * static_cast<double>(g);
    s += text(gx + group_w / 2, kBottom + 18, cut(c.groups[g], 40), "text-anchor=\"middle\"");
  }
  const double inner = bar_w * static_cast<double>(c.series.size());
  for (const auto& b : c.bars) {
    const double x = kLeft + group_w * b.group + (group_w - inner) / 2 + bar_w * b.series;
    const double top = a.at(b.mark.value);
    const std::string& color = c.series.at(static_cast<size_t>(b.series)).color;
    s += rect(x + 1, top, bar_w - 2, kBottom - top, color, b.mark);
  }
  return s + "</svg>\n";
}

}  // namespace tessel::reports::html
