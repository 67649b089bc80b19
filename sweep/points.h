// A sweep's points: for each workload, the product of its swept options and the spec's
// sources (grid axes, the list, the random sample), then the derived keys, then the
// constraints over keys (a point that breaks one is skipped, not run; constraints over
// metrics are checked after the run, by the evaluator). Indices are dense and stable:
// the same spec always gives the same points in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/spec.h"

namespace tessel::sweep {

struct Point {
  int64_t index = 0;
  std::string id;  // hash of what the point sets: resumes match points by index and id
  std::string workload;
  std::vector<Assignment> values;  // in Spec::keys order: workload options, dataflow, arch keys

  // The "-p" overrides for the accelerator (every key but dataflow and workload.*).
  std::vector<std::string> overrides() const;
  // The value of `key`, or "" when the point does not set it.
  std::string value(const std::string& key) const;
};

struct PointSet {
  std::vector<Point> points;
  int64_t skipped = 0;  // combinations the constraints ruled out
};

// ConfigError (at the expression or key) when a derived key or constraint cannot be
// evaluated, or when the product would exceed `limit` combinations.
PointSet generatePoints(const Spec& spec, int64_t limit = 10'000'000);

}  // namespace tessel::sweep
