#include "serve/timeline/statistics.h"

#include <algorithm>
#include <cstddef>

namespace tessel::serve::systemc {

namespace {

// Nearest rank: the smallest value with at least `percent`% of the values at or below it.
// Partially sorts [from, end) of `v`; ask in increasing order, each search from the last rank on.
Ticks percentile(std::vector<Ticks>& v, size_t& from, size_t percent) {
  const size_t rank = std::max<size_t>(1, (percent * v.size() + 99) / 100);
  std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(from),
                   v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
  from = rank - 1;
  return v[rank - 1];
}

}  // namespace

Statistics::Statistics(int64_t requests) : latency_(static_cast<size_t>(requests), 0) {}

void Statistics::advance(Ticks t) {
  sampler_.advance(t, submit_depth_, static_cast<int>(in_system_));
  const auto dt = static_cast<double>(t - last_change_);
  in_system_area_ += static_cast<double>(in_system_) * dt;
  submit_area_ += submit_depth_ * dt;
  last_change_ = t;
}

void Statistics::arrive(Ticks t, int64_t first, int64_t n) {
  advance(t);
  if (first_arrival_ < 0) first_arrival_ = t;
  std::fill_n(latency_.begin() + first, n, t);
  in_system_ += n;
}

void Statistics::complete(Ticks t, int64_t first, int64_t n) {
  advance(t);
  for (int64_t i = first; i < first + n; ++i) latency_[i] = t - latency_[i];
  in_system_ -= n;
  completed_ += n;
  last_completion_ = t;
}

void Statistics::submitDepth(Ticks t, int depth) {
  advance(t);
  submit_depth_ = depth;
  max_submit_depth_ = std::max(max_submit_depth_, depth);
}

void Statistics::submitWait(Ticks waited) {
  submit_wait_ += static_cast<double>(waited);
  ++jobs_;
}

ScenarioResult Statistics::finish(int cpus, int cores, double tick_seconds) {
  ScenarioResult r;
  r.completed = completed_;
  const Ticks span = last_completion_ - std::max<Ticks>(first_arrival_, 0);
  const double ticks = static_cast<double>(span);
  r.makespan = ticks * tick_seconds;
  r.throughput = static_cast<double>(completed_) / r.makespan;
  r.accelerator_utilization = static_cast<double>(core_busy_) / (cores * ticks);
  r.host_utilization = static_cast<double>(host_busy_) / (cpus * ticks);
  r.mean_in_system = in_system_area_ / ticks;
  r.mean_submit_depth = submit_area_ / ticks;
  r.max_submit_depth = max_submit_depth_;
  r.mean_submit_wait = jobs_ > 0 ? submit_wait_ / static_cast<double>(jobs_) * tick_seconds : 0;

  double sum = 0;
  Ticks longest = 0;
  for (Ticks l : latency_) {
    sum += static_cast<double>(l);
    longest = std::max(longest, l);
  }
  r.latency_mean = sum / static_cast<double>(latency_.size()) * tick_seconds;
  size_t from = 0;
  r.latency_p50 = static_cast<double>(percentile(latency_, from, 50)) * tick_seconds;
  r.latency_p90 = static_cast<double>(percentile(latency_, from, 90)) * tick_seconds;
  r.latency_p99 = static_cast<double>(percentile(latency_, from, 99)) * tick_seconds;
  r.latency_max = static_cast<double>(longest) * tick_seconds;
  r.depth =
      sampler_.finish(last_completion_, submit_depth_, static_cast<int>(in_system_), tick_seconds);
  std::vector<Ticks>().swap(latency_);  // the module outlives the run: free 8 bytes a request
  return r;
}

}  // namespace tessel::serve::systemc
