#include "sim/scalesim/knobs.h"

#include "util/error.h"

namespace tessel::sim::scalesim {
namespace {

[[noreturn]] void bad(const std::string& what) { throw ConfigError({"", 0, 0, kOption}, what); }

// value must be `scalesim_value` (true) or `tessel_value` (false).
bool pick(const std::string& key, const std::string& value, const char* scalesim_value,
          const char* tessel_value) {
  if (value == scalesim_value) return true;
  if (value == tessel_value) return false;
  bad("'" + key + "=" + value + "': expected " + key + "=" + scalesim_value + " (SCALE-Sim) or " +
      key + "=" + tessel_value + " (tessel)");
}

}  // namespace

Knobs parseKnobs(const std::vector<std::pair<std::string, std::string>>& params) {
  Knobs k;
  for (const auto& [key, value] : params) {
    if (key == "fold_overlap") {
      k.fold_overlap = !pick(key, value, "off", "on");
    } else if (key == "drain") {
      k.tessel_drain = !pick(key, value, "scalesim", "tessel");
    } else if (key == "memory") {
      k.memory_stalls = !pick(key, value, "ideal", "tessel");
    } else if (key == "other_ops") {
      k.other_ops_zero = pick(key, value, "zero", "tessel");
    } else {
      bad("unknown knob '" + key + "' (known: fold_overlap, drain, memory, other_ops)");
    }
  }
  return k;
}

std::vector<std::pair<std::string, std::string>> splitKnobs(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string piece = text.substr(start, end - start);
    const size_t eq = piece.find('=');
    if (eq == std::string::npos || eq == 0) {
      bad("'" + piece + "': expected KEY=VALUE, e.g. fold_overlap=on");
    }
    out.emplace_back(piece.substr(0, eq), piece.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

std::string describe(const Knobs& k) {
  return std::string("fold_overlap=") + (k.fold_overlap ? "on" : "off") +
         ",drain=" + (k.tessel_drain ? "tessel" : "scalesim") +
         ",memory=" + (k.memory_stalls ? "tessel" : "ideal") +
         ",other_ops=" + (k.other_ops_zero ? "zero" : "tessel");
}

}  // namespace tessel::sim::scalesim
