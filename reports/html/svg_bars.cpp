// Stacked and grouped bar charts. Bars always start at 0: their length is the value.
#include <algorithm>
#include <cmath>

#include "reports/format.h"
#include "reports/html/svg.h"
#include "reports/html/svg_axis.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using namespace svgparts;

constexpr double kWidth = 900;

std::string rect(double x, double y, double w, double h, const std::string& color, const Mark& m,
                 const std::string& series = "") {
  return "<rect class=\"mark\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) +
         "\" height=\"" + num(h) + "\" fill=\"" + color + "\"" +
         (series.empty() ? "" : " data-series=\"" + escape(series) + "\"") + dataAttrs(m.data) +
         ">" + title(m.tooltip) + "</rect>\n";
}

double rowTotal(const StackedBars::Row& r) {
  double t = 0;
  for (const auto& s : r.segments) t += s.mark.value > 0 ? s.mark.value : 0;
  return t;
}

// The series drawn (value > 0): those of `given` first, in its order, then the others.
std::vector<LegendEntry> drawnSeries(const StackedBars& c) {
  std::vector<LegendEntry> drawn, out;
  for (const auto& r : c.rows) {
    for (const auto& s : r.segments) {
      const bool seen = std::any_of(drawn.begin(), drawn.end(),
                                    [&](const LegendEntry& e) { return e.name == s.series; });
      if (s.mark.value > 0 && !seen) drawn.push_back({s.series, s.color});
    }
  }
  for (const LegendEntry& e : c.legend) {
    const bool is_drawn = std::any_of(drawn.begin(), drawn.end(),
                                      [&](const LegendEntry& d) { return d.name == e.name; });
    const bool listed =
        std::any_of(out.begin(), out.end(), [&](const LegendEntry& d) { return d.name == e.name; });
    if (is_drawn && !listed) out.push_back(e);
  }
  for (const LegendEntry& d : drawn) {
    if (std::none_of(out.begin(), out.end(),
                     [&](const LegendEntry& e) { return e.name == d.name; }))
      out.push_back(d);
  }
  return out;
}

}  // namespace

std::string stackedBarsSvg(const StackedBars& c) {
  constexpr double kLeft = 190, kBar = 26, kGap = 12;
  double max_total = 0;
  for (const auto& r : c.rows) max_total = std::max(max_total, rowTotal(r));
  const std::vector<LegendEntry> legend_entries = drawnSeries(c);
  const double top = 22 + 18.0 * legendRows(legend_entries, kLeft, kWidth - 20);
  const double plot_bottom = top + static_cast<double>(c.rows.size()) * (kBar + kGap);
  const Axis a = valueAxis(0, max_total, kLeft, kWidth - 30, c.unit, false);
  std::string s = openSvg(c.id, kWidth, plot_bottom + 50, {{"chart", "stacked"}});
  s += legend(legend_entries, kLeft, 18, kWidth - 20);
  s += xAxis(a, plot_bottom, top - 6);
  double y = top;
  for (const auto& r : c.rows) {
    const double total = rowTotal(r);
    s += text(kLeft - 8, y + kBar / 2 + 4, cut(r.label, 18) + " (" + unitText(c.unit, total) + ")",
              "text-anchor=\"end\"");
    double at = 0;
    for (const auto& seg : r.segments) {
      if (!(seg.mark.value > 0)) continue;
      const double x0 = a.at(at), x1 = a.at(at + seg.mark.value);
      s += rect(x0, y, x1 - x0, kBar, seg.color, seg.mark, seg.series);
      at += seg.mark.value;
    }
    y += kBar + kGap;
  }
  return s + "</svg>\n";
}

namespace {

// The bars of groups [first, last) in the box from x0 to x1 over the axis a, labelled below by
// group, or by series when `by_series` (a panel of one group).
std::string barsIn(const GroupedBars& c, size_t first, size_t last, double x0, double x1,
                   const Axis& a, bool by_series = false) {
  const double bottom = a.p0;
  const double group_w = (x1 - x0) / std::max<double>(1, static_cast<double>(last - first));
  const double bar_w = std::min(40.0, group_w * 0.8 / std::max<double>(1, c.series.size()));
  const double inner = bar_w * static_cast<double>(c.series.size());
  auto xOf = [&](int group, int series) {
    return x0 + group_w * (group - static_cast<double>(first)) + (group_w - inner) / 2 +
           bar_w * series;
  };
  std::string s = categoryAxisOpen("x");
  for (size_t g = first; g < last && !by_series; ++g) {
    const double gx = x0 + group_w * static_cast<double>(g - first);
    s += text(gx + group_w / 2, bottom + 18, cut(c.groups[g], 40), "text-anchor=\"middle\"");
  }
  for (size_t i = 0; i < c.series.size() && by_series; ++i) {
    s += text(xOf(static_cast<int>(first), static_cast<int>(i)) + bar_w / 2, bottom + 18,
              cut(c.series[i].name, 8), "text-anchor=\"middle\"");
  }
  s += "</g>\n";
  for (const auto& b : c.bars) {
    if (b.group < static_cast<int>(first) || b.group >= static_cast<int>(last)) continue;
    const double top = a.at(b.mark.value);
    const auto& series = c.series.at(static_cast<size_t>(b.series));
    s += rect(xOf(b.group, b.series) + 1, top, bar_w - 2, bottom - top, series.color, b.mark,
              series.name);
  }
  return s;
}

double maxOf(const GroupedBars& c, int group) {
  double v = 0;
  for (const auto& b : c.bars) {
    if (group < 0 || b.group == group) v = std::max(v, b.mark.value);
  }
  return v;
}

// One panel per group, three to a row, each with its own axis from 0.
std::string panelsSvg(const GroupedBars& c) {
  constexpr double kPanelH = 250, kLeft = 80, kCols = 3;
  const size_t n = c.groups.size();
  const double cols = std::min<double>(kCols, std::max<size_t>(1, n));
  const double panel_w = (kWidth - 10) / cols;
  const double top = 22 + 18.0 * legendRows(c.series, 90, kWidth - 20);
  const double rows = std::ceil(static_cast<double>(n) / cols);
  std::string s = openSvg(c.id, kWidth, top + rows * (kPanelH + 40) + 10, {{"chart", "panels"}});
  s += legend(c.series, 90, 18, kWidth - 20);
  for (size_t g = 0; g < n; ++g) {
    const double px = panel_w * std::fmod(static_cast<double>(g), cols);
    const double py = top + std::floor(static_cast<double>(g) / cols) * (kPanelH + 40);
    const double bottom = py + kPanelH - 20;
    const Axis a = valueAxis(0, maxOf(c, static_cast<int>(g)), bottom, py + 30, c.unit, false);
    s += "<g class=\"panel\" data-panel=\"" + escape(c.groups[g]) + "\">\n";
    s += text(px + panel_w / 2, py + 14, cut(c.groups[g], 40),
              "text-anchor=\"middle\" class=\"panel-title\"");
    s += yAxis(a, px + kLeft, px + panel_w - 10, px + 16);
    s += barsIn(c, g, g + 1, px + kLeft, px + panel_w - 10, a, true) + "</g>\n";
  }
  return s + "</svg>\n";
}

}  // namespace

std::string groupedBarsSvg(const GroupedBars& c) {
  if (c.panels) return panelsSvg(c);
  constexpr double kLeft = 90, kBottom = 300;
  const double top = 22 + 18.0 * legendRows(c.series, kLeft, kWidth - 20);
  const Axis a = valueAxis(0, maxOf(c, -1), kBottom + top - 40, top, c.unit, false);
  std::string s = openSvg(c.id, kWidth, kBottom + top + 20);
  s += legend(c.series, kLeft, 18, kWidth - 20);
  s += yAxis(a, kLeft, kWidth - 20);
  s += barsIn(c, 0, c.groups.size(), kLeft, kWidth - 20, a);
  return s + "</svg>\n";
}

}  // namespace tessel::reports::html
