#include "sweep/base_values.h"

#include <optional>

#include "sweep/expression.h"

namespace tessel::sweep {
namespace {

std::optional<yaml::Node> child(const yaml::Node& n, const std::string& key) {
  if (!n.isMap()) return std::nullopt;
  for (const auto& [k, v] : n.entries()) {
    if (k.scalar() == key) return v;
  }
  return std::nullopt;
}

}  // namespace

BaseValues::BaseValues(const Spec& spec)
    : spec_(spec),
      doc_(yaml::Document::fromString(spec.bases.front().text, spec.bases.front().path)) {}

double BaseValues::number(const std::string& key) const {
  std::optional<yaml::Node> node = doc_.root();
  size_t start = 0;
  while (node && start <= key.size()) {
    const size_t dot = key.find('.', start);
    const std::string part =
        key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    node = child(*node, part);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!node || !node->isScalar()) {
    throw ConfigError({spec_.path, 0, 0, key},
                      "'" + key + "' is neither set by the point nor written in " +
                          spec_.bases.front().path +
                          " (derived defaults are not visible to expressions: sweep or set it)");
  }
  if (auto q = quantity(node->scalar())) return *q;
  node->fail("'" + node->scalar() + "' is not a number an expression can use");
}

double keyValue(const std::vector<Assignment>& values, const BaseValues& base, const Spec& spec,
                const std::string& key) {
  for (const Assignment& a : values) {
    if (a.key != key) continue;
    if (auto q = quantity(a.value)) return *q;
    throw ConfigError({spec.path, 0, 0, key}, "'" + key + "' = '" + a.value + "' is not a number");
  }
  return base.number(key);
}

}  // namespace tessel::sweep
