// What a served request stream measured: latency percentiles, throughput, goodput under an SLO,
// the KV cache's use and where requests spent their time.
#pragma once

#include <cstdint>
#include <vector>

#include "serve/llm/requests.h"
#include "serve/llm/scheduler.h"

namespace tessel::serve::llm {

struct Percentiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};
// Nearest rank; zeros for no values.
Percentiles percentiles(std::vector<double> values);

struct Metrics {
  int64_t completed = 0;
  double makespan = 0;  // first arrival to last token, seconds
  Percentiles ttft;     // arrival to first token
  Percentiles tpot;     // (finish - first token) / (output - 1), requests of 2+ output tokens
  Percentiles e2e;      // arrival to last token
  double output_tokens_per_s = 0;
  double requests_per_s = 0;
  double goodput_requests_per_s = 0;  // requests meeting every objective of the SLO, per second
  double slo_attained = 0;            // their share
  double queue_s = 0, prefill_s = 0, decode_s = 0;  // means: arrival->admitted->first->finish
  double utilization = 0;  // the device's busy time / makespan
  double mac_utilization = 0;  // MACs done / (peak MACs per second x makespan)
  double energy_per_token_j = 0;  // (dynamic + leakage x makespan) / output tokens
  double mean_in_system = 0;      // from the event log (Little's law: = requests/s x mean e2e)
  double mean_waiting = 0;        // (= requests/s x mean queue_s without preemptions)
};

// peak_macs_per_s: the whole design's (every core); 0 leaves mac_utilization at 0.
Metrics measure(const RunResult& run, const Slo& slo, double leakage_w,
                double peak_macs_per_s = 0);

}  // namespace tessel::serve::llm
