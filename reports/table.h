// The terminal table: what a person reads after `tessel run`. Not a stable format —
// scripts read the JSON (reports/SCHEMA.md) instead.
#pragma once

#include <ostream>
#include <string>

#include "sim/stats.h"

namespace tessel::reports {

struct TableOptions {
  int top_n = 10;   // ops listed in the "top ops" section; 0 omits it, negative lists all
  int width = 120;  // target line width; long op names and mappings are cut to fit
  bool accesses = false;  // per array op, accesses by level and tensor (reports/accesses_table.h)
};

void writeTable(const sim::RunStats& run, std::ostream& os, const TableOptions& options = {});
std::string tableString(const sim::RunStats& run, const TableOptions& options = {});

}  // namespace tessel::reports
