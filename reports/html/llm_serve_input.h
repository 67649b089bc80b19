// Internal to reports/html: what `tessel serve --json` wrote for a decoder LLM (reports/SCHEMA.md,
// "LLM serve JSON"), read into plain structs once, every field the report shows checked on the way
// in.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessel::reports::html {

// A latency's distribution over the requests, seconds.
struct LlmSpread {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

// One request's life (an element of points[].timeline); seconds from the start of the run.
struct LlmRequest {
  int64_t id = 0, prompt = 0, output = 0;
  double arrival = 0, admitted = 0, first_token = 0, finish = 0;
  int64_t preemptions = 0;
};

struct LlmKvSample {
  double t = 0;        // seconds from the start of the run
  int64_t blocks = 0;  // KV blocks in use
};

// One simulated (rate, max batch, chunk). An infeasible point has only its keys and reason.
struct LlmPoint {
  size_t index = 0;  // position in `points`
  double rate = 0;   // requests/s; 0 for a trace
  int64_t max_batch = 0, chunk = 0;
  std::string cores;  // "fused" | "disaggregated"
  bool ok = true;
  std::string reason;  // why not, when !ok
  int64_t completed = 0;
  double makespan = 0;
  LlmSpread ttft, tpot, e2e;
  double output_tokens_per_s = 0, requests_per_s = 0, goodput = 0, slo_attained = 0;
  double queue_s = 0, prefill_s = 0, decode_s = 0;  // means per request
  double utilization = 0, mac_utilization = 0, energy_per_token_j = 0, mean_in_system = 0,
         mean_waiting = 0;
  double mean_batch = 0, mean_tokens = 0, swap_s = 0;
  int64_t iterations = 0, preemptions = 0, kv_peak_blocks = 0;
  std::vector<LlmKvSample> kv;
  std::vector<LlmRequest> timeline;  // the first 64 requests
  // "rate 0.05/s, batch 256, chunk 2048" ("trace, batch 256, chunk 2048" for a trace).
  std::string label() const;
};

struct LlmServeData {
  std::string tool_version, workload, arch_name, arch_hash, device;
  int64_t arch_cores = 1;
  std::vector<std::pair<std::string, std::string>> options;  // as given, in order
  double dram_bytes = 0, weights_bytes = 0, activation_bytes = 0, kv_budget_bytes = 0;
  double kv_bytes_per_token = 0;
  int64_t kv_blocks = 0;
  double prefill_s = 0, decode_step_s = 0, weight_read_s = 0;  // one request alone
  int64_t shapes_evaluated = 0;
  std::vector<LlmPoint> points;
  std::vector<std::string> recommendations;

  // `blocks` as a share of the blocks the KV cache holds (0 for a cache of none).
  double kvShare(double blocks) const;
};

// A rate for readers, 4 significant digits ("0.05", "12.5"); "trace" for 0.
std::string rateText(double rate);

// ConfigError naming `source` and the field (e.g. 'points[1].ttft_s.p99') when the text is not an
// llm_serve JSON with every field the report reads, of the right type.
LlmServeData readLlmServe(const std::string& json_text, const std::string& source);

}  // namespace tessel::reports::html
