// Heatmap: one cell per (x, y) pair, coloured by value.
#include <algorithm>
#include <array>
#include <cmath>

#include "reports/format.h"
#include "reports/html/svg.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using namespace svgparts;

// A perceptually ordered ramp (viridis stops), light = small so the best cells stand out.
constexpr std::array<std::array<int, 3>, 5> kRamp = {
    {{253, 231, 37}, {94, 201, 98}, {33, 145, 140}, {59, 82, 139}, {68, 1, 84}}};

std::string rampColor(double f) {
  f = std::clamp(f, 0.0, 1.0) * (kRamp.size() - 1);
  const size_t i = std::min<size_t>(static_cast<size_t>(f), kRamp.size() - 2);
  const double t = f - static_cast<double>(i);
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x",
                static_cast<int>(std::lround(kRamp[i][0] + t * (kRamp[i + 1][0] - kRamp[i][0]))),
                static_cast<int>(std::lround(kRamp[i][1] + t * (kRamp[i + 1][1] - kRamp[i][1]))),
                static_cast<int>(std::lround(kRamp[i][2] + t * (kRamp[i + 1][2] - kRamp[i][2]))));
  return buf;
}

std::string gradientLegend(const std::string& id, double x, double y, double lo, double hi,
                           const std::string& label) {
  std::string s = "<defs><linearGradient id=\"" + escape(id) + "-ramp\">";
  for (size_t i = 0; i < kRamp.size(); ++i) {
    s += "<stop offset=\"" + num(static_cast<double>(i) / (kRamp.size() - 1)) + "\" stop-color=\"" +
         rampColor(static_cast<double>(i) / (kRamp.size() - 1)) + "\"/>";
  }
  s += "</linearGradient></defs>\n";
  s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"200\" height=\"12\" fill=\"url(#" +
       escape(id) + "-ramp)\"/>\n";
  s += text(x, y + 26, humanNumber(lo), "text-anchor=\"start\"");
  s += text(x + 200, y + 26, humanNumber(hi), "text-anchor=\"end\"");
  s += text(x + 210, y + 11, label);
  return s;
}

}  // namespace

std::string heatmapSvg(const Heatmap& c) {
  constexpr double kLeft = 110, kTop = 34;
  const double nx = std::max<double>(1, c.x_ticks.size()),
               ny = std::max<double>(1, c.y_ticks.size());
  const double cw = std::min(90.0, (900 - kLeft - 20) / nx), ch = std::min(44.0, 420 / ny);
  const double bottom = kTop + ch * ny;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& cell : c.cells)
    lo = std::min(lo, cell.mark.value), hi = std::max(hi, cell.mark.value);
  const bool log = lo > 0 && hi / lo > 10;
  auto shade = [&](double v) {
    if (!(hi > lo)) return 0.5;
    return log ? std::log(v / lo) / std::log(hi / lo) : (v - lo) / (hi - lo);
  };
  std::string s = openSvg(c.id, std::max(520.0, kLeft + cw * nx + 20), bottom + 100);
  for (const auto& cell : c.cells) {
    const double x = kLeft + cw * cell.x, y = bottom - ch * (cell.y + 1);
    const double f = shade(cell.mark.value);
    s += "<rect class=\"mark\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cw - 1) +
         "\" height=\"" + num(ch - 1) + "\" fill=\"" + rampColor(f) + "\"" +
         dataAttrs(cell.mark.data) + ">" + title(cell.mark.tooltip) + "</rect>\n";
    if (cw >= 48 && ch >= 16) {
      s += text(x + cw / 2, y + ch / 2 + 4, humanNumber(cell.mark.value),
                std::string("text-anchor=\"middle\" class=\"cell-label\" fill=\"") +
                    (f > 0.45 ? "#fff" : "#222") + "\"");
    }
  }
  for (size_t i = 0; i < c.x_ticks.size(); ++i) {
    s += text(kLeft + cw * (static_cast<double>(i) + 0.5), bottom + 16, cut(c.x_ticks[i], 12),
              "text-anchor=\"middle\"");
  }
  for (size_t i = 0; i < c.y_ticks.size(); ++i) {
    s += text(kLeft - 6, bottom - ch * (static_cast<double>(i) + 0.5) + 4, cut(c.y_ticks[i], 14),
              "text-anchor=\"end\"");
  }
  s += text(kLeft + cw * nx / 2, bottom + 36, c.x_label,
            "text-anchor=\"middle\" class=\"axis-label\"");
  // Above the row labels, not rotated: a long key name would not fit beside two rows.
  s += text(8, kTop - 8, "\u2191 " + c.y_label, "class=\"axis-label\"");
  if (!c.cells.empty()) s += gradientLegend(c.id, kLeft, bottom + 56, lo, hi, c.value_label);
  return s + "</svg>\n";
}

}  // namespace tessel::reports::html
