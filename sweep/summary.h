// What a finished sweep shows as a whole, from its result lines: counts, the Pareto fronts of
// the spec's `pareto:` (sweep/fronts.h) and the swept keys that changed no result
// (sweep/axis_notes.h). Written to DIR/summary.json when the sweep completes; the CLI prints
// the notes. Nothing here prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/axis_notes.h"
#include "sweep/fronts.h"
#include "sweep/spec.h"

namespace tessel::sweep {

struct Summary {
  int64_t points = 0;    // result lines
  int64_t ok = 0;        // status ok, violators included
  int64_t failed = 0;    // status failed
  int64_t violated = 0;  // ok, but broke a constraint over metrics
  std::vector<ParetoFront> fronts;
  std::vector<AxisNote> notes;
};

// The summary of the result lines (in any order) of `spec`'s sweep; `source` names where the
// lines come from, for errors.
Summary summarize(const Spec& spec, const std::vector<std::string>& lines,
                  const std::string& source = "results.jsonl");

// summary.json's text (schema in reports/SCHEMA.md, "summary.json").
std::string summaryJson(const Spec& spec, const Summary& summary);

// Summarizes DIR/results.jsonl and writes DIR/summary.json (through a rename).
Summary writeSummary(const Spec& spec, const std::string& dir);

}  // namespace tessel::sweep
