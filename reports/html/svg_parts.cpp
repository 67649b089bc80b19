#include "reports/html/svg_parts.h"

#include <cstdio>

#include "reports/html/text.h"

namespace tessel::reports::html::svgparts {
namespace {

constexpr double kLegendRow = 18;

double entryWidth(const LegendEntry& e) { return 30 + 7.0 * static_cast<double>(e.name.size()); }

}  // namespace

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

std::string openSvg(const std::string& id, double w, double h, const Attrs& data) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + escape(id) + "\" class=\"chart\" " +
         "width=\"" + num(w) + "\" height=\"" + num(h) + "\" viewBox=\"0 0 " + num(w) + " " +
         num(h) + "\" role=\"img\"" + dataAttrs(data) + ">\n";
}

std::string text(double x, double y, const std::string& s, const std::string& extra) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (extra.empty() ? "" : " " + extra) +
         ">" + escape(s) + "</text>\n";
}

int legendRows(const std::vector<LegendEntry>& entries, double x, double max_x) {
  if (entries.empty()) return 0;
  int rows = 1;
  double at = x;
  for (const LegendEntry& e : entries) {
    if (at > x && at + entryWidth(e) > max_x) at = x, ++rows;
    at += entryWidth(e);
  }
  return rows;
}

std::string legend(const std::vector<LegendEntry>& entries, double x, double y, double max_x) {
  std::string s = "<g class=\"legend\">\n";
  double at = x;
  for (const LegendEntry& e : entries) {
    if (at > x && at + entryWidth(e) > max_x) at = x, y += kLegendRow;
    s += "<g class=\"legend-entry\" data-series=\"" + escape(e.name) + "\"><rect x=\"" + num(at) +
         "\" y=\"" + num(y - 10) + "\" width=\"12\" height=\"12\" fill=\"" + e.color + "\"/>" +
         text(at + 16, y, e.name) + "</g>\n";
    at += entryWidth(e);
  }
  return s + "</g>\n";
}

Formatter orHuman(const Formatter& f) {
  return f ? f : Formatter([](double v) { return humanNumber(v); });
}

}  // namespace tessel::reports::html::svgparts
