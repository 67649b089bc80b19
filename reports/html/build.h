// Reads what `tessel run --json`, `tessel compare --json`, `tessel serve --json` and
// `tessel sweep` wrote into a Report.
// ConfigError naming the file and what was expected when the input is not one of those.
#pragma once

#include <string>

#include "reports/html/report_doc.h"

namespace tessel::reports::html {

// Detects the input by content: a directory holding sweep.json is a sweep; a JSON file with
// schema_version, totals and ops is a run; one with "kind": "compare" is a comparison, one with
// "kind": "serve" a deployment simulation.
Report loadReport(const std::string& path);

// The builders behind loadReport; `source` names the input in errors and in the header.
Report runReport(const std::string& json_text, const std::string& source);
Report compareReport(const std::string& json_text, const std::string& source);
Report serveReport(const std::string& json_text, const std::string& source);
Report sweepReport(const std::string& dir);

}  // namespace tessel::reports::html
