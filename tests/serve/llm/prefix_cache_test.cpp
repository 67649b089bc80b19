// Automatic prefix caching: the block pool's rules alone (prefix_cache.h), the scheduler's reuse
// of cached prefix blocks against closed forms with the linear step cost (linear_cost.h), and
// the trace's prefix_id and prefix_tokens columns.
#include "serve/llm/prefix_cache.h"

#include <gtest/gtest.h>

#include "serve/llm/scheduler.h"
#include "tests/serve/llm/linear_cost.h"
#include "tests/serve/llm/trace_files.h"

namespace tessel::serve::llm {
namespace {

using testing::expectErrors;
using testing::LinearCost;
using testing::roomy;
using testing::writeTemp;

TEST(LlmPrefixCache, AllocationTakesFreeBlocksThenTheLeastRecentlyReleased) {
  PrefixCache c(6);
  c.allocate(3);  // a sequence's 3 blocks, the first two of them blocks 0, 1 of prefix 7
  EXPECT_TRUE(c.insert(7, 0));
  EXPECT_TRUE(c.insert(7, 1));
  EXPECT_FALSE(c.insert(7, 1));  // computed twice: the second copy stays its sequence's own
  EXPECT_EQ(c.inUse(), 3);
  // It finishes: the prefix's tail first, then its head, into the LRU queue; the third is free.
  c.release(7, 1);
  c.release(7, 0);
  c.free(1);
  EXPECT_EQ(c.inUse(), 0);
  EXPECT_EQ(c.available(), 6);
  EXPECT_EQ(c.lookup(7, 5).blocks, 2);
  EXPECT_EQ(c.lookup(7, 5).evictable, 2);
  EXPECT_EQ(c.lookup(7, 1).blocks, 1);  // at most the limit
  // 4 free blocks go first; the fifth evicts the least recently released: block 1, the tail.
  c.allocate(4);
  EXPECT_EQ(c.lookup(7, 5).blocks, 2);
  c.allocate(1);
  EXPECT_EQ(c.lookup(7, 5).blocks, 1);
  // A hit takes block 0 out of the queue: nothing is left to evict.
  c.acquire(7, 1);
  EXPECT_EQ(c.lookup(7, 5).evictable, 0);
  EXPECT_EQ(c.available(), 0);
  EXPECT_EQ(c.inUse(), 6);
}

Request request(int64_t id, double arrival, int64_t prompt, int64_t output, int64_t prefix = 0,
                int64_t prefix_tokens = 0) {
  Request r{id, arrival, prompt, output};
  r.prefix_id = prefix;
  r.prefix_tokens = prefix_tokens;
  return r;
}

TEST(LlmPrefixCache, ALaterRequestPrefillsOnlyWhatFollowsTheSharedPrefix) {
  LinearCost cost;
  // Two 600-token prompts sharing 512 tokens (32 blocks of 16); the second arrives at 1 s, long
  // after the first finished (two iterations of a few ms).
  const RunResult run =
      simulate({request(0, 0, 600, 2, 1, 512), request(1, 1.0, 600, 2, 1, 512)}, roomy(), cost);
  ASSERT_EQ(cost.batches.size(), 4u);
  EXPECT_EQ(cost.batches[0][0].past, 0);
  EXPECT_EQ(cost.batches[0][0].fresh, 600);
  // The second: 512 tokens reused, 600 - 512 = 88 computed after them.
  ASSERT_EQ(cost.batches[2].size(), 1u);
  EXPECT_EQ(cost.batches[2][0].past, 512);
  EXPECT_EQ(cost.batches[2][0].fresh, 88);
  // TTFT: 1 ms + 88 x 10 us + (512 + 88) keys x 0.1 us = 1.94 ms.
  EXPECT_NEAR(run.requests[1].first_token - 1.0, 1.94e-3, 1e-12);
  EXPECT_EQ(run.requests[0].reused, 0);
  EXPECT_EQ(run.requests[1].reused, 512);
  EXPECT_EQ(run.prefix_requests, 2);
  EXPECT_EQ(run.prefix_reused_tokens, 512);
  EXPECT_DOUBLE_EQ(run.prefix_reused_fraction, 512.0 / 1200.0);
}

TEST(LlmPrefixCache, APrefixOfTheWholePromptLeavesItsLastBlockToCompute) {
  LinearCost cost;
  // 512 tokens = 32 whole blocks, all of them the prefix; at least the last token is computed,
  // so the second request reuses floor(511 / 16) = 31 blocks = 496 tokens and computes 16.
  const RunResult run =
      simulate({request(0, 0, 512, 1, 1, 512), request(1, 1.0, 512, 1, 1, 512)}, roomy(), cost);
  ASSERT_EQ(cost.batches.size(), 2u);
  EXPECT_EQ(cost.batches[1][0].past, 496);
  EXPECT_EQ(cost.batches[1][0].fresh, 16);
  EXPECT_EQ(run.requests[1].reused, 496);
  // 520 tokens: 32 whole blocks of prefix fit in 519, all 512 reused, 8 computed.
  LinearCost longer;
  simulate({request(0, 0, 520, 1, 1, 520), request(1, 1.0, 520, 1, 1, 520)}, roomy(), longer);
  EXPECT_EQ(longer.batches[1][0].past, 512);
  EXPECT_EQ(longer.batches[1][0].fresh, 8);
}

TEST(LlmPrefixCache, ARequestAdmittedInTheSameIterationReusesBlocksScheduledBeforeIt) {
  LinearCost cost;
  // As in vLLM V1, the first request's prefix blocks are cached once its chunk is scheduled:
  // the second, arriving together, computes 88 tokens after 512 in the same iteration.
  simulate({request(0, 0, 600, 1, 1, 512), request(1, 0, 600, 1, 1, 512)}, roomy(), cost);
  ASSERT_EQ(cost.batches.size(), 1u);
  ASSERT_EQ(cost.batches[0].size(), 2u);
  EXPECT_EQ(cost.batches[0][1].past, 512);
  EXPECT_EQ(cost.batches[0][1].fresh, 88);
}

TEST(LlmPrefixCache, EvictionTakesTheLeastRecentPrefixsTailFirst) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.kv_blocks = 8;
  // A: 80 tokens = 5 blocks, the first 4 (64 tokens) its prefix. When it finishes they are
  // released tail first: the LRU queue holds blocks 3, 2, 1, 0 of prefix 1; its fifth is free.
  // B (no prefix, 96 tokens = 6 blocks) takes the 4 free blocks and evicts 2: blocks 3 and 2.
  // C (A's prefix) then finds blocks 0 and 1: 32 tokens reused, 48 computed.
  const RunResult run =
      simulate({request(0, 0, 80, 1, 1, 64), request(1, 1.0, 96, 1), request(2, 2.0, 80, 1, 1, 64)},
               c, cost);
  ASSERT_EQ(cost.batches.size(), 3u);
  EXPECT_EQ(cost.batches[1][0].fresh, 96);
  EXPECT_EQ(cost.batches[2][0].past, 32);
  EXPECT_EQ(cost.batches[2][0].fresh, 48);
  EXPECT_EQ(run.requests[2].reused, 32);
  EXPECT_EQ(run.kv_peak_blocks, 6);  // B's; cached blocks no one holds are not in use
}

TEST(LlmPrefixCache, RunningRequestsOfOnePrefixHoldItsBlocksOnce) {
  LinearCost cost;
  SchedulerConfig c = roomy();
  c.kv_blocks = 6;
  // A: 72 tokens = 5 blocks (4 of prefix), 3 output tokens (74 tokens still fit in 5 blocks).
  // B arrives during A's prefill with the same prefix: 5 blocks, 4 of them A's, so it needs 1
  // new block and 6 - 5 = 1 is free. Both run in A's second iteration; 5 + 1 = 6 blocks in use.
  // (Without sharing, B would need 5 blocks and wait for A to finish.)
  const RunResult run =
      simulate({request(0, 0, 72, 3, 1, 64), request(1, 1e-9, 72, 1, 1, 64)}, c, cost);
  const double first = cost.secondsOf({{0, 72, true}});
  EXPECT_DOUBLE_EQ(run.requests[1].admitted, first);
  ASSERT_GE(cost.batches.size(), 2u);
  ASSERT_EQ(cost.batches[1].size(), 2u);
  EXPECT_EQ(cost.batches[1][0].past, 72);  // A's decode
  EXPECT_EQ(cost.batches[1][1].past, 64);  // B after the shared 64 tokens
  EXPECT_EQ(cost.batches[1][1].fresh, 8);
  EXPECT_EQ(run.kv_peak_blocks, 6);
  EXPECT_EQ(run.preemptions, 0);
}

std::vector<Request> poissonWithPrefixes(bool prefixes) {
  StreamSpec s;
  s.arrivals = parseArrivals("poisson");
  s.rate = 40;
  s.requests = 600;
  s.prompt = parseLengthDist("uniform:64:512", "--prompt-len");
  s.output = parseLengthDist("uniform:8:128", "--output-len");
  std::vector<Request> reqs = generate(s);
  for (Request& r : reqs) {
    if (!prefixes) continue;
    r.prefix_id = r.id % 3 + 1;
    r.prefix_tokens = std::min<int64_t>(r.prompt, 100 * (r.id % 3 + 1));
  }
  return reqs;
}

TEST(LlmPrefixCache, OffIsTheSameRunAsNoPrefixesAtAll) {
  SchedulerConfig c = roomy();
  c.kv_blocks = 400;  // tight enough to preempt
  LinearCost plain_cost, off_cost, on_cost;
  const RunResult plain = simulate(poissonWithPrefixes(false), c, plain_cost);
  c.prefix_caching = false;
  const RunResult off = simulate(poissonWithPrefixes(true), c, off_cost);
  ASSERT_EQ(plain.requests.size(), off.requests.size());
  for (size_t i = 0; i < plain.requests.size(); ++i) {
    EXPECT_EQ(plain.requests[i].admitted, off.requests[i].admitted);
    EXPECT_EQ(plain.requests[i].first_token, off.requests[i].first_token);
    EXPECT_EQ(plain.requests[i].finish, off.requests[i].finish);
    EXPECT_EQ(plain.requests[i].preemptions, off.requests[i].preemptions);
  }
  EXPECT_EQ(plain.busy_seconds, off.busy_seconds);
  EXPECT_EQ(plain.iterations, off.iterations);
  EXPECT_EQ(plain.kv_peak_blocks, off.kv_peak_blocks);
  EXPECT_EQ(off.prefix_reused_tokens, 0);
  EXPECT_EQ(off.prefix_requests, 600);
  // On, the same stream reuses prefixes and does less work.
  c.prefix_caching = true;
  const RunResult on = simulate(poissonWithPrefixes(true), c, on_cost);
  EXPECT_GT(on.prefix_reused_tokens, 0);
  EXPECT_LT(on.busy_seconds, off.busy_seconds);
  EXPECT_EQ(on.requests.back().output, off.requests.back().output);
}

TEST(LlmPrefixCache, UnderPreemptionEveryBlockComesBack) {
  // A cache of 60 blocks for prompts up to 512 and outputs up to 128 tokens (40 blocks at most):
  // sequences are preempted, by recompute and by swap, while holding shared blocks.
  for (Preemption p : {Preemption::Recompute, Preemption::Swap}) {
    SchedulerConfig c = roomy();
    c.kv_blocks = 60;
    c.preemption = p;
    c.kv_bytes_per_token = 1000;
    c.swap_bytes_per_s = 1e9;
    LinearCost cost;
    const RunResult run = simulate(poissonWithPrefixes(true), c, cost);
    EXPECT_GT(run.preemptions, 0) << nameOf(p);
    EXPECT_GT(run.prefix_reused_tokens, 0) << nameOf(p);
    EXPECT_LE(run.kv_peak_blocks, 60);
    for (const RequestRecord& r : run.requests) EXPECT_GE(r.finish, r.first_token);
    EXPECT_EQ(run.kv_log.back().blocks, 0) << nameOf(p);  // all released at the end
  }
}

TEST(LlmPrefixCacheTrace, CsvAndJsonlCarryThePrefixColumns) {
  const auto csv = readTrace(writeTemp("prefix.csv",
                                       "arrival,prompt_tokens,output_tokens,prefix_id,"
                                       "prefix_tokens\n"
                                       "0,600,2,system-a,512\n"
                                       "1,300,2,,\n"
                                       "2,400,2,system-b,0\n"
                                       "3,600,2,system-a,256\n"));
  ASSERT_EQ(csv.size(), 4u);
  EXPECT_EQ(csv[0].prefix_id, 1);
  EXPECT_EQ(csv[0].prefix_tokens, 512);
  EXPECT_EQ(csv[1].prefix_id, 0);  // an empty prefix_id: none
  EXPECT_EQ(csv[2].prefix_id, 2);
  EXPECT_EQ(csv[3].prefix_id, 1);  // the same id, numbered once
  EXPECT_EQ(csv[3].prefix_tokens, 256);
  const auto jsonl = readTrace(writeTemp(
      "prefix.jsonl",
      "{\"arrival\":0,\"prompt\":64,\"output\":1,\"prefix_id\":\"p\",\"prefix_tokens\":32}\n"
      "{\"arrival\":0,\"prompt\":64,\"output\":1}\n"
      "{\"arrival\":1,\"prompt\":64,\"output\":1,\"prefix_id\":7,\"prefix_tokens\":64}\n"));
  ASSERT_EQ(jsonl.size(), 3u);
  EXPECT_EQ(jsonl[0].prefix_id, 1);
  EXPECT_EQ(jsonl[0].prefix_tokens, 32);
  EXPECT_EQ(jsonl[1].prefix_id, 0);
  EXPECT_EQ(jsonl[2].prefix_id, 2);
  EXPECT_EQ(jsonl[2].prefix_tokens, 64);
}

TEST(LlmPrefixCacheTrace, BadPrefixColumnsNameTheFileLineAndColumn) {
  const std::string head = "arrival,prompt_tokens,output_tokens,prefix_id,prefix_tokens\n";
  expectErrors(
      {
          {"alone.csv", "arrival,prompt_tokens,output_tokens,prefix_id\n0,1,1,a\n",
           "alone.csv:1:37: at 'prefix_id': a prefix_id column without a prefix_tokens column"},
          {"more.csv", head + "0,100,1,a,101\n",
           "more.csv:2:11: at 'prefix_tokens': prefix_tokens 101 is more than the prompt's 100 "
           "tokens"},
          {"half.csv", head + "0,100,1,a,12.5\n",
           "half.csv:2:11: at 'prefix_tokens': prefix_tokens 12.5 is not a whole number"},
          {"word.csv", head + "0,100,1,a,many\n",
           "word.csv:2:11: at 'prefix_tokens': 'many' is not a number"},
          {"alone.jsonl", "{\"arrival\":0,\"prompt\":10,\"output\":1,\"prefix_tokens\":5}\n",
           "alone.jsonl:1:37: at 'prefix_tokens': prefix_tokens without prefix_id"},
          {"more.jsonl",
           "{\"arrival\":0,\"prompt\":10,\"output\":1,\"prefix_id\":\"a\",\"prefix_tokens\":11}\n",
           "more.jsonl:1:53: at 'prefix_tokens': prefix_tokens 11 is more than the prompt's 10 "
           "tokens"},
      },
      [](const std::string& path) { readTrace(path); });
}

}  // namespace
}  // namespace tessel::serve::llm
