#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn
#include "serve/timeline/deployment.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tessel::serve::systemc {

namespace {

void pause(Ticks d) { sc_core::wait(sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(d))); }

}  // namespace

Deployment::Deployment(sc_core::sc_module_name name, const Scenario& s)
    : sc_module(name),
      s_(s),
      tick_seconds_(sc_core::sc_get_time_resolution().to_seconds()),
      draws_(s.seed, s.jitter),
      stats_(s.requests),
      pool_(s.requests, s.batch, s.arrivals == Arrivals::ClosedLoop, s.workers, stats_),
      cpus_(s.host_cpus, s.workers),
      submit_(s.submit_capacity, s.workers, s.cores, stats_),
      receive_(s.receive_capacity, s.cores),
      workers_(static_cast<size_t>(s.workers)),
      cores_(static_cast<size_t>(s.cores)),
      jobs_(static_cast<size_t>(s.workers)),
      live_workers_(s.workers) {
  if (s.arrivals != Arrivals::ClosedLoop) sc_core::sc_spawn([this] { source(); }, "source");
  for (int w = 0; w < s.workers; ++w) {
    sc_core::sc_spawn([this, w] { worker(w); }, ("worker_" + std::to_string(w)).c_str());
  }
  for (int c = 0; c < s.cores; ++c) {
    sc_core::sc_spawn([this, c] { core(c); }, ("core_" + std::to_string(c)).c_str());
  }
}

Ticks Deployment::ticks(double seconds) const { return std::llround(seconds / tick_seconds_); }

Ticks Deployment::drawn(double seconds, uint64_t job, Draw kind) const {
  return ticks(seconds * draws_.factor(job, kind));
}

void Deployment::source() {
  // Arrival i at the rounded sum of i gaps, so rounding does not add up.
  const double gap = 1 / (s_.rate * tick_seconds_);
  double at = 0;
  for (int64_t i = 0; i < s_.requests; ++i) {
    if (i > 0) {
      at += s_.arrivals == Arrivals::Uniform ? gap : gap * draws_.exponential(i);
      const Ticks d = std::llround(at) - now();
      if (d > 0) pause(d);
    }
    pool_.arrive();
  }
}

void Deployment::onHost(Actor& me, Ticks d, bool collect) {
  if (d > 0) cpus_.acquire(me);
  if (collect) receive_.remove();
  if (d == 0) return;
  stats_.hostBusy(d);
  pause(d);
  cpus_.release();
}

void Deployment::worker(int w) {
  Actor& me = workers_[w];
  Job& job = jobs_[w];
  while ((job.batch = pool_.take(me)).n > 0) {
    job.index = next_job_++;
    onHost(me, drawn(s_.times.pre, job.index, Draw::Pre), false);
    job.submitted = now();
    submit_.put(me, w);
    me.block();  // until its result is in the receive queue
    onHost(me, drawn(s_.times.post, job.index, Draw::Post), true);
    stats_.complete(now(), job.batch.first, job.batch.n);
  }
  if (--live_workers_ == 0) submit_.close();
}

void Deployment::core(int c) {
  Actor& me = cores_[c];
  for (int w; (w = submit_.take(me)) >= 0;) {
    const Job& job = jobs_[w];
    stats_.submitWait(now() - job.submitted);
    ++busy_cores_;
    // Cores share DRAM: the job's time depends on how many run, this one included.
    const size_t running = std::min<size_t>(busy_cores_, s_.times.job.size());
    const double factor = draws_.factor(job.index, Draw::Job);
    const Ticks d = std::max<Ticks>(1, ticks(s_.times.job[running - 1] * factor));
    // The ops the host runs inside the job hold the core without keeping it busy.
    const Ticks on_host = std::min(d, ticks(s_.times.job_host * factor));
    stats_.coreBusy(d - on_host);
    stats_.hostBusy(on_host);
    pause(d);
    --busy_cores_;
    receive_.put(me, workers_[w]);
  }
}

ScenarioResult Deployment::finish() {
  const int cpus = s_.host_cpus > 0 ? s_.host_cpus : s_.workers;
  ScenarioResult r = stats_.finish(cpus, s_.cores, tick_seconds_);
  r.label = s_.label;
  return r;
}

}  // namespace tessel::serve::systemc
