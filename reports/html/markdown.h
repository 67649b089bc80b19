// A Markdown summary of a Report: the header, headline numbers, notes and every table.
#pragma once

#include <string>

#include "reports/html/report_doc.h"

namespace tessel::reports::html {

std::string markdownReport(const Report& r);

}  // namespace tessel::reports::html
