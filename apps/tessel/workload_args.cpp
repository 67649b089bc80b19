// The CLI's workload options that need parsing, and the warnings a workload's build gave.
#include "apps/tessel/workload_args.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <mutex>

namespace tessel::app {
namespace {

std::vector<std::string>& pendingWarnings() {
  static std::vector<std::string> warnings;
  return warnings;
}

// An LLM service builds its step graphs on several threads.
std::mutex& warningsMutex() {
  static std::mutex m;
  return m;
}

[[noreturn]] void optionError(const std::string& option, const std::string& message) {
  throw ConfigError({"", 0, 0, option}, message);
}

}  // namespace

std::pair<std::string, int64_t> parseDim(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    optionError("--dim", "expected NAME=VALUE (e.g. --dim batch_size=1), got '" + text + "'");
  }
  const std::string name = text.substr(0, eq), value = text.substr(eq + 1);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < 1) {
    optionError("--dim", "dimension '" + name + "' must be a whole number of at least 1, got '" +
                             value + "'");
  }
  return {name, v};
}

std::vector<double> parseExpertLoad(const std::string& text) {
  std::vector<double> load;
  if (text.empty() || text == "uniform") return load;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    double w = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), w);
    if (ec != std::errc() || end != item.data() + item.size() || !std::isfinite(w) || w < 0) {
      optionError("--expert-load", "expected non-negative weights W,W,... (one per expert), got '" +
                                       item + "' in '" + text + "'");
    }
    load.push_back(w);
    start = comma + 1;
  }
  if (std::all_of(load.begin(), load.end(), [](double w) { return w == 0; }))
    optionError("--expert-load", "at least one expert must receive tokens");
  return load;
}

models::Graph buildWorkload(const std::string& name, const models::WorkloadOptions& options) {
  models::Graph g = models::build(name, options);
  const std::lock_guard<std::mutex> lock(warningsMutex());
  std::vector<std::string>& pending = pendingWarnings();
  for (const std::string& w : g.warnings) {
    if (std::find(pending.begin(), pending.end(), w) == pending.end()) pending.push_back(w);
  }
  return g;
}

std::vector<std::string> takeWarnings() {
  const std::lock_guard<std::mutex> lock(warningsMutex());
  std::vector<std::string> w;
  w.swap(pendingWarnings());
  return w;
}

}  // namespace tessel::app
