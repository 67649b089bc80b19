// The command-line forms of the request stream: length distributions, arrival processes, SLOs.
#include "serve/llm/requests.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string_view>

#include "util/error.h"
#include "util/input_file.h"
#include "util/suggest.h"

namespace tessel::serve::llm {

namespace {

constexpr double kMaxTokens = 1e9;
const char* const kLengthForms = "expected N, uniform:LO:HI or lognormal:MEAN:CV";

[[noreturn]] void fail(const std::string& option, const std::string& message) {
  throw ConfigError({"", 0, 0, option}, message);
}

// The whole of `text` as a finite number, or nothing.
std::optional<double> number(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) return {};
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// A field of a length distribution: a number, a whole one when `integer`, at most kMaxTokens.
double lengthField(std::string_view field, const char* what, bool integer, const std::string& text,
                   const std::string& option) {
  const auto value = number(field);
  if (!value) {
    fail(option, "'" + text + "': " + what + " '" + std::string(field) + "' is not a number; " +
                     kLengthForms);
  }
  if (integer && *value != std::floor(*value)) {
    fail(option,
         "'" + text + "': " + what + " " + std::string(field) + " is not a whole number of tokens");
  }
  if (*value > kMaxTokens) {
    fail(option, "'" + text + "': " + what + " " + std::string(field) + " is more than 1e9 tokens");
  }
  return *value;
}

}  // namespace

LengthDist parseLengthDist(const std::string& text, const std::string& option) {
  if (trim(text).empty()) fail(option, std::string("empty; ") + kLengthForms);
  const auto parts = split(text, ':');
  LengthDist dist;
  dist.text = text;
  const auto fieldCount = [&](size_t want) {
    if (parts.size() != want) {
      fail(option, "'" + text + "': " + std::string(parts[0]) + " takes " +
                       std::to_string(want - 1) + " numbers, got " +
                       std::to_string(parts.size() - 1) + "; " + kLengthForms);
    }
  };
  if (parts[0] == "uniform") {
    fieldCount(3);
    dist.kind = LengthDist::Kind::Uniform;
    dist.a = lengthField(parts[1], "low end", true, text, option);
    dist.b = lengthField(parts[2], "high end", true, text, option);
    if (dist.a < 1) fail(option, "'" + text + "': the low end must be at least 1 token");
    if (dist.b < dist.a) fail(option, "'" + text + "': the high end is below the low end");
  } else if (parts[0] == "lognormal") {
    fieldCount(3);
    dist.kind = LengthDist::Kind::Lognormal;
    dist.a = lengthField(parts[1], "mean", false, text, option);
    dist.b = lengthField(parts[2], "coefficient of variation", false, text, option);
    if (dist.a <= 0) fail(option, "'" + text + "': the mean must be positive");
    if (dist.b < 0) fail(option, "'" + text + "': the coefficient of variation must be >= 0");
  } else if (parts.size() == 1 && number(parts[0])) {
    dist.a = lengthField(parts[0], "length", true, text, option);
    if (dist.a <= 0) fail(option, "'" + text + "': a length must be at least 1 token");
  } else if (parts.size() == 1) {
    fail(option, "'" + text + "' is not a number of tokens; " + kLengthForms);
  } else {
    fail(option, "unknown distribution '" + std::string(parts[0]) + "'; " + kLengthForms);
  }
  return dist;
}

ArrivalSpec parseArrivals(const std::string& text) {
  const std::string option = "--arrivals";
  const char* const kinds = "poisson, uniform or gamma:CV";
  if (text.empty()) fail(option, std::string("empty; expected ") + kinds + " or a trace file");
  ArrivalSpec spec;
  spec.text = text;
  if (text == "poisson") return spec;
  if (text == "uniform") {
    spec.kind = ArrivalSpec::Kind::Uniform;
    return spec;
  }
  if (text.rfind("gamma", 0) == 0 && (text.size() == 5 || text[5] == ':')) {
    const auto cv = text.size() > 5 ? number(std::string_view(text).substr(6)) : std::nullopt;
    if (!cv) fail(option, "'" + text + "': expected gamma:CV with CV a number, e.g. gamma:2");
    if (*cv <= 0) fail(option, "'" + text + "': the coefficient of variation must be positive");
    spec.kind = ArrivalSpec::Kind::Gamma;
    spec.cv = *cv;
    return spec;
  }
  std::error_code ec;
  if (!std::filesystem::exists(text, ec)) {
    fail(option, "'" + text + "' is not one of " + kinds + ", and there is no such trace file" +
                     didYouMean(text, {"poisson", "uniform", "gamma:CV"}));
  }
  checkInputFile(text, "a request trace (CSV or JSONL)");
  spec.kind = ArrivalSpec::Kind::Trace;
  spec.path = text;
  return spec;
}

namespace {

// "0.5", "500ms", "50 ms", "2s", "100us" in seconds; errors quote `item` ("ttft=5min"), or the
// value when it is empty.
double seconds(std::string_view value, const std::string& option, const std::string& item) {
  size_t digits = value.size();
  while (digits > 0 && std::isalpha(static_cast<unsigned char>(value[digits - 1]))) --digits;
  const std::string_view unit = value.substr(digits);
  const auto amount = number(trim(value.substr(0, digits)));
  const std::string quoted = "'" + std::string(value) + "'";
  const std::string at = item.empty() ? quoted + ": " : "'" + item + "': ";
  if (!amount) fail(option, (item.empty() ? "" : at) + quoted + " is not a time");
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  if (unit == "ms") scale = 1e-3;
  if (unit == "us") scale = 1e-6;
  if (scale == 0) {
    fail(option, at + "unknown unit '" + std::string(unit) + "'; accepted: s, ms, us");
  }
  return *amount * scale;
}

double sloSeconds(std::string_view key, std::string_view value) {
  const std::string option = "--slo";
  const std::string item = std::string(key) + "=" + std::string(value);
  if (value.empty())
    fail(option, std::string(key) + " has no value; e.g. " + std::string(key) + "=0.5");
  const double s = seconds(value, option, item);
  if (s <= 0) fail(option, "'" + item + "': an objective must be positive");
  return s;
}

}  // namespace

Slo parseSlo(const std::string& text) {
  const std::string option = "--slo";
  const std::vector<std::string> keys = {"ttft", "tpot", "e2e"};
  if (trim(text).empty()) fail(option, "empty; expected e.g. ttft=0.5,tpot=50ms");
  Slo slo;
  for (const auto raw : split(text, ',')) {
    const auto item = trim(raw);
    const auto eq = item.find('=');
    if (item.empty()) fail(option, "'" + text + "' has an empty item; expected KEY=TIME,...");
    if (eq == std::string_view::npos) {
      fail(option, "'" + std::string(item) + "' is not KEY=TIME, e.g. ttft=0.5");
    }
    const auto key = trim(item.substr(0, eq));
    double* target = key == "ttft"   ? &slo.ttft
                     : key == "tpot" ? &slo.tpot
                     : key == "e2e"  ? &slo.e2e
                                     : nullptr;
    if (!target) {
      fail(option, "unknown objective '" + std::string(key) + "'" + didYouMean(key, keys) +
                       "; known: " + joinNames(keys));
    }
    if (*target > 0) fail(option, std::string(key) + " is given twice");
    *target = sloSeconds(key, trim(item.substr(eq + 1)));
  }
  return slo;
}

double parseOverhead(const std::string& text, const std::string& option) {
  const std::string_view value = trim(text);
  if (value.empty()) fail(option, "empty; expected a time, e.g. 3ms, 25us or 0.001 (seconds)");
  const double s = seconds(value, option, "");
  if (s < 0) fail(option, "'" + std::string(value) + "': a host overhead must be 0 or more");
  return s;
}

}  // namespace tessel::serve::llm
