#include "util/checked.h"

#include <cstdio>

namespace tessel::checked::detail {

void tooLarge(const std::string& what, const std::string& value) {
  throw ConfigError({}, what + " = " + value +
                            " is beyond what tessel's 64-bit counters hold (2^62); "
                            "model a smaller workload or design");
}

void notCountable(const std::string& what, double value) {
  if (std::isnan(value)) throw ConfigError({}, what + " is not a number (NaN)");
  char b[64];
  std::snprintf(b, sizeof b, "%.4g", value);
  if (value < 0) throw ConfigError({}, what + " = " + b + " is negative");
  tooLarge(what, b);
}

}  // namespace tessel::checked::detail
