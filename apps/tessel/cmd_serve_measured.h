// `tessel serve --compare-measured FILE`: an LLM service scored against a measured run
// (serve/llm/measured.h): each stage's requests served from an empty service, its latencies
// printed beside the measured ones, and written under the JSON's "compare_measured".
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "apps/tessel/commands.h"
#include "reports/serve/serve_report.h"
#include "serve/llm/llm_serve.h"
#include "serve/llm/measured.h"

namespace tessel::app {

// Checks the options the measured run replaces (--rate, --arrivals naming another file,
// --requests, --prompt-len, --output-len, a grid of more than one point), reads the file and
// makes it the stream (`options.stream.arrivals`: the file as a trace). ConfigError otherwise.
std::vector<serve::llm::MeasuredRequest> measuredRequests(const ServeArgs& args,
                                                          serve::llm::LlmServeOptions& options);

// Serves each stage and prints the comparison (and the JSON with --json). `device`, when not
// empty, names the replicas of a system.
int compareMeasured(const std::vector<serve::llm::MeasuredRequest>& measured, const ServeArgs& args,
                    serve::llm::LlmInputs in, const serve::llm::LlmServeOptions& options,
                    const reports::ServeHeader& header, const std::string& device,
                    std::ostream& out);

}  // namespace tessel::app
