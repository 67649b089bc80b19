// The answers users come to `tessel serve` for, read off the simulated configurations: how many
// workers keep the accelerator busy, where batching stops paying, single or fused cores, and
// what cheaper input/output dtypes save.
#pragma once

#include <string>
#include <vector>

#include "serve/service_times.h"
#include "serve/timeline.h"

namespace tessel::serve {

struct Configuration;

struct WorkerAdvice {
  CoreMode mode = CoreMode::Single;
  int batch = 1;
  // The fewest simulated workers within 5% of the best throughput of this mode and batch.
  int saturating = 0;
  // ceil(cores x (pre + job + post) / job): enough workers that a job is always waiting.
  int closed_form = 0;
  double throughput = 0;  // requests/s at `saturating`
};

// Throughput and p50 latency of one batch size against the previous one (each at its best
// throughput over the worker counts).
struct BatchStep {
  CoreMode mode = CoreMode::Single;
  int from = 1, to = 1;
  double throughput_gain = 1;  // to / from
  double latency_cost = 1;     // p50 to / from
};

struct DtypeSaving {
  std::string variant;         // "input uint8", "input int8", "output int8"
  double host_seconds = 0;     // host time saved per request (pre + post), seconds
  double throughput_gain = 1;  // simulated, at the configuration with the best throughput
};

struct Recommendations {
  std::vector<WorkerAdvice> workers;
  std::vector<BatchStep> batch_steps;
  std::vector<int> batch_knee;  // per mode in `modes` order: the knee batch, 0 if one batch
  std::vector<CoreMode> modes;
  std::vector<DtypeSaving> dtypes;
  std::vector<std::string> lines;  // every recommendation in words, in order
};

// `configs` holds the simulated grid (variant == "") and the variant runs; `profiles` the
// profiles of the grid by (mode, batch); `variants` the batch-1 profiles of the variants.
Recommendations recommend(const std::vector<Configuration>& configs,
                          const std::vector<ServiceProfile>& profiles,
                          const std::vector<ServiceProfile>& variants,
                          const std::vector<std::string>& variant_names);

}  // namespace tessel::serve
