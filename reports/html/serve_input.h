// Internal to reports/html: what `tessel serve --json` wrote (reports/SCHEMA.md, "Serve JSON"),
// read into plain structs once, every field the report shows checked on the way in.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tessel::reports::html {

// What one job costs for a core mode and batch (an element of service_times or
// variant_service_times). Seconds.
struct ServeProfile {
  std::string cores;  // "single" | "fused"
  int batch = 1;
  int parallel_cores = 1;
  std::string variant;      // "" for service_times
  double pre = 0;           // host work before the job
  std::vector<double> job;  // job[n-1]: the job while n cores are busy; never empty
  double post = 0;          // host work after the job
  double job_host = 0;      // the part of the job the host runs
};

struct DepthSample {
  double t = 0;          // seconds
  double submit = 0;     // jobs in the submit queue
  double in_system = 0;  // requests arrived and not yet finished
};

// One simulated configuration. Seconds, requests/s, fractions.
struct ServeConfig {
  size_t index = 0;  // position in `configurations`
  std::string cores;
  int workers = 1;
  int batch = 1;
  std::string variant;  // "" for the grid
  double completed = 0, makespan = 0, throughput = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;  // latency
  double accelerator_utilization = 0, host_utilization = 0;
  double mean_submit_depth = 0, max_submit_depth = 0;
  std::vector<DepthSample> depth;
  // "single, batch 1, 4 workers" (", input uint8" for a variant).
  std::string label() const;
};

struct ServeData {
  std::string tool_version, workload, arch_name, arch_hash;
  int arch_cores = 1;
  std::vector<std::pair<std::string, std::string>> options;  // as given, in order
  std::vector<ServeProfile> profiles;                        // service_times, then variants
  std::vector<ServeConfig> configs;
  std::vector<std::string> recommendations;  // recommendations.text
};

// ConfigError naming `source` and the field (e.g. 'configurations[1].latency_s.p99') when the
// text is not a serve JSON with every field the report reads, of the right type.
ServeData readServe(const std::string& json_text, const std::string& source);

}  // namespace tessel::reports::html
