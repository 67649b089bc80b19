#include "util/checked.h"

#include <cmath>
#include <cstdio>

namespace tessel::checked {
namespace {

[[noreturn]] void tooLarge(const std::string& what, const std::string& value) {
  throw ConfigError({}, what + " = " + value +
                            " is beyond what tessel's 64-bit counters hold (2^62); "
                            "model a smaller workload or design");
}

std::string text(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

}  // namespace

int64_t mul(int64_t a, int64_t b, const std::string& what) {
  int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r) || r > kMaxCount) {
    tooLarge(what, std::to_string(a) + " x " + std::to_string(b));
  }
  return r;
}

int64_t add(int64_t a, int64_t b, const std::string& what) {
  int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &r) || r > kMaxCount) {
    tooLarge(what, std::to_string(a) + " + " + std::to_string(b));
  }
  return r;
}

double finite(double value, const std::string& what) {
  if (std::isnan(value)) throw ConfigError({}, what + " is not a number (NaN)");
  if (value < 0) throw ConfigError({}, what + " = " + text(value) + " is negative");
  if (!(value <= static_cast<double>(kMaxCount))) tooLarge(what, text(value));
  return value;
}

int64_t toCount(double value, const std::string& what) {
  return static_cast<int64_t>(std::llround(finite(value, what)));
}

}  // namespace tessel::checked
