// The timeline's plain C++ parts, without a simulation: statistics, depth samples, draws.
#include "serve/timeline/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "serve/timeline/depth_sampler.h"
#include "serve/timeline/draws.h"
#include "tests/serve/run_timeline.h"

namespace tessel::serve::systemc {
namespace {

TEST(ServeStatistics, PercentilesAreNearestRankAndAveragesIntegrateEvents) {
  // Four requests arrive at 0 and finish at 10, 20, 30, 40 ticks (1 tick = 1 s here).
  // Nearest rank: p50 = 2nd of 4 = 20, p90 = ceil(3.6) = 4th = 40, p99 = 40. In the system:
  // 4, 3, 2, 1 for 10 ticks each = 100 request-ticks over 40: 2.5 = throughput 0.1 x mean 25.
  // The submit queue holds 2 jobs over [5, 15): 20 / 40 = 0.5.
  Statistics st(4);
  st.arrive(0, 0, 4);
  st.submitDepth(5, 2);
  for (int i = 0; i < 4; ++i) {
    if (i == 1) st.submitDepth(15, 0);
    st.complete(10 * (i + 1), i, 1);
  }
  st.coreBusy(30);
  st.hostBusy(8);
  st.submitWait(6);
  st.submitWait(2);
  const ScenarioResult r = st.finish(2, 3, 1.0);
  ScenarioResult want;
  want.completed = 4;
  want.makespan = 40;
  want.throughput = 0.1;
  want.latency_mean = 25;
  want.latency_p50 = 20;
  want.latency_p90 = want.latency_p99 = want.latency_max = 40;
  want.accelerator_utilization = 30.0 / (3 * 40);  // 3 cores
  want.host_utilization = 8.0 / (2 * 40);          // 2 CPUs
  want.mean_in_system = 2.5;
  want.mean_submit_wait = 4;  // (6 + 2) / 2 jobs
  want.mean_submit_depth = 0.5;
  want.max_submit_depth = 2;
  want.depth = r.depth;
  EXPECT_EQ(testing::encode({r}), testing::encode({want}));  // every field, to the last bit
}

TEST(ServeDepthSampler, CoarsensToAnEvenGridOfValuesAtTheirInstants) {
  // Submit depth 0, then 2 from tick 5 on, then 1 from tick 700 on, to the end at 1000.
  // 1001 instants do not fit in 256: the step doubles to 4 (251 samples, 0 to 1000).
  DepthSampler d;
  d.advance(5, 0, 0);
  d.advance(700, 2, 3);
  const auto samples = d.finish(1000, 1, 1, 0.5);
  ASSERT_EQ(samples.size(), 251u);
  for (size_t k = 0; k < samples.size(); ++k) {
    const int tick = static_cast<int>(4 * k);
    EXPECT_DOUBLE_EQ(samples[k].t, tick * 0.5);
    EXPECT_EQ(samples[k].submit, tick < 5 ? 0 : tick < 700 ? 2 : 1) << tick;
  }
}

TEST(ServeDraws, FactorsHaveMeanOneAndTheAskedSpread) {
  // 200,000 lognormal factors with CV 0.5: sample mean within 0.5% of 1 (standard error
  // 0.5 / sqrt(2e5) = 0.11%), sample CV within 2% of 0.5. The same (job, kind) draws the
  // same factor; another kind another one.
  const Draws draws(42, 0.5);
  double sum = 0, squares = 0;
  const int n = 200'000;
  for (int i = 0; i < n; ++i) {
    const double f = draws.factor(i, Draw::Job);
    sum += f;
    squares += f * f;
  }
  const double mean = sum / n;
  const double cv = std::sqrt(squares / n - mean * mean) / mean;
  EXPECT_NEAR(mean, 1, 0.005);
  EXPECT_NEAR(cv, 0.5, 0.01);
  EXPECT_EQ(draws.factor(7, Draw::Pre), Draws(42, 0.5).factor(7, Draw::Pre));
  EXPECT_NE(draws.factor(7, Draw::Pre), draws.factor(7, Draw::Post));
  EXPECT_EQ(Draws(42, 0).factor(7, Draw::Pre), 1);
}

TEST(ServeDraws, ExponentialGapsHaveMeanOne) {
  const Draws draws(3, 0);
  double sum = 0;
  const int n = 200'000;
  for (int i = 0; i < n; ++i) sum += draws.exponential(i);
  EXPECT_NEAR(sum / n, 1, 0.01);  // standard error 1 / sqrt(2e5) = 0.22%
}

}  // namespace
}  // namespace tessel::serve::systemc
