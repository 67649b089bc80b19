// Disaggregated serving on a multi-core design: prefill on some cores, decode on the others.
// The prefill cores run the stream's prompts (continuous batching, chunked, as any service);
// a request's first token comes from them; its KV cache is then copied through the shared DRAM
// (read and written once at the DRAM's bandwidth) and it joins the decode cores' queue with its
// prompt cached. Each side is one fused device of its cores with their share of the DRAM's (and
// L2's) bandwidth, always (both sides are taken as busy). The KV cache is split: the prefill side
// holds the prompts in flight (the longest prompt plus one iteration's tokens), the decode side
// the rest; a request between the two holds neither (its copy is in flight).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "serve/llm/requests.h"
#include "serve/llm/scheduler.h"
#include "serve/llm/step_cost.h"

namespace tessel::serve::llm {

// One side: `cores` of the design fused, with cores / count of the DRAM's and L2's bandwidth.
arch::Accelerator sideDevice(const arch::Accelerator& acc, int cores);

struct Disaggregation {
  int prefill_cores = 1, decode_cores = 1;
  StepCost* prefill = nullptr;  // costs on each side's device
  StepCost* decode = nullptr;
  int64_t prefill_blocks = 0, decode_blocks = 0;
  double transfer_bytes_per_s = 0;  // the DRAM's, for the KV copy (read + write)
  double kv_bytes_per_token = 0;
  // On a system the sides are chip groups and the KV cache goes over the links: seconds for a
  // request's `bytes` (each chip's share, sent side by side); empty: the DRAM copy above.
  std::function<double(double bytes)> transfer;
};

// Both sides simulated, the requests' records merged (arrival and first token from the prefill
// side, the last token from the decode side). busy_seconds is core-weighted:
// (prefill busy x its cores + decode busy x its cores) / all cores.
RunResult simulateDisaggregated(const std::vector<Request>& requests,
                                const SchedulerConfig& config, const Disaggregation& d);

}  // namespace tessel::serve::llm
