// The self-contained HTML page of a Report: inline CSS, inline SVG charts, sortable tables with
// a CSV download link each; no script, style sheet, font or image is fetched.
#pragma once

#include <string>

#include "reports/html/report_doc.h"

namespace tessel::reports::html {

std::string htmlReport(const Report& r);

}  // namespace tessel::reports::html
