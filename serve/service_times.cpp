#include "serve/service_times.h"

#include "arch/cores.h"
#include "util/error.h"

namespace tessel::serve {

std::string nameOf(CoreMode m) { return m == CoreMode::Single ? "single" : "fused"; }

CoreMode parseCoreMode(const std::string& s) {
  if (s == "single") return CoreMode::Single;
  if (s == "fused") return CoreMode::Fused;
  throw ConfigError({"", 0, 0, "--cores"}, "--cores '" + s + "' is not one of single, fused");
}

namespace {

bool onAccelerator(const sim::OpStats& op) { return op.placement != sim::Placement::Host; }

// Seconds of the accelerator job: the ops from the first to the last the accelerator runs.
double jobSeconds(const sim::RunStats& run) {
  std::vector<bool> on;
  for (const sim::OpStats& op : run.ops) on.push_back(onAccelerator(op));
  const std::vector<Stage> stages = stagesOf(on);
  double cycles = 0;
  for (size_t i = 0; i < run.ops.size(); ++i) {
    if (stages[i] == Stage::Job) cycles += run.ops[i].cycles;
  }
  return cycles / run.clock_hz;
}

}  // namespace

ServiceProfile profile(const ProfileRequest& r) {
  ServiceProfile p;
  p.mode = r.mode;
  p.batch = r.batch;
  const arch::Accelerator& acc = *r.acc;
  const bool fused = r.mode == CoreMode::Fused;
  const arch::Accelerator device = fused ? arch::fusedDevice(acc) : acc;
  p.cores = fused ? 1 : acc.cores.count;
  const models::Graph deployed = withDeploymentOps(r.graph, device, r.deploy);
  p.run = sim::simulate(deployed, device, *r.dataflow, r.run);

  std::vector<bool> on;
  for (const sim::OpStats& op : p.run.ops) on.push_back(onAccelerator(op));
  const std::vector<Stage> stages = stagesOf(on);
  int synced_ops = 0;
  double job = 0;
  for (size_t i = 0; i < p.run.ops.size(); ++i) {
    const sim::OpStats& op = p.run.ops[i];
    const double seconds = op.cycles / p.run.clock_hz;
    p.ops.push_back({op.name, std::string(sim::nameOf(op.placement)), stages[i], seconds});
    switch (stages[i]) {
      case Stage::Pre:
        p.times.pre += seconds;
        break;
      case Stage::Post:
        p.times.post += seconds;
        break;
      case Stage::Job:
        job += seconds;
        if (!onAccelerator(op)) p.times.job_host += seconds;
        if (op.placement == sim::Placement::Array || op.placement == sim::Placement::Sfu)
          ++synced_ops;
        break;
    }
  }
  if (fused) p.fused_sync = synced_ops * acc.cores.fused_sync_cycles / device.clock_hz;
  p.times.job.push_back(job + p.fused_sync);
  if (r.like && r.like->times.job.front() == p.times.job.front()) {
    p.times.job = r.like->times.job;
    return p;
  }
  // Cores share the DRAM: a job that starts while n cores run sees 1/n of its bandwidth. The
  // deployed graph is the same (sharing changes bandwidths, not the layout rule).
  for (int n = 2; !fused && n <= acc.cores.count; ++n) {
    const arch::Accelerator shared = arch::coreSharing(acc, n);
    p.times.job.push_back(jobSeconds(sim::simulate(deployed, shared, *r.dataflow, r.run)));
  }
  return p;
}

}  // namespace tessel::serve
