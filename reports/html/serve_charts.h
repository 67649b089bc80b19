// Internal to reports/html: the charts of a serve report.
#pragma once

#include <string>
#include <vector>

#include "reports/html/report_doc.h"
#include "reports/html/serve_input.h"

namespace tessel::reports::html {

// "single b=4", or the variant ("input uint8 b=1"): a profile's or a line's short name.
std::string shortName(const std::string& cores, int batch, const std::string& variant);

// One stacked bar per profile: pre, the job alone (one core busy) and post, in ms
// (`serve-service-times`).
Chart serviceChart(const ServeData& d);
// Throughput (`serve-throughput`) and p99 latency (`serve-p99`) against workers, one line per
// (cores, batch) of the grid (variant ""), points in order of workers.
std::vector<Chart> workerCharts(const ServeData& d);
// Jobs in the submit queue and requests in the system over time (`serve-depth-I`, I the
// configuration's index), for each core mode: the configuration with the most workers at its
// first batch, and the one with the best throughput.
std::vector<Chart> depthCharts(const ServeData& d);

}  // namespace tessel::reports::html
