// Internal to reports/html: a sweep directory as `tessel sweep` writes it (sweep.json plus
// results.jsonl, or points.jsonl when the sweep was interrupted).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/html/json_input.h"

namespace tessel::reports::html {

struct SweepPoint {
  int64_t index = 0;
  std::string id;
  Json params;   // key -> the YAML scalar as written (labels)
  Json numeric;  // key -> number in base units (axes)
  bool ok = false;
  Json metrics;                       // status ok: what the spec asked for
  std::string error, error_kind;      // status failed
  std::vector<std::string> violated;  // ok, but broke these constraints over metrics
};

struct SweepData {
  Json meta;                       // sweep.json
  std::vector<SweepPoint> points;  // sorted by index, each index once
  std::string read_from;           // "results.jsonl" or "points.jsonl"
  Json summary;                    // summary.json when the sweep wrote one, else null
};

// ConfigError naming the file and what was expected when the directory is not a sweep.
SweepData readSweep(const std::string& dir);

}  // namespace tessel::reports::html
