// One scenario as a SystemC module: an arrival source (open loop), `workers` worker threads and
// `cores` core threads around the queues of queues.h. Several run side by side in one sc_start.
#pragma once

#include <systemc>
#include <vector>

#include "serve/timeline.h"
#include "serve/timeline/draws.h"
#include "serve/timeline/queues.h"
#include "serve/timeline/statistics.h"

namespace tessel::serve::systemc {

class Deployment : public sc_core::sc_module {
 public:
  // `s` must have passed validate() and outlive the simulation.
  Deployment(sc_core::sc_module_name name, const Scenario& s);

  // After sc_start has returned: the results (once).
  ScenarioResult finish();

 private:
  // The job a worker has in flight.
  struct Job {
    Batch batch;
    uint64_t index = 0;  // jobs count from 0 in the order workers take their batches
    Ticks submitted = 0;
  };

  void source();
  void worker(int w);
  void core(int c);
  // Host work of d ticks on a CPU; `collect`: take the job's result out of the receive queue
  // once the CPU is held.
  void onHost(Actor& me, Ticks d, bool collect);
  Ticks ticks(double seconds) const;
  Ticks drawn(double seconds, uint64_t job, Draw kind) const;

  const Scenario& s_;
  const double tick_seconds_;
  Draws draws_;
  Statistics stats_;
  RequestPool pool_;
  HostCpus cpus_;
  SubmitQueue submit_;
  ReceiveQueue receive_;
  std::vector<Actor> workers_, cores_;
  std::vector<Job> jobs_;  // by worker
  uint64_t next_job_ = 0;
  int live_workers_;
  int busy_cores_ = 0;  // running a job (not held by a full receive queue)
};

}  // namespace tessel::serve::systemc
