#include "reports/html/svg_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/html/palette.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html::svgparts {
namespace {

// A round step (1, 2 or 5 x 10^k) giving about five ticks over `span`.
double niceStep(double span) {
  const double raw = span / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  return raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
}

// The step of a linear axis's ticks in its shown unit.
double shownStep(const Axis& a) {
  const double span = (a.hi - a.lo) / a.shown.factor;
  return span > 0 ? niceStep(span) : 1;
}

std::string axisAttrs(const Axis& a, const std::string& which) {
  std::string s = " data-axis=\"" + which + "\" data-axis-role=\"" +
                  (a.role == AxisRole::Value ? "value" : "key") + "\" data-axis-scale=\"" +
                  (a.log ? "log" : "linear") + "\" data-axis-min=\"" + exactNumber(a.lo) +
                  "\" data-axis-max=\"" + exactNumber(a.hi) + "\"";
  if (a.role == AxisRole::Value) {
    s += " data-axis-unit=\"" + escape(a.shown.name) + "\" data-axis-base-unit=\"" +
         escape(a.unit.base) + "\" data-axis-factor=\"" + exactNumber(a.shown.factor) + "\"";
  }
  return s + " data-axis-break=\"" + (a.broken ? "true" : "false") + "\"";
}

// Two slashes across the axis line at (x, y), on a white gap: the axis does not start at 0.
std::string breakMark(const Axis& a, double x, double y, bool vertical) {
  const std::string tip =
      title("the axis starts at " + a.tickLabels({a.lo})[0] + " " + a.shown.name + ", not at 0");
  if (vertical) {
    return "<g class=\"axis-break\">" + tip + "<rect x=\"" + num(x - 9) + "\" y=\"" + num(y - 7) +
           "\" width=\"18\" height=\"10\" fill=\"#fff\"/><path d=\"M" + num(x - 9) + "," +
           num(y - 1) + " l18,-7 M" + num(x - 9) + "," + num(y + 5) +
           " l18,-7\" stroke=\"#333\" stroke-width=\"1.5\" fill=\"none\"/></g>\n";
  }
  return "<g class=\"axis-break\">" + tip + "<rect x=\"" + num(x - 5) + "\" y=\"" + num(y - 9) +
         "\" width=\"10\" height=\"18\" fill=\"#fff\"/><path d=\"M" + num(x - 7) + "," +
         num(y + 9) + " l7,-18 M" + num(x - 1) + "," + num(y + 9) +
         " l7,-18\" stroke=\"#333\" stroke-width=\"1.5\" fill=\"none\"/></g>\n";
}

}  // namespace

double Axis::at(double v) const {
  double f = 0;
  if (log) {
    f = hi > lo ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0.5;
  } else {
    f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
  }
  return p0 + f * (p1 - p0);
}

std::vector<double> Axis::ticks() const {
  std::vector<double> t;
  if (log) {
    const double base = hi / lo > 256 ? 10 : 2;
    for (double v = std::pow(base, std::floor(std::log(lo) / std::log(base) + 1e-9));
         v <= hi * (1 + 1e-9); v *= base) {
      if (v >= lo * (1 - 1e-9)) t.push_back(v);
    }
    return t;
  }
  if (!(hi > lo)) return {lo};
  const double step = shownStep(*this), f = shown.factor;
  const double first = std::ceil(lo / f / step - 1e-9), last = std::floor(hi / f / step + 1e-9);
  for (double k = first; k <= last; ++k) t.push_back(k == 0 ? 0 : k * step * f);
  return t;
}

std::vector<std::string> Axis::tickLabels(const std::vector<double>& ticks) const {
  std::vector<std::string> labels;
  if (role == AxisRole::Key) {
    const Formatter f = orHuman(format);
    for (double t : ticks) labels.push_back(f(t));
    return labels;
  }
  // Round steps of 1, 2 or 5 x 10^k need no more decimals than the step's own.
  const int decimals =
      std::clamp(-static_cast<int>(std::floor(std::log10(shownStep(*this)) + 1e-9)), 0, 12);
  for (double t : ticks) {
    char buf[64];
    const double v = t / shown.factor;
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v) < 1e-12 ? 0.0 : v);
    labels.push_back(buf);
  }
  return labels;
}

std::string Axis::title() const { return role == AxisRole::Value ? axisTitle(unit, shown) : label; }

Axis valueAxis(double lo, double hi, double p0, double p1, const Unit& u, bool may_break) {
  if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0;
  const bool zoom = may_break && lo > 0 && hi - lo >= kMinSpread * hi && lo >= kZoomFloor * hi;
  double from = zoom ? lo - (hi - lo) * 0.1 : std::min(lo, 0.0);
  double to = std::max(hi, 0.0);
  if (!(to > from)) to = from + 1;
  Axis a;
  a.p0 = p0, a.p1 = p1, a.role = AxisRole::Value, a.unit = u;
  a.shown = showUnit(u, std::max(std::fabs(from), std::fabs(to)));
  // Round both ends to the tick step, in the shown unit.
  const double f = a.shown.factor;
  a.lo = from, a.hi = to;
  const double step = shownStep(a);
  a.lo = std::floor(from / f / step + 1e-9) * step * f;
  a.hi = std::ceil(to / f / step - 1e-9) * step * f;
  if (a.lo < 0 && from >= 0) a.lo = 0;
  a.broken = a.lo > 0;
  return a;
}

Axis keyAxis(double lo, double hi, bool log, double p0, double p1, const std::string& label,
             const Formatter& f) {
  Axis a;
  a.p0 = p0, a.p1 = p1, a.label = label, a.format = f;
  if (lo > 0 && (log || hi / lo > 16)) {
    a.lo = lo / 1.25, a.hi = hi * 1.25, a.log = true;
    return a;
  }
  if (!(hi > lo))
    hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1), lo -= lo == 0 ? 0 : std::fabs(lo) * 0.1;
  const double step = niceStep(hi - lo);
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  return a;
}

std::string yAxis(const Axis& a, double x, double x_end, double title_x) {
  std::string s = "<g class=\"axis y\"" + axisAttrs(a, "y") + ">\n";
  const std::vector<double> ticks = a.ticks();
  const std::vector<std::string> labels = a.tickLabels(ticks);
  for (size_t i = 0; i < ticks.size(); ++i) {
    const double y = a.at(ticks[i]);
    s += "<line x1=\"" + num(x) + "\" x2=\"" + num(x_end) + "\" y1=\"" + num(y) + "\" y2=\"" +
         num(y) + "\" class=\"grid\"/>\n";
    s += text(x - 6, y + 4, labels[i],
              "text-anchor=\"end\" class=\"tick\" data-tick=\"" + exactNumber(ticks[i]) + "\"");
  }
  if (a.role == AxisRole::Value) {
    s += "<line x1=\"" + num(x) + "\" x2=\"" + num(x) + "\" y1=\"" + num(a.p1) + "\" y2=\"" +
         num(a.p0) + "\" class=\"axis-line\"/>\n";
  }
  if (a.broken) s += breakMark(a, x, a.p0 - 14, true);
  const double mid = (a.p0 + a.p1) / 2;
  s += text(title_x, mid, a.title(),
            "text-anchor=\"middle\" class=\"axis-label\" transform=\"rotate(-90 " + num(title_x) +
                " " + num(mid) + ")\"");
  return s + "</g>\n";
}

std::string xAxis(const Axis& a, double y, double y_top, const std::string& which) {
  std::string s = "<g class=\"axis " + which + "\"" + axisAttrs(a, which) + ">\n";
  const std::vector<double> ticks = a.ticks();
  const std::vector<std::string> labels = a.tickLabels(ticks);
  for (size_t i = 0; i < ticks.size(); ++i) {
    const double x = a.at(ticks[i]);
    s += "<line x1=\"" + num(x) + "\" x2=\"" + num(x) + "\" y1=\"" + num(y_top) + "\" y2=\"" +
         num(y) + "\" class=\"grid\"/>\n";
    s += text(x, y + 16, labels[i],
              "text-anchor=\"middle\" class=\"tick\" data-tick=\"" + exactNumber(ticks[i]) + "\"");
  }
  if (a.role == AxisRole::Value) {
    s += "<line x1=\"" + num(a.p0) + "\" x2=\"" + num(a.p1) + "\" y1=\"" + num(y) + "\" y2=\"" +
         num(y) + "\" class=\"axis-line\"/>\n";
  }
  if (a.broken) s += breakMark(a, a.p0 + 22, y, false);
  s += text((a.p0 + a.p1) / 2, y + 34, a.title(), "text-anchor=\"middle\" class=\"axis-label\"");
  return s + "</g>\n";
}

std::string categoryAxisOpen(const std::string& which) {
  return "<g class=\"axis " + which + "\" data-axis=\"" + which +
         "\" data-axis-role=\"key\" data-axis-scale=\"category\">\n";
}

std::string rampLegend(const std::string& id, const Axis& a, double y) {
  std::string s = "<defs><linearGradient id=\"" + escape(id) + "-ramp\">";
  for (int i = 0; i <= 4; ++i) {
    s += "<stop offset=\"" + num(i / 4.0) + "\" stop-color=\"" + rampColor(i / 4.0) + "\"/>";
  }
  s += "</linearGradient></defs>\n";
  s += "<rect class=\"ramp\" x=\"" + num(a.p0) + "\" y=\"" + num(y) + "\" width=\"" +
       num(a.p1 - a.p0) + "\" height=\"12\" fill=\"url(#" + escape(id) + "-ramp)\"/>\n";
  return s + xAxis(a, y + 12, y, "color");
}

}  // namespace tessel::reports::html::svgparts
