// Internal to reports/html: the charts of an LLM serve report.
#pragma once

#include <string>
#include <vector>

#include "reports/html/llm_serve_input.h"
#include "reports/html/report_doc.h"

namespace tessel::reports::html {

// At most this many points get a line in the KV-cache chart.
constexpr size_t kMaxKvLines = 8;

// TTFT (`llm-ttft`) and TPOT (`llm-tpot`) p50, p90 and p99 against the arrival rate, one line
// per (max batch, chunk) and percentile, over the points that ran at a rate above 0. Empty when
// fewer than two rates ran (a single rate or a trace).
std::vector<Chart> latencyCharts(const LlmServeData& d);
// The KV cache's blocks in use over time as a share of memory.kv_blocks (`llm-kv`), one step line
// per point that ran and sampled it, the first kMaxKvLines of them. Each mark carries data-point,
// data-t (seconds since the point's first sample), data-blocks, data-share and data-peak (the
// point's kv_peak_blocks / kv_blocks). Nothing to draw: an empty svg.
Chart kvChart(const LlmServeData& d);
// One row per request of `p`'s timeline (`llm-timeline`): a <g class="request"> per entry with its
// four times as data-*, holding one bar ("mark") per phase of positive length: queue (arrival to
// admitted), prefill (to the first token), decode (to the last). Bars carry data-phase,
// data-start and data-seconds; their widths are proportional to data-seconds.
Chart timelineChart(const LlmPoint& p);

}  // namespace tessel::reports::html
