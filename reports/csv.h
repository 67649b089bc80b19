// CSV: one row per op, for spreadsheets and pandas. Columns are documented in
// reports/SCHEMA.md; the set depends only on the run's storage levels.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/stats.h"

namespace tessel::reports {

// The header, in order: id, name, kind, class, placement, fused_into, macs, cycles,
// cycles_<cause> for each cause, bytes_<level> for each of run.level_names, energy_pj,
// utilization, mapping.
std::vector<std::string> csvColumns(const sim::RunStats& run);

// Header line plus one line per op, "\n"-terminated.
void writeCsv(const sim::RunStats& run, std::ostream& os);
std::string csvString(const sim::RunStats& run);

// RFC 4180 quoting: wraps the field in double quotes (doubling inner quotes) when it holds a
// comma, a quote, CR/LF, or leading/trailing spaces; otherwise returns it unchanged.
std::string csvField(std::string_view field);

}  // namespace tessel::reports
