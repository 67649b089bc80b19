// The machine-readable report: a stable, versioned schema (reports/SCHEMA.md) that scripts,
// sweeps and tests read. Deterministic: the same RunStats always gives the same bytes.
#pragma once

#include <ostream>
#include <string>

#include "sim/stats.h"

namespace tessel::reports {

// Bump when a field is removed, renamed or changes meaning; adding fields keeps the version.
inline constexpr int kJsonSchemaVersion = 1;
inline constexpr const char* kToolName = "tessel";

// indent >= 0 pretty-prints with that many spaces per level; -1 writes one line (JSON Lines).
// Either way the document ends with "\n".
void writeJson(const sim::RunStats& run, std::ostream& os, int indent = 2);
std::string toJsonString(const sim::RunStats& run, int indent = 2);

}  // namespace tessel::reports
