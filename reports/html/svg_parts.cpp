#include "reports/html/svg_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/html/text.h"

namespace tessel::reports::html::svgparts {

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
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 1.5   ? mag
                      : raw / mag < 3.5 ? 2 * mag
                      : raw / mag < 7.5 ? 5 * mag
                                        : 10 * mag;
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  }
  return t;
}

Axis niceAxis(double lo, double hi, double p0, double p1) {
  if (!(hi > lo))
    hi = lo == 0 ? 1 : lo + std::fabs(lo) * 0.1, lo = lo == 0 ? 0 : lo - std::fabs(lo) * 0.1;
  Axis a{lo, hi, false, p0, p1};
  const std::vector<double> t = a.ticks();
  const double step = t.size() > 1 ? t[1] - t[0] : (hi - lo);
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  return a;
}

Axis logAxis(double lo, double hi, double p0, double p1) {
  return Axis{lo / 1.25, hi * 1.25, true, p0, p1};
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string dataAttrs(const Attrs& a) {
  std::string s;
  for (const auto& [k, v] : a) s += " data-" + k + "=\"" + escape(v) + "\"";
  return s;
}

std::string title(const std::string& tooltip) { return "<title>" + escape(tooltip) + "</title>"; }

std::string openSvg(const std::string& id, double w, double h) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + escape(id) + "\" class=\"chart\" " +
         "width=\"" + num(w) + "\" height=\"" + num(h) + "\" viewBox=\"0 0 " + num(w) + " " +
         num(h) + "\" role=\"img\">\n";
}

std::string text(double x, double y, const std::string& s, const std::string& extra) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (extra.empty() ? "" : " " + extra) +
         ">" + escape(s) + "</text>\n";
}

std::string legend(const std::vector<LegendEntry>& entries, double x, double y) {
  std::string s = "<g class=\"legend\">\n";
  for (const LegendEntry& e : entries) {
    s += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 10) + "\" width=\"12\" height=\"12\" fill=\"" +
         e.color + "\"/>\n";
    s += text(x + 16, y, e.name);
    x += 30 + 7.0 * static_cast<double>(e.name.size());
  }
  return s + "</g>\n";
}

// Tick labels from `f`; when a narrow range makes two of them read alike ("1.52 G" twice), more
// significant digits until they differ.
static std::vector<std::string> tickLabels(const std::vector<double>& ticks, const Formatter& f) {
  auto distinct = [](const std::vector<std::string>& l) {
    for (size_t i = 1; i < l.size(); ++i) {
      if (l[i] == l[i - 1]) return false;
    }
    return true;
  };
  std::vector<std::string> labels;
  for (double t : ticks) labels.push_back(f(t));
  static const char* const kPrefix[] = {"", " k", " M", " G", " T", " P", " E"};
  for (int digits = 4; !distinct(labels) && digits <= 12; ++digits) {
    labels.clear();
    for (double t : ticks) {
      double v = t;
      int p = 0;
      while (std::fabs(v) >= 999.5 && p < 6) v /= 1000, ++p;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*g%s", digits, v, kPrefix[p]);
      labels.push_back(buf);
    }
  }
  return labels;
}

std::string yAxis(const Axis& a, double x, double x_end, const Formatter& f,
                  const std::string& label) {
  std::string s = "<g class=\"axis y\">\n";
  const std::vector<double> ticks = a.ticks();
  const std::vector<std::string> labels = tickLabels(ticks, f);
  for (size_t i = 0; i < ticks.size(); ++i) {
    const double y = a.at(ticks[i]);
    s += "<line x1=\"" + num(x) + "\" x2=\"" + num(x_end) + "\" y1=\"" + num(y) + "\" y2=\"" +
         num(y) + "\" class=\"grid\"/>\n";
    s += text(x - 6, y + 4, labels[i], "text-anchor=\"end\"");
  }
  const double mid = (a.p0 + a.p1) / 2;
  s += text(
      14, mid, label,
      "text-anchor=\"middle\" class=\"axis-label\" transform=\"rotate(-90 14 " + num(mid) + ")\"");
  return s + "</g>\n";
}

std::string xAxis(const Axis& a, double y, double y_top, const Formatter& f,
                  const std::string& label) {
  std::string s = "<g class=\"axis x\">\n";
  for (const double t : a.ticks()) {
    const double x = a.at(t);
    s += "<line x1=\"" + num(x) + "\" x2=\"" + num(x) + "\" y1=\"" + num(y_top) + "\" y2=\"" +
         num(y) + "\" class=\"grid\"/>\n";
    s += text(x, y + 16, f(t), "text-anchor=\"middle\"");
  }
  s += text((a.p0 + a.p1) / 2, y + 36, label, "text-anchor=\"middle\" class=\"axis-label\"");
  return s + "</g>\n";
}

Formatter orHuman(const Formatter& f) {
  return f ? f : Formatter([](double v) { return humanNumber(v); });
}

}  // namespace tessel::reports::html::svgparts
