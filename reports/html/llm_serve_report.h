// The report of an LLM serving simulation: `tessel serve --json` on a decoder model, kind
// "llm_serve" (reports/SCHEMA.md, "LLM serve JSON"). loadReport (build.h) dispatches to it.
#pragma once

#include <string>

#include "reports/html/report_doc.h"

namespace tessel::reports::html {

// `source` names the input in errors and in the header. ConfigError naming the file and the
// field when the text lacks a field the report reads or holds one of the wrong type.
Report llmServeReport(const std::string& json_text, const std::string& source);

}  // namespace tessel::reports::html
