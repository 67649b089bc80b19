#include "sweep/random.h"

#include <cmath>

#include "util/units.h"
#include "util/yaml.h"

namespace tessel::sweep {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double uniform01(uint64_t& state) { return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; }

std::string drawRange(const RandomKey& k, uint64_t& state) {
  const double u = uniform01(state);
  double v = k.log ? std::exp(std::log(k.min) + u * (std::log(k.max) - std::log(k.min)))
                   : k.min + u * (k.max - k.min);
  if (k.integer) v = std::round(v);
  std::string text = k.integer ? std::to_string(static_cast<int64_t>(v)) : units::formatNumber(v);
  return k.unit.empty() ? text : text + " " + k.unit;
}

}  // namespace

RandomKey randomKey(const std::string& key, const yaml::Node& node) {
  RandomKey k;
  k.key = key;
  if (node.isSequence()) {
    for (const yaml::Node& v : node.items()) k.values.push_back(v.scalar("a value"));
    if (k.values.empty()) node.fail("expected at least one value to draw from");
    return k;
  }
  yaml::MapReader r(node);
  k.min = r.required<double>("min", "the smallest value");
  k.max = r.required<double>("max", "the largest value");
  k.log = r.optional<bool>("log", false, "draw uniformly in log space");
  k.integer = r.optional<bool>("integer", false, "round to whole numbers");
  k.unit = r.optional<std::string>("unit", "", "unit appended to the drawn number");
  r.finish();
  if (!(k.min <= k.max)) node.fail("expected min <= max");
  if (k.log && k.min <= 0) node.fail("a log range needs min > 0");
  return k;
}

Choices drawSamples(const std::vector<RandomKey>& keys, int64_t samples, uint64_t seed) {
  Choices points;
  points.reserve(static_cast<size_t>(samples));
  uint64_t state = seed;
  for (int64_t i = 0; i < samples; ++i) {
    std::vector<Assignment> point;
    for (const RandomKey& k : keys) {
      if (!k.values.empty()) {
        const uint64_t pick = splitmix64(state) % k.values.size();
        point.push_back({k.key, k.values[pick]});
      } else {
        point.push_back({k.key, drawRange(k, state)});
      }
    }
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace tessel::sweep
