#include "reports/format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <system_error>

#include "util/units.h"

namespace tessel::reports {
namespace {

// std::to_chars, unlike printf, ignores the C locale: a decimal point is always '.'.
std::string toText(double v, std::chars_format format, int precision) {
  char buf[400];  // fixed notation of 1e308 needs 309 digits plus decimals
  const auto result = std::to_chars(buf, buf + sizeof buf, v, format, precision);
  return result.ec == std::errc() ? std::string(buf, result.ptr) : std::string("?");
}

double fromText(const std::string& text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

double normalizeZero(double v) { return v == 0 ? 0.0 : v; }  // drops the sign of -0

// Scales v up through units (each `step` times the previous) until it is below step, and
// prints it with `decimals`; bumps one unit more when rounding would print "1000.00".
std::string scaled(double v, std::initializer_list<const char*> units, double step, int decimals) {
  auto unit = units.begin();
  const double limit = step - 0.5 * std::pow(10.0, -decimals);
  while (std::fabs(v) >= limit && unit + 1 != units.end()) {
    v /= step;
    ++unit;
  }
  return fixedText(v, decimals) + " " + *unit;
}

}  // namespace

double roundQuantity(double v) {
  if (!std::isfinite(v)) return v;
  return normalizeZero(fromText(toText(v, std::chars_format::scientific, 11)));
}

double roundRatio(double v) {
  if (!std::isfinite(v)) return v;
  return normalizeZero(fromText(toText(v, std::chars_format::fixed, 6)));
}

std::string quantityText(double v) {
  return toText(roundQuantity(v), std::chars_format::general, 12);
}
std::string ratioText(double v) { return toText(roundRatio(v), std::chars_format::fixed, 6); }

std::string fixedText(double v, int decimals) {
  return toText(normalizeZero(v), std::chars_format::fixed, decimals);
}

std::string significant(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return fixedText(v, 0);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  return fixedText(v, std::max(0, digits - 1 - magnitude));
}

std::string engSeconds(double seconds) {
  return scaled(seconds * 1e12, {"ps", "ns", "us", "ms", "s"}, 1000, 2);
}

std::string engEnergyPj(double picojoules) {
  return scaled(picojoules, {"pJ", "nJ", "uJ", "mJ", "J"}, 1000, 2);
}

std::string engWatts(double watts) {
  if (watts == 0) return "0 W";
  return scaled(watts * 1e12, {"pW", "nW", "uW", "mW", "W"}, 1000, 2);
}

std::string engHertz(double hz) { return scaled(hz, {"Hz", "kHz", "MHz", "GHz"}, 1000, 2); }

std::string binaryBytes(int64_t bytes) {
  if (bytes < 1024 && bytes > -1024) return std::to_string(bytes) + " B";
  return scaled(static_cast<double>(bytes), {"B", "KiB", "MiB", "GiB", "TiB", "PiB"}, 1024, 2);
}

std::string withCommas(int64_t v) { return tessel::units::formatCount(v); }

std::string cyclesText(double cycles) { return withCommas(std::llround(cycles)); }

std::string percentText(double fraction) { return fixedText(100.0 * fraction, 2); }

std::string cut(std::string_view s, int width) {
  if (width <= 0) return "";
  if (static_cast<int>(s.size()) <= width) return std::string(s);
  if (width <= 3) return std::string(s.substr(0, static_cast<size_t>(width)));
  return std::string(s.substr(0, static_cast<size_t>(width - 3))) + "...";
}

std::string padRight(std::string_view s, int width) {
  std::string out = cut(s, width);
  return out + std::string(
                   static_cast<size_t>(std::max(0, width) - static_cast<int>(out.size()) + 1), ' ');
}

std::string padLeft(std::string_view s, int width) {
  const int pad = std::max(0, width - static_cast<int>(s.size()));
  return std::string(static_cast<size_t>(pad), ' ') + std::string(s);
}

sim::Cause dominantCause(const sim::OpStats& op) {
  int best = 0;
  for (int c = 1; c < sim::kNumCauses; ++c) {
    if (op.cycles_by_cause[c] > op.cycles_by_cause[best]) best = c;
  }
  return static_cast<sim::Cause>(best);
}

std::string mappingValue(const sim::OpStats& op, std::string_view key) {
  for (const auto& [k, value] : op.mapping) {
    if (k == key) return value;
  }
  return "";
}

std::string mappingShort(const sim::OpStats& op) {
  constexpr std::string_view kTile = "tile_";
  constexpr std::array<std::string_view, 5> kBound = {
      "gap_to_bound", "array_shape_cost", "gap_to_ideal", "array_share", "bound_spatial"};
  std::string dataflow, tiles, others;
  for (const auto& [key, value] : op.mapping) {
    if (std::find(kBound.begin(), kBound.end(), key) != kBound.end()) continue;
    if (key == "dataflow") {
      dataflow = value;
    } else if (key.compare(0, kTile.size(), kTile) == 0) {
      tiles += " " + key.substr(kTile.size()) + "=" + value;
    } else {
      others += " " + key + "=" + value;
    }
  }
  std::string out = dataflow + (tiles.empty() ? others : tiles);
  for (const auto& [key, value] : op.mapping) {
    if (key == "double_buffered" && value == "false") out += " single-buffered";
  }
  return out.empty() || out[0] != ' ' ? out : out.substr(1);
}

std::string mappingKv(const sim::OpStats& op) {
  std::string out;
  for (const auto& [key, value] : op.mapping) {
    if (!out.empty()) out += ';';
    out += key + "=" + value;
  }
  return out;
}

}  // namespace tessel::reports
