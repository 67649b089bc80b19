#include "serve/timeline/validate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "util/budget.h"
#include "util/error.h"

namespace tessel::serve::systemc {

namespace {

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

class Checker {
 public:
  explicit Checker(const Scenario& s) : label_(s.label) {}

  void inRange(const char* field, int64_t value, int64_t min, int64_t max) const {
    if (value < min || value > max) {
      fail(field, "must be from " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
                      std::to_string(value));
    }
  }

  // Finite and >= 0 (or > 0 when `positive`).
  void seconds(const std::string& field, double value, bool positive) const {
    if (!std::isfinite(value) || value < 0 || (positive && value == 0)) {
      fail(field,
           std::string(positive ? "must be positive and finite" : "must be finite and >= 0") +
               ", got " + number(value));
    }
  }

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw ConfigError({}, "serve scenario '" + label_ + "': " + field + " " + what);
  }

 private:
  const std::string& label_;
};

}  // namespace

void validate(const Scenario& s) {
  const Checker c(s);
  c.inRange("workers", s.workers, 1, kMaxThreads);
  c.inRange("batch", s.batch, 1, kMaxRequests);
  c.inRange("cores", s.cores, 1, kMaxThreads);
  c.inRange("submit_capacity", s.submit_capacity, 1, INT32_MAX);
  c.inRange("receive_capacity", s.receive_capacity, 1, INT32_MAX);
  c.inRange("host_cpus", s.host_cpus, 0, INT32_MAX);
  c.inRange("requests", s.requests, 1, kMaxRequests);
  // Each request's latency is kept for the percentiles.
  budget::checkCount(s.requests, sizeof(double), "requests", {"", 0, 0, "--requests"});
  budget::checkWork(static_cast<double>(s.requests), kSecondsPerSimulatedRequest, "requests",
                    {"", 0, 0, "--requests"});
  if (!(s.jitter >= 0 && s.jitter <= 10)) {
    c.fail("jitter", "must be from 0 to 10, got " + number(s.jitter));
  }
  if (s.arrivals != Arrivals::ClosedLoop) c.seconds("rate", s.rate, true);
  c.seconds("times.pre", s.times.pre, false);
  c.seconds("times.post", s.times.post, false);
  c.seconds("times.job_host", s.times.job_host, false);
  if (s.times.job.empty()) c.fail("times.job", "needs at least one entry");
  for (size_t i = 0; i < s.times.job.size(); ++i) {
    c.seconds("times.job[" + std::to_string(i) + "]", s.times.job[i], true);
  }
  // SystemC counts picoseconds in 64 bits (about 213 days): even one job after another, with
  // the arrivals spread out first, the timeline must fit with room for jitter.
  const double jobs = std::ceil(double(s.requests) / s.batch);
  const double cycle =
      s.times.pre + *std::max_element(s.times.job.begin(), s.times.job.end()) + s.times.post;
  const double arrivals = s.arrivals == Arrivals::ClosedLoop ? 0 : double(s.requests) / s.rate;
  if (arrivals + jobs * cycle > kMaxSpanSeconds) {
    c.fail("times", "too long: the requests one after another would take " +
                        number(arrivals + jobs * cycle) + " s, more than " +
                        number(kMaxSpanSeconds) + " s");
  }
}

}  // namespace tessel::serve::systemc
