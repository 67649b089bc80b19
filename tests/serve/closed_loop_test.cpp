// Closed-loop timelines against closed forms: deterministic times (jitter 0), so each expected
// number follows from the schedule by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/serve/run_timeline.h"

namespace tessel::serve {
namespace {

using testing::closedLoop;
using testing::kExact;
using testing::near;
using testing::simulateInChild;
using testing::simulateOne;

TEST(ServeClosedLoop, OneWorkerRunsOneCycleAfterAnother) {
  // pre 1 ms + job 2 ms + post 0.5 ms: one request every 3.5 ms, each taking 3.5 ms; one request
  // always in the system; the core busy 2 of 3.5 ms, the worker's CPU 1.5 of 3.5 ms.
  const ScenarioResult r = simulateOne(closedLoop("one", 1, 1e-3, 2e-3, 0.5e-3, 100));
  EXPECT_EQ(r.label, "one");
  EXPECT_EQ(r.completed, 100);
  EXPECT_TRUE(near(r.makespan, 100 * 3.5e-3));
  EXPECT_TRUE(near(r.throughput, 1 / 3.5e-3));
  // mean == max: every request took exactly the cycle.
  for (double l : {r.latency_mean, r.latency_p50, r.latency_p99, r.latency_max}) {
    EXPECT_TRUE(near(l, 3.5e-3));
  }
  EXPECT_TRUE(near(r.accelerator_utilization, 2 / 3.5));
  EXPECT_TRUE(near(r.host_utilization, 1.5 / 3.5));
  EXPECT_TRUE(near(r.mean_in_system, 1));
  EXPECT_EQ(r.max_submit_depth, 0);  // the idle core takes each job as it is submitted
}

TEST(ServeClosedLoop, WorkersSaturateOneCore) {
  // W workers, own CPUs, one core, pre + post = 3 x job. A worker's cycle is pre + job + post
  // = 4 ms when it never waits, so W workers offer W / 4 ms; the core serves at most 1 / job.
  // Throughput = min(W / (pre + job + post), 1 / job) = 1 / max((pre + job + post) / W, job):
  // 250, 500, 1000, 1000 requests/s for W = 1, 2, 4, 8; the core is busy min(1, W x job / 4 ms).
  // The start-up transient (everyone submitting at once) fades over 4000 requests.
  std::vector<Scenario> scenarios;
  for (int w : {1, 2, 4, 8}) {
    Scenario s = closedLoop("w" + std::to_string(w), w, 2e-3, 1e-3, 1e-3, 4000);
    s.submit_capacity = 64;
    scenarios.push_back(s);
  }
  const auto r = simulateInChild(scenarios);
  ASSERT_EQ(r.size(), 4u);
  for (size_t i = 0; i < r.size(); ++i) {
    const double w = scenarios[i].workers;
    const double expected = 1 / std::max(4e-3 / w, 1e-3);
    EXPECT_TRUE(near(r[i].throughput, expected, 0.01)) << r[i].label;
    const double busy = std::min(1.0, w * 1e-3 / 4e-3);
    EXPECT_TRUE(near(r[i].accelerator_utilization, busy, 0.01)) << r[i].label;
  }
}

TEST(ServeClosedLoop, BatchesOfFourWithAPartialLast) {
  // 10 requests in batches of 4: jobs of 4, 4 and 2, each a full cycle of 1 + 2 + 1 ms (the
  // compiled job has a fixed batch). Makespan 3 x 4 ms = 12 ms, throughput 10 / 12 ms; each
  // request waits one cycle.
  Scenario s = closedLoop("batch4", 1, 1e-3, 2e-3, 1e-3, 10);
  s.batch = 4;
  const ScenarioResult r = simulateOne(s);
  EXPECT_EQ(r.completed, 10);
  EXPECT_TRUE(near(r.makespan, 12e-3));
  EXPECT_TRUE(near(r.throughput, 10 / 12e-3));
  EXPECT_TRUE(near(r.latency_mean, 4e-3));
  EXPECT_TRUE(near(r.latency_max, 4e-3));
  EXPECT_TRUE(near(r.mean_in_system, (4 * 8e-3 + 2 * 4e-3) / 12e-3));  // 4, 4, then 2
}

TEST(ServeClosedLoop, TwoCoresAreSlowerWhenBothBusy) {
  // job = {1 ms alone, 1.5 ms with the other core busy}, pre = post = 0.
  // Two workers: at 0 core A starts job 1 alone (1 ms), core B job 2 beside it (1.5 ms). Every
  // later job starts while the other core runs: 1.5 ms. A finishes at 1, 2.5, 4, 5.5, 7 ms;
  // B at 1.5, 3, 4.5, 6, 7.5 ms: 10 requests in 7.5 ms. Latencies: one of 1 ms, nine of 1.5.
  // Cores busy 1 + 9 x 1.5 = 14.5 of 2 x 7.5 core-ms.
  // One worker: never two jobs at once, each takes 1 ms.
  Scenario two = closedLoop("two_workers", 2, 0, 1e-3, 0, 10);
  two.cores = 2;
  two.times.job = {1e-3, 1.5e-3};
  Scenario one = two;
  one.label = "one_worker";
  one.workers = 1;
  const auto r = simulateInChild({two, one});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(near(r[0].makespan, 7.5e-3));
  EXPECT_TRUE(near(r[0].throughput, 10 / 7.5e-3));
  EXPECT_TRUE(near(r[0].latency_mean, (1e-3 + 9 * 1.5e-3) / 10));
  EXPECT_TRUE(near(r[0].latency_max, 1.5e-3));
  EXPECT_TRUE(near(r[0].accelerator_utilization, 14.5 / 15));
  EXPECT_TRUE(near(r[1].throughput, 1 / 1e-3));
  EXPECT_TRUE(near(r[1].accelerator_utilization, 0.5));
}

TEST(ServeClosedLoop, SubmitCapacityOneHoldsOneJob) {
  // Eight workers with short host work keep the one-place submit queue full: never more than
  // one job waits, and the core never idles after the start: throughput -> 1 / job.
  Scenario s = closedLoop("cap1", 8, 0.1e-3, 1e-3, 0.1e-3, 2000);
  s.submit_capacity = 1;
  const ScenarioResult r = simulateOne(s);
  EXPECT_EQ(r.max_submit_depth, 1);
  EXPECT_LE(r.mean_submit_depth, 1);
  for (const DepthSample& d : r.depth) EXPECT_LE(d.submit, 1);
  EXPECT_TRUE(near(r.throughput, 1e3, 0.01));
}

TEST(ServeClosedLoop, SharedHostCpusAndFallbackOps) {
  // Four workers share one CPU for pre + post = 2 ms; the core needs 0.5 ms a job: the CPU is
  // the bottleneck, 1 / 2 ms = 500 requests/s, the CPU always busy.
  Scenario shared = closedLoop("shared_cpu", 4, 1e-3, 0.5e-3, 1e-3, 2000);
  shared.host_cpus = 1;
  // One worker with its own CPU, job 2 ms of which the host runs 1 ms: the CPU works
  // pre + job_host + post = 3 of every 4 ms, and the core computes 1 of them (the other job
  // millisecond it is held, waiting on the host).
  Scenario fallback = closedLoop("fallback", 1, 1e-3, 2e-3, 1e-3, 100);
  fallback.times.job_host = 1e-3;
  const auto r = simulateInChild({shared, fallback});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(near(r[0].throughput, 500, 0.01));
  EXPECT_TRUE(near(r[0].host_utilization, 1, 0.01));
  EXPECT_TRUE(near(r[1].host_utilization, 0.75));
  EXPECT_TRUE(near(r[1].accelerator_utilization, 0.25));
  EXPECT_TRUE(near(r[1].throughput, 250));
}

TEST(ServeClosedLoop, FullReceiveQueueHoldsCoresAndStillFinishes) {
  // Results wait in a one-place receive queue for the one shared CPU: cores are held, yet every
  // request finishes, and the run can be no faster than the CPU's pre + post per request.
  Scenario s = closedLoop("held", 6, 0.5e-3, 1e-3, 0.5e-3, 3000);
  s.cores = 3;
  s.host_cpus = 1;
  s.receive_capacity = 1;
  const ScenarioResult r = simulateOne(s);
  EXPECT_EQ(r.completed, 3000);
  EXPECT_LE(r.throughput, 1e3 * (1 + kExact));
  EXPECT_LE(r.host_utilization, 1 + kExact);
  EXPECT_LE(r.accelerator_utilization, 1 + kExact);
}

}  // namespace
}  // namespace tessel::serve
