// What one scenario's timeline records as it runs, and the ScenarioResult made from it. The
// modules report events (arrivals, completions, queue depth changes, busy time); time averages
// are integrals over those events, not derived from the latencies, so Little's law
// (mean_in_system = throughput x latency_mean) checks one against the other. Plain C++.
#pragma once

#include <cstdint>
#include <vector>

#include "serve/timeline.h"
#include "serve/timeline/depth_sampler.h"

namespace tessel::serve::systemc {

class Statistics {
 public:
  explicit Statistics(int64_t requests);

  // Requests [first, first + n) arrive at t.
  void arrive(Ticks t, int64_t first, int64_t n);
  // Requests [first, first + n) finish at t.
  void complete(Ticks t, int64_t first, int64_t n);
  // The submit queue holds `depth` jobs from t on.
  void submitDepth(Ticks t, int depth);
  // A job started on a core `waited` after its worker tried to submit it.
  void submitWait(Ticks waited);
  void coreBusy(Ticks d) { core_busy_ += d; }
  void hostBusy(Ticks d) { host_busy_ += d; }

  // The results over [first arrival, last completion]; `cpus` host CPUs and `cores` cores were
  // there to be busy. Once: it sorts the latencies partly, then frees them.
  ScenarioResult finish(int cpus, int cores, double tick_seconds);

 private:
  // The integrals up to t with the current values; samples them on the way.
  void advance(Ticks t);

  std::vector<Ticks> latency_;  // per request: its arrival until it finishes, then its latency
  int64_t completed_ = 0;
  Ticks first_arrival_ = -1, last_completion_ = 0, last_change_ = 0;
  int64_t in_system_ = 0;
  int submit_depth_ = 0, max_submit_depth_ = 0;
  double in_system_area_ = 0, submit_area_ = 0;  // value x ticks
  double submit_wait_ = 0;                       // ticks, summed over jobs
  int64_t jobs_ = 0;
  Ticks core_busy_ = 0, host_busy_ = 0;
  DepthSampler sampler_;
};

}  // namespace tessel::serve::systemc
