#include "reports/html/text.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace tessel::reports::html {

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string exactNumber(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  if (v == 0) return "0";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string humanNumber(double v) {
  if (!std::isfinite(v)) return exactNumber(v);
  static const char* const kPrefix[] = {"", " k", " M", " G", " T", " P", " E"};
  double a = std::fabs(v);
  int p = 0;
  while (a >= 999.5 && p < 6) a /= 1000, ++p;
  char buf[64];
  const double shown = v < 0 ? -a : a;
  if (p == 0 && a == std::floor(a)) {
    std::snprintf(buf, sizeof buf, "%.0f", shown);
  } else if (p == 0 && a < 0.01) {
    std::snprintf(buf, sizeof buf, "%.3g", shown);
  } else {
    // Three significant digits, zeros kept: "2.00 k", "12.3 M", "456 G".
    const int decimals = a < 9.995 ? 2 : a < 99.95 ? 1 : 0;
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, shown, kPrefix[p]);
  }
  return buf;
}

std::string humanCycles(double cycles) { return humanNumber(cycles) + " cycles"; }

std::string uriEncode(std::string_view s) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace tessel::reports::html
