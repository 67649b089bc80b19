// `tessel serve` on a decoder LLM: a request stream served with continuous batching and a paged
// KV cache, every iteration timed by the engines (serve/llm/step_cost.h), over a grid of arrival
// rate x max batch x chunk size; then what to deploy.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "serve/llm/metrics.h"
#include "serve/llm/requests.h"
#include "serve/llm/scheduler.h"
#include "serve/llm/step_cost.h"
#include "sim/run.h"

namespace tessel::serve::llm {

// How a multi-core design serves: every core on every iteration (one fused device), or prefill
// on some cores and decode on the others, the KV cache handed over through the shared DRAM.
enum class CoreMode : uint8_t { Fused, Disaggregated };
std::string nameOf(CoreMode m);

struct LlmServeOptions {
  StreamSpec stream;               // arrivals, lengths, requests, seed (stream.rate is per point)
  std::vector<double> rates;       // requests/s; ignored for a trace (one point per other key)
  std::vector<int64_t> max_batches = {256};
  std::vector<int64_t> chunks;     // empty = max_tokens
  int64_t max_tokens = 2048;
  int64_t kv_block = 16;
  double kv_budget_bytes = 0;      // 0 = the DRAM left after weights and activations
  Priority priority = Priority::DecodeFirst;
  Preemption preemption = Preemption::Recompute;
  Slo slo;
  bool exact = false;              // simulate every shape (no interpolation)
  std::vector<CoreMode> modes = {CoreMode::Fused};
  int prefill_cores = 0;           // disaggregated: cores that prefill (0 = half, rounded down)
  bool prefix_caching = true;      // requests of a trace's prefix_id reuse its cached blocks
  double step_overhead_s = 0;      // host time of every iteration
  double sequence_overhead_s = 0;  // and of each sequence in it
};

struct LlmInputs {
  std::string workload;
  models::DecoderFacts facts;
  std::function<models::Graph(const models::WorkloadOptions&)> build;
  models::WorkloadOptions base;
  const arch::Accelerator* acc = nullptr;  // as loaded; several cores run fused
  const dataflows::Dataflow* dataflow = nullptr;
  sim::RunOptions run;
  // On a system: each replica `chips` chips (build makes one chip's share), its collectives
  // timed by `collective`; `replicas` of them share the arrivals evenly (one is simulated at
  // rate / replicas; the service's throughput is replicas times its own).
  std::function<CollectiveTime(const models::Communication&)> collective;
  int64_t chips = 1;
  int64_t replicas = 1;
  // Disaggregated on a system: replicas pair up, one prefilling and one decoding, the KV cache of
  // a request (each chip's share) sent between them in `kv_transfer(bytes)` seconds; each pair
  // serves rate / (replicas / 2).
  std::function<double(double bytes)> kv_transfer;
};

struct LlmPoint {
  CoreMode mode = CoreMode::Fused;
  double rate = 0;  // 0 for a trace
  int64_t max_batch = 0, chunk = 0;
  bool ok = true;
  std::string reason;  // why not, when !ok
  Metrics metrics;
  RunResult run;
};

struct LlmMemory {
  double capacity_bytes = 0, weights_bytes = 0, activation_bytes = 0;
  double kv_bytes_per_token = 0;
  double kv_budget_bytes = 0;
  int64_t kv_blocks = 0;
};

struct LlmResult {
  LlmMemory memory;
  int64_t budget = 0;      // the mapper's, for the `tessel run` that times a step alone
  std::string device;      // "1 core" or "3 cores fused"
  std::string split;       // disaggregated: "1 prefill core + 2 decode cores", else empty
  int64_t alone_prompt = 0;  // one request alone: the stream's mean prompt, tokens
  double prefill_s = 0;    // its prefill, seconds
  double decode_step_s = 0;  // and one decode step at that KV length
  double weight_read_s = 0;  // the weights one decode step reads, at the DRAM's bandwidth
  double leakage_w = 0;
  std::vector<LlmPoint> points;
  int64_t shapes_evaluated = 0;
  std::vector<std::string> recommendations;
};

// ConfigError for bad options (before anything runs); an InfeasibleError at one point is that
// point's reason, never fatal to the grid.
LlmResult serveLlm(const LlmInputs& inputs, const LlmServeOptions& options);

}  // namespace tessel::serve::llm
