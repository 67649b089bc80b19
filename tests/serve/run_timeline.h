// Runs serve::simulate in a forked child (SystemC elaborates once per process) and brings the
// results back as text, every number at full precision.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "serve/timeline.h"
#include "tests/systemc/in_child.h"

namespace tessel::serve::testing {

// Relative tolerance for numbers that are exact but for float rounding.
constexpr double kExact = 1e-9;

// |got - want| <= rel x |want|, with both numbers in the message when not.
inline ::testing::AssertionResult near(double got, double want, double rel = kExact) {
  if (std::abs(got - want) <= rel * std::abs(want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got " << got << ", want " << want << " within " << rel * 100 << "%";
}

// One line per result, then one line per depth sample; labels must have no spaces.
inline std::string encode(const std::vector<ScenarioResult>& results) {
  std::string out;
  char line[512];
  for (const ScenarioResult& r : results) {
    std::snprintf(line, sizeof line,
                  "R %s %lld %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
                  "%.17g %d %zu\n",
                  r.label.c_str(), static_cast<long long>(r.completed), r.makespan, r.throughput,
                  r.latency_mean, r.latency_p50, r.latency_p90, r.latency_p99, r.latency_max,
                  r.accelerator_utilization, r.host_utilization, r.mean_in_system,
                  r.mean_submit_wait, r.mean_submit_depth, r.max_submit_depth, r.depth.size());
    out += line;
    for (const DepthSample& d : r.depth) {
      std::snprintf(line, sizeof line, "D %.17g %d %d\n", d.t, d.submit, d.in_system);
      out += line;
    }
  }
  return out;
}

inline std::vector<ScenarioResult> decode(const std::string& text) {
  std::istringstream in(text);
  std::vector<ScenarioResult> results;
  std::string tag;
  while (in >> tag) {
    ScenarioResult r;
    size_t depth = 0;
    in >> r.label >> r.completed >> r.makespan >> r.throughput >> r.latency_mean >> r.latency_p50 >>
        r.latency_p90 >> r.latency_p99 >> r.latency_max >> r.accelerator_utilization >>
        r.host_utilization >> r.mean_in_system >> r.mean_submit_wait >> r.mean_submit_depth >>
        r.max_submit_depth >> depth;
    r.depth.resize(depth);
    for (DepthSample& d : r.depth) in >> tag >> d.t >> d.submit >> d.in_system;
    results.push_back(r);
  }
  return results;
}

// simulate() in a child; its results encoded (or why it failed, as a test failure).
inline std::string simulateText(const std::vector<Scenario>& scenarios) {
  const tessel::testing::ChildResult child =
      tessel::testing::inChild([&] { return encode(simulate(scenarios)); });
  EXPECT_TRUE(child.ok) << child.output;
  return child.ok ? child.output : std::string();
}

inline std::vector<ScenarioResult> simulateInChild(const std::vector<Scenario>& scenarios) {
  return decode(simulateText(scenarios));
}

// The one scenario's result (all zero, and a test failure, when it did not run).
inline ScenarioResult simulateOne(const Scenario& scenario) {
  const std::vector<ScenarioResult> r = simulateInChild({scenario});
  EXPECT_EQ(r.size(), 1u);
  return r.empty() ? ScenarioResult{} : r[0];
}

// A closed-loop scenario: `workers` workers, one core, times in seconds.
inline Scenario closedLoop(const std::string& label, int workers, double pre, double job,
                           double post, int64_t requests) {
  Scenario s;
  s.label = label;
  s.workers = workers;
  s.requests = requests;
  s.times.pre = pre;
  s.times.job = {job};
  s.times.post = post;
  return s;
}

}  // namespace tessel::serve::testing
