#include "util/budget.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "util/units.h"

namespace tessel::budget {
namespace {

// MemAvailable from /proc/meminfo in bytes; 0 when unknown.
uint64_t availableMemory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t kib = 0;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

uint64_t physicalMemory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

// "2.1 GiB": one decimal of the largest binary unit, for estimates.
std::string approxBytes(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  return units::formatWith(u == 0 ? "%.0f" : "%.1f", bytes) + " " + kUnits[u];
}

std::string approxSeconds(double s) {
  if (s < 120) return units::formatWith("%.0f", s) + " seconds";
  if (s < 7200) return units::formatWith("%.0f", s / 60) + " minutes";
  if (s < 2 * 86400) return units::formatWith("%.0f", s / 3600) + " hours";
  return units::formatWith("%.0f", s / 86400) + " days";
}

}  // namespace

uint64_t memoryBytes() {
  if (const char* env = std::getenv("TESSEL_MEMORY_BUDGET"); env && *env) {
    return units::parseBytes(env, {"", 0, 0, "TESSEL_MEMORY_BUDGET"});
  }
  const uint64_t available = availableMemory();
  return available > 0 ? available : physicalMemory();
}

std::string memoryText() {
  const bool set = std::getenv("TESSEL_MEMORY_BUDGET") && *std::getenv("TESSEL_MEMORY_BUDGET");
  const std::string bytes = approxBytes(static_cast<double>(memoryBytes()));
  return set ? "TESSEL_MEMORY_BUDGET allows " + bytes : "this machine has " + bytes + " available";
}

double workSeconds() {
  if (const char* env = std::getenv("TESSEL_TIME_BUDGET"); env && *env) {
    char* end = nullptr;
    const double s = std::strtod(env, &end);
    if (end == env || *end != '\0' || !(s > 0)) {
      throw ConfigError({"", 0, 0, "TESSEL_TIME_BUDGET"},
                        "expected a positive number of seconds, got '" + std::string(env) + "'");
    }
    return s;
  }
  return 3600;
}

void checkCount(int64_t count, int64_t bytes_per_item, const std::string& what,
                const SourceLocation& where) {
  const uint64_t have = memoryBytes();
  if (have == 0 || count <= 0 || bytes_per_item <= 0) return;
  int64_t need = 0;
  const bool overflow = __builtin_mul_overflow(count, bytes_per_item, &need);
  if (!overflow && static_cast<uint64_t>(need) <= have) return;
  const double need_bytes = static_cast<double>(count) * static_cast<double>(bytes_per_item);
  throw ConfigError(where, units::formatCount(count) + " " + what + " would need about " +
                               approxBytes(need_bytes) + " of memory" +
                               (bytes_per_item > 1 ? " (" + approxBytes(static_cast<double>(
                                                                bytes_per_item)) + " each)"
                                                   : std::string()) + "; " + memoryText());
}

void checkWork(double count, double seconds_per_item, const std::string& what,
               const SourceLocation& where) {
  const double need = count * seconds_per_item, have = workSeconds();
  if (!(need > have)) return;
  const bool set = std::getenv("TESSEL_TIME_BUDGET") && *std::getenv("TESSEL_TIME_BUDGET");
  throw ConfigError(where, units::formatCount(static_cast<int64_t>(count)) + " " + what +
                               " would take about " + approxSeconds(need) +
                               " before any output; " +
                               (set ? "TESSEL_TIME_BUDGET allows " : "the limit is ") +
                               approxSeconds(have) + (set ? "" : " (TESSEL_TIME_BUDGET raises it)"));
}

}  // namespace tessel::budget
