// What one job costs, from the engines: the deployed graph (serve/deploy.h) simulated on the
// device a job runs on, its ops' time split into the host work before the accelerator job, the
// job, and the host work after it.
#pragma once

#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "models/graph.h"
#include "serve/deploy.h"
#include "serve/timeline.h"
#include "sim/run.h"

namespace tessel::serve {

enum class CoreMode : uint8_t {
  Single,  // each job on one core; the cores serve the queue side by side, sharing the DRAM
  Fused,   // all cores as one device (arch::fusedDevice), one job at a time
};
std::string nameOf(CoreMode m);
CoreMode parseCoreMode(const std::string& s);  // "single" | "fused"; ConfigError otherwise

// One op's share of a request's life, for reports.
struct StageOp {
  std::string name;
  std::string placement;  // "host", "array", ...
  Stage stage = Stage::Job;
  double seconds = 0;
};

struct ServiceProfile {
  CoreMode mode = CoreMode::Single;
  int batch = 1;
  int cores = 1;             // cores serving jobs side by side (1 when fused)
  JobTimes times;            // job[n-1]: the job while n cores run at once
  double fused_sync = 0;     // seconds of the fused device's per-op synchronisation in times.job
  std::vector<StageOp> ops;  // the deployed graph's ops as timed alone (n = 1)
  sim::RunStats run;         // the engine's run with one core busy
};

struct ProfileRequest {
  models::Graph graph;  // the model at this batch, before deployment ops
  const arch::Accelerator* acc = nullptr;
  const dataflows::Dataflow* dataflow = nullptr;
  sim::RunOptions run;  // engine, mapper... (labels are kept)
  DeployOptions deploy;
  CoreMode mode = CoreMode::Single;
  int batch = 1;
  // A profile of the same model, mode and batch whose deployment differs only around the job
  // (another input or output dtype): when this one's job alone takes the same time, its times
  // with several cores busy are taken from it instead of simulated again.
  const ServiceProfile* like = nullptr;
};

// Simulates the deployed graph once per number of busy cores (single) or once on the fused
// device, and sums its ops by stage. Throws what sim::simulate throws.
ServiceProfile profile(const ProfileRequest& request);

}  // namespace tessel::serve
