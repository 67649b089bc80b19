// The deployment timeline: requests flow through host workers, the accelerator's bounded job
// queues and its cores on a discrete-event (SystemC) simulation. Plain C++ here; the modules
// live in serve/timeline/. Service times come from the engines (serve/service_times.h) or,
// in tests, straight from the caller.
//
// What the simulation does, per scenario:
// - Arrivals. Closed loop: a free worker takes the next `batch` requests at once; they arrive
//   when it takes them (the first at 0). Open loop: request i arrives at the sum of i gaps
//   (the first at 0), gaps exactly 1/rate (Uniform) or exponential with mean 1/rate (Poisson),
//   into an unbounded queue; a free worker takes `batch` requests once that many are waiting,
//   or what is left once all `requests` have arrived. Free workers are served in the order
//   they became free.
// - A worker's cycle: pre on a host CPU -> its job into the submit queue (blocking while the
//   queue is full) -> wait until its result is in the receive queue -> a host CPU again, take
//   the result out, post -> its requests are done. With host_cpus > 0 the workers share that
//   many CPUs (first come, first served); with 0 each has its own. A step of zero time needs
//   no CPU. The last batch may be partial and still takes the full batch's times.
// - Cores take jobs from the submit queue in order. A job takes job[min(n, size) - 1] where n
//   counts the cores running a job when it starts, itself included; then its result enters the
//   receive queue. While that queue is full the core holds its result (held: not busy, not
//   free) until a worker takes a result out.
// - job_host seconds of each job count as host CPU work (ops the accelerator falls back on);
//   they hold no worker CPU.
// - Jitter: with jitter > 0 every pre, job (and its job_host) and post time is multiplied by
//   its own lognormal factor of mean 1 and coefficient of variation `jitter`, drawn for that
//   job from `seed` alone (not from the scenario's position or the worker or core that runs
//   it): the same seed gives the same results, on every run and platform. jitter = 0 is
//   exactly deterministic.
// - Time is SystemC's, whole picoseconds: every duration is rounded to 1 ps (a job to at
//   least 1 ps).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::serve {

// One job: `batch` requests pre-processed together, run as one accelerator job, post-processed
// together. Seconds.
struct JobTimes {
  double pre = 0;  // host pre-processing of the batch, on the worker's CPU
  // The accelerator job when n cores are busy (itself included): job[min(n, size) - 1]. Cores
  // share DRAM, so a job that starts while others run is slower. At least one entry.
  std::vector<double> job;
  double post = 0;      // host post-processing of the batch
  double job_host = 0;  // part of `job` the host runs (ops the accelerator falls back on)
};

enum class Arrivals : uint8_t {
  ClosedLoop,  // each worker takes the next request as soon as it is free
  Poisson,     // open loop: exponential gaps at `rate`
  Uniform,     // open loop: evenly spaced at `rate`
};

// The timeline's work per simulated request, measured: 2,000,000 resnet50 requests in 1.4 s.
// Counts of requests are checked against the time budget with it (util/budget.h).
inline constexpr double kSecondsPerSimulatedRequest = 0.7e-6;

struct Scenario {
  std::string label;
  int workers = 1;           // host threads (1-100,000): take a batch, pre, submit, wait, post
  int batch = 1;             // requests per job (the last job may be partial)
  int cores = 1;             // accelerator cores serving the one submit queue in order (1-100,000)
  int submit_capacity = 4;   // jobs waiting for a core; a worker blocks when it is full
  int receive_capacity = 4;  // finished jobs not yet collected; a core holds its result when full
  int host_cpus = 0;         // CPUs the workers share; 0 = one per worker
  Arrivals arrivals = Arrivals::ClosedLoop;
  double rate = 0;          // requests/s for open-loop arrivals
  int64_t requests = 1000;  // 1 to 100,000,000
  double jitter = 0;        // coefficient of variation of every service time (0 = deterministic)
  uint64_t seed = 1;
  JobTimes times;
};

struct DepthSample {
  double t = 0;       // seconds
  int submit = 0;     // jobs in the submit queue
  int in_system = 0;  // requests arrived and not yet finished
};

// Time averages are over the makespan and integrate the counts event by event; latencies are
// per request, so mean_in_system = throughput x latency_mean (Little's law) checks one against
// the other.
struct ScenarioResult {
  std::string label;
  int64_t completed = 0;
  double makespan = 0;    // seconds, first arrival to last completion
  double throughput = 0;  // requests/s = completed / makespan
  // Seconds from a request's arrival to the end of its batch's post; percentiles nearest-rank.
  double latency_mean = 0, latency_p50 = 0, latency_p90 = 0, latency_p99 = 0, latency_max = 0;
  // core-seconds busy / (cores x makespan): a core held by a full receive queue, or waiting on
  // the job's own host ops (job_host), is not busy.
  double accelerator_utilization = 0;
  // CPU-seconds of pre, post and job_host / (CPUs x makespan); CPUs = host_cpus, or workers.
  double host_utilization = 0;
  double mean_in_system = 0;  // time average of requests arrived and not yet done
  // Seconds from a worker's attempt to submit a job (time blocked on a full queue included) to
  // a core starting it, averaged over jobs.
  double mean_submit_wait = 0;
  double mean_submit_depth = 0;  // time average of jobs in the submit queue
  int max_submit_depth = 0;
  // At most 256 samples on an even grid from 0 (the first arrival) to the makespan, each the
  // value at its instant.
  std::vector<DepthSample> depth;
};

// Simulates every scenario side by side in one SystemC elaboration; results in the scenarios'
// order. SystemC elaborates once per process: call this once per process (the CLI does; tests
// fork); a second call throws Error. Throws ConfigError, naming the scenario's label and the
// field, for a scenario that cannot run (no workers, no job time, a rate of 0 with open-loop
// arrivals...), before anything is simulated. Defined by tessel_serve_timeline.
std::vector<ScenarioResult> simulate(const std::vector<Scenario>& scenarios);

// The executables that link the SystemC timeline register it; the CLI library reaches it here
// (libsystemc owns main, so only binaries with sc_main may link it).
using TimelineFn = std::function<std::vector<ScenarioResult>(const std::vector<Scenario>&)>;
void registerTimeline(TimelineFn fn);
// The registered timeline; ConfigError when this binary has none. serve::systemc::registerTimeline
// (serve/timeline/register.h) registers simulate().
const TimelineFn& timeline();

}  // namespace tessel::serve
