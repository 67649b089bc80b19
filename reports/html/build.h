// Reads what `tessel run --json`, `tessel compare --json`, `tessel serve --json` and
// `tessel sweep` wrote into a Report.
// ConfigError naming the file and what was expected when the input is not one of those.
#pragma once

#include <string>
#include <vector>

#include "reports/html/report_doc.h"

namespace tessel::reports::html {

// Choices a user makes about what a report shows.
struct ReportOptions {
  // Sweeps: the metrics charted, one set of charts each (`tessel report --metric`). Empty: the
  // latency (cycles, else seconds), energy_pj, and area_mm2 when the points have an area.
  std::vector<std::string> metrics;
};

// Detects the input by content: a directory holding sweep.json is a sweep; a JSON file with
// schema_version, totals and ops is a run; one with "kind": "compare" is a comparison, one with
// "kind": "serve" a deployment simulation. ConfigError when `options` asks for what the input
// cannot show (metrics of anything but a sweep, a metric the sweep did not record).
Report loadReport(const std::string& path, const ReportOptions& options = {});

// The builders behind loadReport; `source` names the input in errors and in the header.
Report runReport(const std::string& json_text, const std::string& source);
Report compareReport(const std::string& json_text, const std::string& source);
Report serveReport(const std::string& json_text, const std::string& source);
Report sweepReport(const std::string& dir, const ReportOptions& options = {});

}  // namespace tessel::reports::html
