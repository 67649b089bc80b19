// A sweep spec (configs/sweeps/*.yaml): a base accelerator, the points to run (a grid, listed
// points and a seeded random sample over YAML key paths, plus derived keys and constraints),
// the workloads with their options, the engine and mapper, the metrics each point keeps and
// the Pareto fronts the finished sweep records.
// Read once, validated before any point runs: every error names file:line:column and path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/metric_names.h"
#include "util/error.h"

namespace tessel::sweep {

// A key a point sets: an accelerator YAML path ("scratchpad.capacity"), `dataflow`, or a
// workload option (`workload.seq`, `workload.batch`, `workload.phase`, `workload.layers`).
struct Assignment {
  std::string key;
  std::string value;  // YAML text as written: "64KiB", "16", "[ws]"
};

// One way of choosing values for a set of keys; each option is a partial point.
using Choices = std::vector<std::vector<Assignment>>;

struct Derived {
  std::string key;
  std::string expression;  // over other keys, e.g. "2 * scratchpad.capacity"
  SourceLocation where;
};

// Over keys only: checked before a point runs, and a point that breaks it is not run. Over a
// metric (`area_mm2 <= 2`): checked after the point ran, and a point that breaks it keeps its
// result, marked with the expression in `violated`.
struct Constraint {
  std::string expression;
  SourceLocation where;
  bool on_metrics = false;  // reads a metric: checked after the run
};

// One coordinate of a Pareto front: a numeric metric and which way is better.
struct Objective {
  std::string metric;  // canonical name
  bool maximize = false;
};

struct WorkloadSpec {
  std::string name;
  std::vector<Assignment> options;  // fixed options, keys "workload.seq", ...
  std::vector<Choices> swept;       // options with a list of values: grid axes of their own
};

// An accelerator file a sweep starts from.
struct Base {
  std::string path;  // resolved against the spec's folder
  std::string name;  // the file's stem: the value of the `arch` key
  std::string text;  // its contents, read once
};

struct Spec {
  std::string path;       // the spec file
  std::string name;       // `name:`, else the file's stem
  std::string hash;       // of the spec text: a resumed sweep must have the same
  // `base:` (one file) or `designs:` (several; then the key `arch` names each point's, by
  // stem, and it varies slowest after the workload).
  std::vector<Base> bases;
  // The base of a point's `arch` value (the only base when there is one).
  const Base& baseOf(const std::string& arch) const;
  std::string engine = "analytical";
  std::string mapper = "search";
  std::string objective = "latency";
  std::string fusion = "auto";  // none | epilogue | auto (dataflows::FusionMode)
  int64_t budget = 2000;
  std::string dataflow;  // empty = the array's first
  std::vector<WorkloadSpec> workloads;
  std::vector<Choices> sources;  // grid axes, the list, the random sample: their product
  std::vector<Derived> derived;
  std::vector<Constraint> constraints;
  std::vector<std::string> keys;     // every key a point may set, in spec order
  std::vector<std::string> metrics;  // what each result keeps (canonical names)
  std::vector<Objective> pareto;     // empty, or the 2 or 3 coordinates of the fronts
};

// Reads and validates a spec. ConfigError (file:line:column, YAML path, what was expected)
// on any problem: unknown keys, a key path the accelerator schema lacks, empty lists, an
// unknown metric, engine or mapper, a Pareto front of other than 2 or 3 metrics or with an
// unknown direction, a base file that cannot be read.
Spec loadSpec(const std::string& path);
Spec parseSpec(const std::string& text, const std::string& path);

}  // namespace tessel::sweep
