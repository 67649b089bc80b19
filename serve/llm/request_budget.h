// How much memory and time an LLM service's request stream costs, checked (util/budget.h) before
// the stream is generated or a trace is split into requests: `--requests 100000000` or a trace
// of that many lines is refused in a moment, naming the option or the file, instead of running
// for hours.
#pragma once

#include <cstdint>

#include "serve/llm/requests.h"
#include "util/error.h"

namespace tessel::serve::llm {

// Bytes one request holds through a simulation: the request, its record, its two KV-log
// changes (admitted, finished) and its samples in the latency metrics.
int64_t bytesPerRequest();

// The scheduler's work, measured on `tessel serve` of llama-3.2-1b: about 2 us per request
// (arrival, admission, metrics), and 0.7 us per iteration a request takes part in. A request
// decoding alone takes part in one iteration per output token: the most it can cost.
inline constexpr double kSecondsPerRequest = 2e-6, kSecondsPerIteration = 0.7e-6;

// ConfigError at `where` when `requests` requests, each keeping `extra_bytes` more (a trace's
// line index), would not fit in memory, or `requests` x `points` simulated requests of
// `mean_output` tokens would take longer than the time budget.
void checkRequests(int64_t requests, int64_t extra_bytes, double mean_output, int64_t points,
                   const SourceLocation& where);

// The mean of a length distribution (for the work estimate).
double meanOf(const LengthDist& d);

}  // namespace tessel::serve::llm
