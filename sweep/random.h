// The seeded random sample of a sweep: each key draws from a list of values or a numeric
// range (uniform or log-uniform, optionally whole numbers, with a unit). The generator is
// splitmix64, so a seed gives the same points on every platform and standard library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sweep/spec.h"

namespace tessel::yaml {
class Node;
}

namespace tessel::sweep {

struct RandomKey {
  std::string key;
  std::vector<std::string> values;  // draw one of these, or else from the range
  double min = 0, max = 0;
  bool log = false;
  bool integer = false;
  std::string unit;  // appended to a drawn number ("KiB", "B/cycle")
};

// `node` is a list of values or {min, max, log, integer, unit}; ConfigError otherwise.
RandomKey randomKey(const std::string& key, const yaml::Node& node);

// `samples` points, each assigning every key.
Choices drawSamples(const std::vector<RandomKey>& keys, int64_t samples, uint64_t seed);

}  // namespace tessel::sweep
