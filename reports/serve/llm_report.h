// `tessel serve` on a decoder LLM: the terminal table and the JSON (reports/SCHEMA.md,
// "llm_serve").
#pragma once

#include <ostream>
#include <string>

#include "reports/serve/serve_report.h"
#include "serve/llm/llm_serve.h"

namespace tessel::reports {

void writeLlmServeTable(const serve::llm::LlmResult& result, const ServeHeader& header,
                        std::ostream& os);
std::string llmServeJsonString(const serve::llm::LlmResult& result, const ServeHeader& header);

}  // namespace tessel::reports
