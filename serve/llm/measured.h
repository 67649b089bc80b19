// A measured run of an LLM service, and how far the model is from it. The run is a per-request
// table: what each request asked for (arrival, prompt and output tokens, read as a trace is)
// and what the service took (time to first token, end to end), optionally with the load stage
// it belongs to (the separate runs of a benchmark at different rates). Each stage is replayed
// on the model from an empty service and compared statistic by statistic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "serve/llm/metrics.h"
#include "serve/llm/requests.h"
#include "serve/llm/scheduler.h"

namespace tessel::serve::llm {

// One measured request. Seconds.
struct MeasuredRequest {
  Request request;    // as readTrace reads it: id = its row, 0.. in file order
  double ttft = 0;    // arrival to first token
  double e2e = 0;     // arrival to last token
  std::string stage;  // "all" without a stage column
};

// Reads a measured run: CSV with a header, or JSONL (as readTrace tells them apart). Besides
// the trace's columns, `ttft` (or ttft_s, time_to_first_token; ttft_ms in milliseconds) and
// `e2e` (or e2e_s, latency, e2e_latency; e2e_ms, latency_ms in milliseconds), and optionally
// `stage` (text or a number); tpot and other columns are ignored. Rows may come in any order.
// ConfigError with file:line:column for a missing column, a bad number, a negative time, an
// e2e of 0 or a ttft above the e2e (and whatever readTrace rejects).
std::vector<MeasuredRequest> readMeasured(const std::string& path);

// The rows of one stage, in arrival order (ties in file order): row i of the stage is
// request i of its simulation.
struct MeasuredStage {
  std::string name;
  std::vector<size_t> rows;  // indices into the measured requests
};

// Stages in the order of their first row in the file.
std::vector<MeasuredStage> stagesOf(const std::vector<MeasuredRequest>& measured);

// The stage's requests to simulate: arrivals and lengths as measured, ids 0..n-1.
std::vector<Request> stageRequests(const std::vector<MeasuredRequest>& measured,
                                   const MeasuredStage& stage);

// The stage's measured rate: requests / the span of their arrivals, requests/s (NaN for a
// span of 0).
double measuredRate(const std::vector<MeasuredRequest>& measured, const MeasuredStage& stage);

// (model - measured) / measured; NaN when the measured value is not positive.
double relativeError(double model, double measured);

// One latency measured and modeled: mean, p50, p90, p99 (nearest rank, as metrics.h) and the
// signed relative error of each (max unused).
struct LatencyComparison {
  Percentiles measured, model, error;
};

struct StageComparison {
  std::string name;
  int64_t requests = 0;
  double rate = 0;                         // measuredRate
  LatencyComparison ttft, tpot, e2e;       // TPOT: (e2e - ttft) / (output - 1), 2+ output tokens
  int64_t tpot_requests = 0;               // requests of 2+ output tokens (none: TPOT is all zeros)
  std::vector<double> e2e_request_errors;  // |relative E2E error| per request, stage order
  double e2e_request_error_median = 0;
};

// The stage compared: `model[i]` is the simulation's record of the stage's request i.
StageComparison compareStage(const std::vector<MeasuredRequest>& measured,
                             const MeasuredStage& stage, const std::vector<RequestRecord>& model);

struct OverallComparison {
  int64_t requests = 0;
  double e2e_request_error_median = 0;  // over every request of every stage
  double e2e_mean_error_median = 0;     // over stages, of |relative error of the mean E2E|
};

OverallComparison overall(const std::vector<StageComparison>& stages);

}  // namespace tessel::serve::llm
