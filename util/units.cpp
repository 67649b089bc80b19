#include "util/units.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "util/suggest.h"

namespace tessel::units {
namespace {

// One unit is mul/div canonical units; dividing last keeps "100 ns" at 1 GHz exactly 100.
struct Unit {
  std::string name;
  double mul;
  double div = 1;
};

// What a parse function accepts, for both conversion and error messages.
struct Quantity {
  std::string_view what;     // "a size"
  std::string_view example;  // "256 KiB"
  std::vector<Unit> units;
  bool plain_ok = false;  // a bare number is already canonical
  std::string accepted;   // human list of units; empty = the unit names joined
};

// A number with its unit, validated against a Quantity.
struct Reading {
  double value;
  std::string_view unit;  // "" for a bare number
  double mul, div;        // convert value to the canonical unit
  double canonical() const { return value * mul / div; }
};

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> unitNames(const Quantity& q) {
  std::vector<std::string> names;
  for (const auto& u : q.units) names.push_back(u.name);
  return names;
}

std::string acceptedText(const Quantity& q) {
  return q.accepted.empty() ? joinNames(unitNames(q)) : q.accepted;
}

// Splits "256 KiB" into 256 and "KiB"; rejects empty, non-numeric, non-finite and negative.
std::pair<double, std::string_view> splitNumber(std::string_view text, const Quantity& q,
                                                const SourceLocation& where) {
  const std::string_view s = trim(text);
  const std::string expected = "expected " + std::string(q.what) + " like " + quoted(q.example);
  if (s.empty()) throw ConfigError(where, expected + ", got nothing");
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Out of double's range one way or the other: "1e400" overflows, "1e-400" underflows.
    const size_t e = s.find_first_of("eE");
    const bool tiny = e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-';
    throw ConfigError(where, quoted(s) + (tiny ? " is too small" : " is too large"));
  }
  if (ec != std::errc()) throw ConfigError(where, expected + ", got " + quoted(s));
  if (!std::isfinite(value)) throw ConfigError(where, quoted(s) + " is not a finite number");
  if (value < 0 || s.front() == '-') {
    throw ConfigError(where, std::string(q.what) + " must not be negative, got " + quoted(s));
  }
  return {value, trim(s.substr(end - s.data()))};
}

// A near miss, else a rate that starts with the unit given ("pJ" -> "pJ/B", "GB" -> "GB/s").
std::string unitHint(std::string_view unit, const std::vector<std::string>& names) {
  std::string hint = didYouMean(unit, names);
  for (size_t i = 0; hint.empty() && i < names.size(); ++i) {
    if (names[i].rfind(std::string(unit) + "/", 0) == 0)
      hint = "; did you mean '" + names[i] + "'?";
  }
  return hint;
}

Reading read(std::string_view text, const Quantity& q, const SourceLocation& where) {
  auto [value, unit] = splitNumber(text, q, where);
  if (unit.empty()) {
    if (q.plain_ok) return {value, unit, 1, 1};
    throw ConfigError(where, std::string(q.what) + " needs a unit, got " + quoted(trim(text)) +
                                 "; accepted: " + acceptedText(q));
  }
  for (const auto& u : q.units) {
    if (u.name == unit) return {value, unit, u.mul, u.div};
  }
  throw ConfigError(where, "unknown unit " + quoted(unit) + " in " + quoted(trim(text)) + " for " +
                               std::string(q.what) + "; accepted: " + acceptedText(q) +
                               unitHint(unit, unitNames(q)));
}

const char* const kSizeList = "B, kB, MB, GB, TB, KiB, MiB, GiB, TiB";

// Decimal prefixes are powers of 1000 (SI), binary ones powers of 1024 (IEC).
std::vector<Unit> sizeUnits() {
  return {{"B", 1},           {"kB", 1e3},           {"MB", 1e6},
          {"GB", 1e9},        {"TB", 1e12},          {"KiB", 1024.0},
          {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
}

// B/cycle (times `per_cycle`) and every size unit over "s" (divided by `seconds_div`).
Quantity rateQuantity(double per_cycle, double seconds_div, bool plain_ok) {
  Quantity q{"a bandwidth",
             "16 B/cycle",
             {},
             plain_ok,
             std::string("B/cycle, or a size per second (") + kSizeList + " followed by /s)"};
  q.units.push_back({"B/cycle", per_cycle});
  for (const auto& u : sizeUnits()) q.units.push_back({u.name + "/s", u.mul, seconds_div});
  return q;
}

void requireClock(double clock_hz, std::string_view text, const SourceLocation& where) {
  if (!(clock_hz > 0)) {
    throw ConfigError(where, "cannot convert " + quoted(trim(text)) + " without a clock");
  }
}

std::vector<Unit> energyUnits() {
  return {{"fJ", 1, 1e3}, {"pJ", 1}, {"nJ", 1e3}, {"uJ", 1e6}, {"mJ", 1e9}, {"J", 1e12}};
}

}  // namespace

uint64_t parseBytes(std::string_view text, const SourceLocation& where) {
  const Quantity q{"a size", "256 KiB", sizeUnits(), true, kSizeList};
  const double bytes = read(text, q, where).canonical();
  if (bytes >= 18446744073709551616.0) {
    throw ConfigError(where, quoted(trim(text)) + " is too large");
  }
  if (bytes != std::floor(bytes)) {
    throw ConfigError(where, quoted(trim(text)) + " is not a whole number of bytes");
  }
  return static_cast<uint64_t>(bytes);
}

double parseBandwidth(std::string_view text, double clock_hz, const SourceLocation& where) {
  const Reading r = read(text, rateQuantity(1, clock_hz, true), where);
  if (!r.unit.empty() && r.unit != "B/cycle") requireClock(clock_hz, text, where);
  return r.canonical();
}

double parseByteRate(std::string_view text, double clock_hz, const SourceLocation& where) {
  const Reading r = read(text, rateQuantity(clock_hz, 1, false), where);
  if (r.unit == "B/cycle") requireClock(clock_hz, text, where);
  return r.canonical();
}

double parseFrequency(std::string_view text, const SourceLocation& where) {
  const Quantity q{
      "a frequency", "1 GHz", {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}}, false, ""};
  return read(text, q, where).canonical();
}

double parseCycles(std::string_view text, double clock_hz, const SourceLocation& where) {
  Quantity q{
      "a time", "100 ns", {{"cycle", 1}, {"cycles", 1}}, true, "cycle, cycles, ps, ns, us, ms, s"};
  const std::vector<Unit> per_second = {
      {"ps", 1, 1e12}, {"ns", 1, 1e9}, {"us", 1, 1e6}, {"ms", 1, 1e3}, {"s", 1}};
  for (const auto& u : per_second) q.units.push_back({u.name, clock_hz, u.div});
  const Reading r = read(text, q, where);
  if (!r.unit.empty() && r.unit != "cycle" && r.unit != "cycles") {
    requireClock(clock_hz, text, where);
  }
  return r.canonical();
}

double parseSeconds(std::string_view text, const SourceLocation& where) {
  const Quantity q{
      "a time", "1 us", {{"ps", 1, 1e12}, {"ns", 1, 1e9}, {"us", 1, 1e6}, {"ms", 1, 1e3}, {"s", 1}},
      false, ""};
  return read(text, q, where).canonical();
}

double parseEnergy(std::string_view text, const SourceLocation& where) {
  const Quantity q{"an energy", "0.2 pJ", energyUnits(), false, ""};
  return read(text, q, where).canonical();
}

double parseEnergyPerByte(std::string_view text, const SourceLocation& where) {
  Quantity q{"an energy per byte", "20 pJ/B", {}, false, ""};
  for (const auto& u : energyUnits()) q.units.push_back({u.name + "/B", u.mul, u.div});
  return read(text, q, where).canonical();
}

double parseArea(std::string_view text, const SourceLocation& where) {
  const Quantity q{"an area",
                   "0.5 mm2",
                   {{"um2", 1, 1e6}, {"um^2", 1, 1e6}, {"mm2", 1}, {"mm^2", 1}, {"cm2", 100}, {"cm^2", 100}},
                   false,
                   ""};
  return read(text, q, where).canonical();
}

double parsePower(std::string_view text, const SourceLocation& where) {
  const Quantity q{"a power",
                   "2 mW",
                   {{"nW", 1, 1e6}, {"uW", 1, 1e3}, {"mW", 1}, {"W", 1e3}},
                   false,
                   ""};
  return read(text, q, where).canonical();
}

double parseVoltage(std::string_view text, const SourceLocation& where) {
  const Quantity q{"a voltage", "0.8 V", {{"mV", 1, 1e3}, {"V", 1}}, false, ""};
  return read(text, q, where).canonical();
}

double parseLength(std::string_view text, const SourceLocation& where) {
  const Quantity q{"a length", "20 um", {{"nm", 1, 1e3}, {"um", 1}, {"mm", 1e3}}, false, ""};
  return read(text, q, where).canonical();
}

double parseFlopRate(std::string_view text, const SourceLocation& where) {
  const Quantity q{"a FLOP rate",
                   "32 GFLOP/s",
                   {{"FLOP/s", 1},
                    {"kFLOP/s", 1e3},
                    {"MFLOP/s", 1e6},
                    {"GFLOP/s", 1e9},
                    {"TFLOP/s", 1e12},
                    {"PFLOP/s", 1e15}},
                   false,
                   ""};
  return read(text, q, where).canonical();
}

std::string formatNumber(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::string formatCount(int64_t v) {
  // Magnitude computed without negating INT64_MIN.
  const uint64_t magnitude = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
  const std::string digits = std::to_string(magnitude);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string formatBytes(uint64_t bytes) {
  static const char* const kBinary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  static const char* const kDecimal[] = {"B", "kB", "MB", "GB", "TB"};
  if (bytes == 0) return "0 B";
  // Exact forms first, binary before decimal: "256 KiB", then "2 MB"; a quotient of 1024 or
  // more reads better scaled ("931.323 GiB" rather than "976562500 KiB").
  for (int k = 6; k >= 1; --k) {
    const uint64_t unit = uint64_t{1} << (10 * k);
    if (bytes % unit == 0 && bytes / unit < 1024) {
      return std::to_string(bytes / unit) + " " + kBinary[k];
    }
  }
  uint64_t unit = 1000000000000ULL;  // MB and up only: "1000 B" reads better than "1 kB"
  for (int k = 4; k >= 2; --k, unit /= 1000) {
    if (bytes % unit == 0 && bytes / unit < 1000)
      return std::to_string(bytes / unit) + " " + kDecimal[k];
  }
  int k = 0;
  double scaled = static_cast<double>(bytes);
  while (scaled >= 1024 && k < 6) scaled /= 1024, ++k;
  return formatNumber(scaled) + " " + kBinary[k];
}

std::string formatFrequency(double hz) {
  if (hz >= 1e9) return formatNumber(hz / 1e9) + " GHz";
  if (hz >= 1e6) return formatNumber(hz / 1e6) + " MHz";
  if (hz >= 1e3) return formatNumber(hz / 1e3) + " kHz";
  return formatNumber(hz) + " Hz";
}

std::string formatFixed(double value, int digits) {
  char buf[400];  // 308 digits before the point at most, and the digits after it
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(digits, 0, 60), value);
  return buf;
}

std::string formatWith(const char* printf_format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, printf_format, value);
  return buf;
}

}  // namespace tessel::units
