// Values of keys a point does not set, read from the spec's first design file as written
// (defaults the loader fills in are not visible): what expressions read for such keys.
#pragma once

#include <string>

#include "sweep/spec.h"
#include "util/yaml.h"

namespace tessel::sweep {

class BaseValues {
 public:
  explicit BaseValues(const Spec& spec);

  // The key's value as a number; ConfigError when the file does not write one.
  double number(const std::string& key) const;

 private:
  const Spec& spec_;
  yaml::Document doc_;
};

// A key's value for an expression: the point's own (`values`), else the base file's.
// ConfigError when the value is not a number.
double keyValue(const std::vector<Assignment>& values, const BaseValues& base, const Spec& spec,
                const std::string& key);

}  // namespace tessel::sweep
