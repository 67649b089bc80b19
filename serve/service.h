// `tessel serve` as a library call: service profiles from the engines for every core mode and
// batch, one timeline scenario per (core mode, batch, workers), and the recommendations read
// off the results.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "serve/recommend.h"
#include "serve/service_times.h"
#include "serve/timeline.h"

namespace tessel::serve {

struct ServeOptions {
  std::vector<int> workers = {1, 2, 4, 8};
  std::vector<int> batches = {1};
  std::vector<CoreMode> modes = {CoreMode::Single};
  Arrivals arrivals = Arrivals::ClosedLoop;
  double rate = 0;  // requests/s, open loop
  int64_t requests = 2000;
  double jitter = 0;
  uint64_t seed = 1;
  int submit_capacity = 4;
  int receive_capacity = 4;
  int host_cpus = 0;
  // Also simulate the cheaper input/output dtypes (uint8/int8 input, int8 output) that apply.
  bool variants = true;
};

// One simulated configuration.
struct Configuration {
  CoreMode mode = CoreMode::Single;
  int workers = 1;
  int batch = 1;
  std::string variant;  // "" for the options as given; "input uint8", "output int8"...
  ScenarioResult result;
};

// A (core mode, batch) the design cannot run (its DRAM cannot hold the batch, no mapping fits):
// recorded with the reason, and the other configurations go on.
struct InfeasibleProfile {
  CoreMode mode = CoreMode::Single;
  int batch = 1;
  std::string reason;
};

struct ServeResult {
  std::vector<InfeasibleProfile> infeasible;
  std::vector<ServiceProfile> profiles;          // by (mode, batch) as options list them
  std::vector<ServiceProfile> variant_profiles;  // batch 1 of the best mode, per variant
  std::vector<std::string> variant_names;
  std::vector<Configuration> configurations;
  Recommendations recommendations;
};

// What the command needs from its caller: the model at a batch size, and the engine options.
struct ServeInputs {
  std::function<models::Graph(int batch)> graph;
  const arch::Accelerator* acc = nullptr;
  const dataflows::Dataflow* dataflow = nullptr;
  sim::RunOptions run;
  DeployOptions deploy;
};

// Requests/s a deterministic closed loop reaches at most: with n = min(workers, cores) jobs at
// once, each taking job[n - 1], the workers' batch x workers / (pre + job + post) or the cores'
// batch x n / job, whichever is lower.
double throughputBound(const Scenario& s);

// Validates the options (ConfigError for an empty list, a non-positive entry, fused cores on a
// one-core design...), profiles, simulates on the registered timeline, recommends.
ServeResult serve(const ServeInputs& inputs, const ServeOptions& options);

}  // namespace tessel::serve
