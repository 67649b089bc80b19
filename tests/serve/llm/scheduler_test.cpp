// The iteration-level scheduler against closed forms, with a synthetic linear step cost
// (linear_cost.h): a lone request, equal requests together, chunked prefill, KV admission,
// preemption, Little's law, and monotonicity in capacity.
#include "serve/llm/scheduler.h"

#include <gtest/gtest.h>

#include <cmath>

#include "serve/llm/metrics.h"
#include "tests/serve/llm/linear_cost.h"
#include "util/error.h"

namespace tessel::serve::llm {
namespace {

using testing::LinearCost;
using testing::roomy;

std::vector<Request> together(int n, int64_t prompt, int64_t output) {
  std::vector<Request> r;
  for (int i = 0; i < n; ++i) r.push_back({i, 0.0, prompt, output});
  return r;
}

TEST(LlmScheduler, LoneRequestTtftIsItsPrefillAndTpotItsDecodeSteps) {
  LinearCost cost;
  const RunResult run = simulate(together(1, 100, 5), roomy(), cost);
  // Prefill: 100 new tokens over an empty cache. Decode i = 1..4: one token after 100 + i - 1.
  const double prefill = cost.secondsOf({{0, 100, true}});
  double decode = 0;
  for (int i = 1; i <= 4; ++i) decode += cost.secondsOf({{100 + i - 1, 1, true}});
  const RequestRecord& r = run.requests[0];
  EXPECT_DOUBLE_EQ(r.first_token, prefill);
  EXPECT_NEAR(r.finish, prefill + decode, 1e-15);
  const Metrics m = measure(run, {}, 0);
  EXPECT_NEAR(m.tpot.mean, decode / 4, 1e-15);
  EXPECT_EQ(run.iterations, 5);
}

TEST(LlmScheduler, ChunkedPrefillSplitsThePromptAcrossIterations) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.chunk = 32;
  const RunResult run = simulate(together(1, 100, 1), c, cost);
  // 100 = 32 + 32 + 32 + 4; the last chunk emits the only output token.
  ASSERT_EQ(cost.batches.size(), 4u);
  const int64_t pasts[] = {0, 32, 64, 96}, fresh[] = {32, 32, 32, 4};
  double ttft = 0;
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(cost.batches[i].size(), 1u);
    EXPECT_EQ(cost.batches[i][0].past, pasts[i]);
    EXPECT_EQ(cost.batches[i][0].fresh, fresh[i]);
    EXPECT_EQ(cost.batches[i][0].emits, i == 3);
    ttft += cost.secondsOf(cost.batches[i]);
  }
  EXPECT_NEAR(run.requests[0].first_token, ttft, 1e-15);
  EXPECT_DOUBLE_EQ(run.requests[0].finish, run.requests[0].first_token);
}

TEST(LlmScheduler, EqualRequestsArrivingTogetherRunAsOneBatch) {
  LinearCost cost;
  const RunResult run = simulate(together(4, 50, 3), roomy(), cost);
  // One iteration of four prefills, then two of four decodes at the same KV length.
  ASSERT_EQ(cost.batches.size(), 3u);
  for (const auto& b : cost.batches) ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(cost.batches[1][0].past, 50);
  EXPECT_EQ(cost.batches[2][3].past, 51);
  for (const RequestRecord& r : run.requests) {
    EXPECT_DOUBLE_EQ(r.first_token, run.requests[0].first_token);
    EXPECT_DOUBLE_EQ(r.finish, run.requests[0].finish);
  }
  const double step = cost.secondsOf(cost.batches[1]) + cost.secondsOf(cost.batches[2]);
  EXPECT_NEAR(run.requests[0].finish - run.requests[0].first_token, step, 1e-15);
}

TEST(LlmScheduler, TokenBudgetLimitsEachIterationAndDecodesGoFirst) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.max_tokens = 120;
  // Two prompts of 100: the first iteration prefills 100 + 20 of the second; the second
  // iteration decodes the first (1 token) and prefills the remaining 80 of the second.
  simulate(together(2, 100, 2), c, cost);
  ASSERT_GE(cost.batches.size(), 2u);
  ASSERT_EQ(cost.batches[0].size(), 2u);
  EXPECT_EQ(cost.batches[0][1].fresh, 20);
  EXPECT_FALSE(cost.batches[0][1].emits);
  ASSERT_EQ(cost.batches[1].size(), 2u);
  EXPECT_EQ(cost.batches[1][0].fresh, 1);   // the decode first
  EXPECT_EQ(cost.batches[1][1].fresh, 80);  // then the rest of the prompt
  EXPECT_EQ(cost.batches[1][1].past, 20);
}

TEST(LlmScheduler, PrefillFirstRunsNoDecodeBesidePrefillWork) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.priority = Priority::PrefillFirst;
  std::vector<Request> r = together(1, 64, 4);
  r.push_back({1, 1e-9, 64, 4});  // arrives while the first prefills
  simulate(r, c, cost);
  for (const auto& b : cost.batches) {
    bool prefill = false, decode = false;
    for (const SeqStep& s : b) (s.fresh > 1 ? prefill : decode) = true;
    EXPECT_FALSE(prefill && decode);
  }
  // The second request's prefill runs alone, before the first's decodes.
  ASSERT_GE(cost.batches.size(), 2u);
  EXPECT_EQ(cost.batches[1].size(), 1u);
  EXPECT_EQ(cost.batches[1][0].fresh, 64);
}

TEST(LlmScheduler, KvBudgetOfNRequestsAdmitsNAndQueuesTheRest) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  // A 64-token prompt is 4 blocks of 16; one output token needs no block beyond the prompt's.
  c.kv_blocks = 3 * 4;
  const RunResult run = simulate(together(5, 64, 1), c, cost);
  ASSERT_EQ(cost.batches[0].size(), 3u);
  const double first = cost.secondsOf(cost.batches[0]);
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(run.requests[i].admitted, 0.0);
  for (int i = 3; i < 5; ++i) EXPECT_DOUBLE_EQ(run.requests[i].admitted, first);
  EXPECT_EQ(run.kv_peak_blocks, 12);
  EXPECT_EQ(run.preemptions, 0);
}

TEST(LlmScheduler, PreemptionByRecomputePrefillsTheSequenceAgain) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  // Two 16-token prompts (a block each) growing to 16 + 40 - 1 = 55 tokens (4 blocks) each: 6
  // blocks cannot hold both, so the later-admitted one is preempted, and recomputes its prompt
  // and the tokens it had generated.
  c.kv_blocks = 6;
  const RunResult run = simulate(together(2, 16, 40), c, cost);
  EXPECT_GE(run.preemptions, 1);
  EXPECT_GE(run.requests[1].preemptions, 1);
  EXPECT_EQ(run.requests[0].preemptions, 0);
  int64_t recomputed = 0;
  for (size_t b = 1; b < cost.batches.size(); ++b) {
    for (const SeqStep& s : cost.batches[b]) {
      if (s.fresh > 16 && s.past == 0) recomputed = s.fresh;
    }
  }
  // Request 1 had its prompt and some tokens cached when preempted: all come back as a prefill.
  EXPECT_GT(recomputed, 16);
  // Every iteration's time is in the makespan: nothing is charged twice or lost.
  double sum = 0;
  for (const auto& b : cost.batches) sum += cost.secondsOf(b);
  EXPECT_NEAR(run.busy_seconds, sum, 1e-12);
  EXPECT_EQ(run.requests[1].output, 40);
  EXPECT_GT(run.requests[1].finish, run.requests[0].finish);
}

TEST(LlmScheduler, PreemptionBySwapTimesTheCopiesOverTheHostLink) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.kv_blocks = 6;
  c.preemption = Preemption::Swap;
  c.kv_bytes_per_token = 1000;
  c.swap_bytes_per_s = 1e6;  // a block of 16 tokens: 16 ms each way
  const RunResult run = simulate(together(2, 16, 40), c, cost);
  ASSERT_GE(run.preemptions, 1);
  // No recompute: no prefill beyond the two prompts.
  for (const auto& b : cost.batches) {
    for (const SeqStep& s : b) EXPECT_LE(s.fresh, 16);
  }
  // Each swap moves whole blocks out and back: a multiple of 2 x 16 ms.
  const double per_block = 16 * 1000 / 1e6;
  EXPECT_GT(run.swap_seconds, 0);
  const double blocks = run.swap_seconds / per_block;
  EXPECT_NEAR(blocks, std::round(blocks), 1e-9);
  double sum = 0;
  for (const auto& b : cost.batches) sum += cost.secondsOf(b);
  EXPECT_NEAR(run.busy_seconds, sum + run.swap_seconds, 1e-12);
}

std::vector<Request> poisson(int64_t n, double rate, uint64_t seed) {
  StreamSpec s;
  s.arrivals = parseArrivals("poisson");
  s.rate = rate;
  s.requests = n;
  s.prompt = parseLengthDist("uniform:64:512", "--prompt-len");
  s.output = parseLengthDist("uniform:8:128", "--output-len");
  s.seed = seed;
  return generate(s);
}

TEST(LlmScheduler, LittlesLawHoldsOnTheEventLog) {
  LinearCost cost;
  const std::vector<Request> reqs = poisson(2000, 20, 3);
  const RunResult run = simulate(reqs, roomy(), cost);
  const Metrics m = measure(run, {}, 0);
  // Time averages integrate the event log; latencies come from the per-request records.
  EXPECT_NEAR(m.mean_in_system, m.requests_per_s * m.e2e.mean, 0.01 * m.mean_in_system);
  EXPECT_NEAR(m.mean_waiting, m.requests_per_s * m.queue_s, 0.01 * m.mean_waiting + 1e-12);
  EXPECT_EQ(m.completed, 2000);
}

TEST(LlmScheduler, GoodputNeverExceedsThroughputAndMoreKvNeverLowersIt) {
  const std::vector<Request> reqs = poisson(600, 40, 5);
  double last = 0;
  for (int64_t blocks : {40, 80, 160, 640, 5000}) {
    LinearCost cost;
    SchedulerConfig c = roomy();
    c.kv_blocks = blocks;
    const Metrics m = measure(simulate(reqs, c, cost), {0.05, 0.002, 0}, 0);
    EXPECT_LE(m.goodput_requests_per_s, m.requests_per_s + 1e-12);
    EXPECT_GE(m.output_tokens_per_s, last * (1 - 1e-9)) << blocks << " blocks";
    last = m.output_tokens_per_s;
  }
}

TEST(LlmScheduler, ImpossibleConfigurationsAreRefused) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.max_batch = 0;
  EXPECT_THROW(simulate(together(1, 10, 1), c, cost), ConfigError);
  c = roomy();
  c.kv_blocks = 3;  // a request of 64 + 1 tokens needs 4 blocks of 16
  EXPECT_THROW(simulate(together(1, 64, 2), c, cost), InfeasibleError);
}

}  // namespace
}  // namespace tessel::serve::llm

namespace tessel::serve::llm {
namespace {

TEST(LlmScheduler, ASlidingWindowHoldsOnlyItsLastTokens) {
  testing::LinearCost cost;
  SchedulerConfig c = roomy();
  c.window = 64;  // 4 blocks of 16, however long the sequence grows
  const RunResult run = simulate(together(1, 200, 100), c, cost);
  EXPECT_EQ(run.kv_peak_blocks, 4);
  // And a cache of 4 blocks serves it: without the window it needs ceil(299 / 16) = 19.
  c.kv_blocks = 4;
  EXPECT_NO_THROW(simulate(together(1, 200, 100), c, cost));
  c.window = 0;
  EXPECT_THROW(simulate(together(1, 200, 100), c, cost), InfeasibleError);
}

}  // namespace
}  // namespace tessel::serve::llm

#include "serve/llm/disaggregated.h"

namespace tessel::serve::llm {
namespace {

TEST(LlmDisaggregated, ALinkTransferDelaysTheDecodeSideByItsTime) {
  // One request of a 100-token prompt and 5 output tokens. Prefill side: its prefill; then the
  // KV cache (100 tokens x 1,000 B) crosses the links in 2 ms + 1 ns/B = 2.1 ms; the decode side
  // starts its 4 decode steps then (with the prompt cached).
  testing::LinearCost pre, dec;
  Disaggregation d;
  d.prefill = &pre;
  d.decode = &dec;
  d.prefill_blocks = d.decode_blocks = 1000;
  d.kv_bytes_per_token = 1000;
  d.transfer = [](double bytes) { return 2e-3 + 1e-9 * bytes; };
  const RunResult run = simulateDisaggregated(together(1, 100, 5), roomy(), d);
  const double prefill = pre.secondsOf({{0, 100, true}});
  double decode = 0;
  for (int i = 1; i <= 4; ++i) decode += dec.secondsOf({{100 + i - 1, 1, true}});
  EXPECT_DOUBLE_EQ(run.requests[0].first_token, prefill);
  EXPECT_NEAR(run.requests[0].finish, prefill + 2.1e-3 + decode, 1e-12);
}

}  // namespace
}  // namespace tessel::serve::llm

namespace tessel::serve::llm {
namespace {

TEST(LlmScheduler, HostOverheadAddsItsTimeToEveryIteration) {
  // A: prompt 100, 3 output tokens, at 0; B: prompt 50, 1 output token, arriving during A's
  // prefill. Iteration 1: A's prefill (1 sequence); 2: A's decode and B's prefill (2, B done);
  // 3: A's decode (1, A done). Each iteration takes s + q x sequences more, with s = 3 ms and
  // q = 25 us: 3.025, 3.05 and 3.025 ms; the schedule is the same.
  std::vector<Request> reqs = together(1, 100, 3);
  reqs.push_back({1, 1e-9, 50, 1});
  testing::LinearCost base_cost, host_cost;
  SchedulerConfig c = roomy();
  const RunResult base = simulate(reqs, c, base_cost);
  c.step_overhead_s = 3e-3;
  c.sequence_overhead_s = 25e-6;
  const RunResult host = simulate(reqs, c, host_cost);
  ASSERT_EQ(base_cost.batches.size(), 3u);
  ASSERT_EQ(host_cost.batches.size(), 3u);
  const double one = 3e-3 + 25e-6, two = 3e-3 + 2 * 25e-6;
  EXPECT_NEAR(host.requests[0].first_token - base.requests[0].first_token, one, 1e-15);
  EXPECT_NEAR(host.requests[1].admitted - base.requests[1].admitted, one, 1e-15);
  EXPECT_NEAR(host.requests[1].finish - base.requests[1].finish, one + two, 1e-15);
  EXPECT_NEAR(host.requests[0].finish - base.requests[0].finish, one + two + one, 1e-15);
  EXPECT_NEAR(host.busy_seconds - base.busy_seconds, one + two + one, 1e-15);
  EXPECT_EQ(host.dynamic_energy_j, base.dynamic_energy_j);  // the host's energy is not modeled
  c.step_overhead_s = -1e-3;
  testing::LinearCost cost;
  try {
    simulate(reqs, c, cost);
    ADD_FAILURE() << "a negative overhead ran";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--step-overhead"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessel::serve::llm
