// The iteration-level scheduler of an LLM service (continuous batching, as Orca and vLLM): each
// iteration is one forward pass over the running sequences' new tokens, timed by a StepCost;
// requests join and leave between iterations. Plain C++, event to event: time jumps from one
// iteration's end to the next (or to the next arrival when nothing runs).
//
// - Admission is FCFS: the oldest waiting request is admitted when the batch has room (fewer
//   than max_batch sequences, tokens left in max_tokens) and the KV cache has free blocks for its
//   whole prompt; a request that does not fit blocks those behind it (no overtaking).
// - Chunked prefill: a prompt is prefilled at most `chunk` tokens per iteration, and never more
//   than the iteration's token budget left; its last chunk emits the first output token.
// - decode-first (Sarathi-Serve, vLLM's chunked prefill): every running sequence in decode gets
//   its token first, prefill chunks fill the budget left. prefill-first (vLLM without chunked
//   prefill): an iteration with any prefill work runs only prefill work; decodes wait for one
//   without.
// - KV cache: paged, kv_block tokens a block. A decode that needs a new block when none is free
//   preempts the most recently admitted running sequence (vLLM's rule): recompute frees its
//   blocks and sends it back to the head of the queue, to prefill its prompt and the tokens it
//   had generated again; swap copies its blocks to host memory over the host link (timed, the
//   iteration waits for it) and brings them back, timed again, before new requests are admitted.
// - Prefix caching (vLLM's automatic prefix caching, prefix_cache.h): a request with a prefix id
//   reuses the longest run of its prefix's full blocks that are cached, from block 0, but never
//   its whole prompt (at least its last token is computed, as vLLM does), and prefills the rest
//   after them. Blocks of a prefix become cached as the chunk that fills them is scheduled (so a
//   request admitted later in the same iteration may reuse them, as in vLLM V1). A sliding-window
//   model, and the decode side of a disaggregated service, cache no prefix.
// - Host overhead: each iteration also takes step_overhead_s + sequence_overhead_s x its
//   sequences, after the forward pass (the host schedules, prepares inputs, samples and
//   detokenizes between passes, as a synchronous engine does). It uses no modeled energy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "serve/llm/requests.h"
#include "serve/llm/step_cost.h"

namespace tessel::serve::llm {

enum class Priority : uint8_t { DecodeFirst, PrefillFirst };
enum class Preemption : uint8_t { Recompute, Swap };
std::string nameOf(Priority p);
std::string nameOf(Preemption p);

struct SchedulerConfig {
  int64_t max_batch = 256;    // sequences per iteration
  int64_t max_tokens = 2048;  // new tokens per iteration
  int64_t chunk = 2048;       // prompt tokens of one sequence per iteration
  int64_t kv_block = 16;      // tokens per KV block
  int64_t kv_blocks = 0;      // blocks the KV cache holds
  Priority priority = Priority::DecodeFirst;
  Preemption preemption = Preemption::Recompute;
  double kv_bytes_per_token = 0;  // for swap times
  double swap_bytes_per_s = 0;    // the host link, for swap
  double leakage_w = 0;           // static power of the device, for energy per token
  // Disaggregated serving's decode cores: each request arrives with its prompt already in the
  // cache and its first token made (by the prefill cores); it is admitted on free blocks for
  // its prompt and the next token, and only decodes.
  bool arrive_prefilled = false;
  int64_t window = 0;  // sliding-window attention: a sequence keeps its last `window` tokens
  bool prefix_caching = true;      // requests with a prefix id reuse its cached blocks
  double step_overhead_s = 0;      // host time of every iteration
  double sequence_overhead_s = 0;  // and of each sequence in it
};

// One request's life. Seconds from the start of the run.
struct RequestRecord {
  int64_t id = 0, prompt = 0, output = 0;
  double arrival = 0;
  double admitted = 0;     // its first iteration starts
  double first_token = 0;  // the iteration with its prompt's last chunk ends
  double finish = 0;       // the iteration with its last token ends
  int preemptions = 0;
  int64_t reused = 0;  // prompt tokens its first admission found in the prefix cache
};

struct KvSample {
  double t = 0;
  int64_t blocks = 0;  // in use
};

struct RunResult {
  std::vector<RequestRecord> requests;  // in id order
  int64_t iterations = 0;
  double busy_seconds = 0;       // iterations' time (swap waits included)
  double dynamic_energy_j = 0;
  double macs = 0;
  int64_t preemptions = 0;
  double swap_seconds = 0;
  int64_t kv_peak_blocks = 0;
  std::vector<KvSample> kv;      // at most 256 samples on an even grid over the makespan
  std::vector<KvSample> kv_log;  // every change: blocks in use from each instant on
  double mean_in_system = 0;     // time average of requests arrived and not finished
  double mean_waiting = 0;       // time average of requests arrived and not yet admitted
  double mean_batch = 0;         // sequences per iteration
  double mean_tokens = 0;        // new tokens per iteration
  int64_t prefix_requests = 0;   // requests with a prefix id
  int64_t prefix_reused_tokens = 0;   // prompt tokens reused from the prefix cache (`reused`)
  double prefix_reused_fraction = 0;  // of all the requests' prompt tokens
};

// Blocks in use at `samples` even instants over [first, last], read from a change log.
std::vector<KvSample> sampleKv(const std::vector<KvSample>& log, double first, double last,
                               int samples = 256);

// ConfigError for a configuration that cannot run (a limit below 1, a negative overhead, a
// request's prefix longer than its prompt, a request whose prompt and output need more KV blocks
// than the cache has); then simulates every request to its end.
RunResult simulate(const std::vector<Request>& requests, const SchedulerConfig& config,
                   StepCost& cost);

}  // namespace tessel::serve::llm
