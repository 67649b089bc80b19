// The plain timing models the SystemC blocks consult, tested without a simulation.
#include <gtest/gtest.h>

#include "sim/systemc/timing/issue_logic.h"
#include "sim/systemc/timing/memory_path.h"
#include "sim/systemc/timing/timeline.h"
#include "tests/sim/tiny_arch.h"

namespace tessel::sim::systemc {
namespace {

TEST(SystemcTimeline, QueuesBehindEarlierWork) {
  Timeline t;
  const auto a = t.reserve(10, 5);  // idle: starts at once
  EXPECT_DOUBLE_EQ(a.start, 10);
  EXPECT_DOUBLE_EQ(a.end, 15);
  EXPECT_DOUBLE_EQ(a.waited, 0);
  const auto b = t.reserve(12, 4);  // busy until 15
  EXPECT_DOUBLE_EQ(b.start, 15);
  EXPECT_DOUBLE_EQ(b.end, 19);
  EXPECT_DOUBLE_EQ(b.waited, 3);
  t.holdUntil(25);
  EXPECT_DOUBLE_EQ(t.reserve(20, 1).start, 25);
  EXPECT_DOUBLE_EQ(t.busy(), 10);  // 5 + 4 + 1 reserved; the hold is not work
}

TEST(SystemcMemoryPath, TransfersPipelineAndPayTheRoundTripOnce) {
  // The tiny design: DRAM at 16 B/cycle, 10 cycles of latency, 64 B requests.
  const arch::Accelerator acc = testing::tinyArch();
  MemoryPath path({{0, 16.0}}, acc, false);
  // 256 B: the bus is busy 16 cycles, the last of 4 requests returns 10 cycles later.
  const auto a = path.transfer(0, {256});
  EXPECT_DOUBLE_EQ(a.issued, 16);
  EXPECT_DOUBLE_EQ(a.end, 26);
  EXPECT_EQ(a.requests, 4);
  // Issued at 4 behind it: its requests leave from 16 to 32, the last is back at 42. The two
  // round trips overlap: a stream pays the latency once.
  const auto b = path.transfer(4, {256});
  EXPECT_DOUBLE_EQ(b.waited, 12);
  EXPECT_DOUBLE_EQ(b.issued, 32);
  EXPECT_DOUBLE_EQ(b.end, 42);
  // A transfer touching no level costs nothing.
  const auto c = path.transfer(50, {0});
  EXPECT_DOUBLE_EQ(c.end, 50);
  EXPECT_EQ(c.requests, 0);
}

TEST(SystemcMemoryPath, RowRequestsStreamAtTheWindowsRate) {
  // The tiny design's DRAM: 16 B/cycle, a 10-cycle round trip, 16 requests in flight. Rows of
  // 8 B make 8 B requests: 16 x 8 / 10 = 12.8 B/cycle < 16, so 6,400 B take 500 cycles and the
  // last response is back at 510. Requests of 0 B (max_request, no window of their own) stream
  // at the bus: 400 cycles.
  const arch::Accelerator acc = testing::tinyArch();
  MemoryPath narrow({{0, 16.0, 10.0}}, acc, false);
  const auto a = narrow.transfer(0, {6400}, 8);
  EXPECT_DOUBLE_EQ(a.issued, 500);
  EXPECT_DOUBLE_EQ(a.end, 510);
  MemoryPath wide({{0, 16.0, 10.0}}, acc, false);
  EXPECT_DOUBLE_EQ(wide.transfer(0, {6400}).issued, 400);
  EXPECT_DOUBLE_EQ(wide.transfer(400, {6400}, 64).issued, 800);  // 16 x 64 / 10 > 16: the bus
}

TEST(SystemcMemoryPath, IdealMemoryIsFree) {
  const arch::Accelerator acc = testing::tinyArch();
  MemoryPath path({{0, 16.0}}, acc, true);
  EXPECT_DOUBLE_EQ(path.transfer(7, {4096}).end, 7);
}

// A stream of `n` commands of the given queues, each depending on the ones listed.
CommandStream streamOf(const std::vector<std::pair<Queue, std::vector<uint32_t>>>& spec) {
  CommandStream s;
  for (const auto& [q, deps] : spec) {
    Command c;
    c.queue = q;
    c.kind = q == Queue::Load ? Kind::Load : q == Queue::Store ? Kind::Store : Kind::Compute;
    s.add(c);
    for (uint32_t d : deps) s.dependOn(d);
  }
  return s;
}

TEST(SystemcIssueLogic, AFullQueueStopsDispatchInProgramOrder) {
  // Two stores then a load, with one store entry: the second store waits for the first to
  // finish, and the load behind it waits too (dispatch is in program order).
  const CommandStream s = streamOf({{Queue::Store, {}}, {Queue::Store, {}}, {Queue::Load, {}}});
  IssueLogic logic(&s, {8, 16, 1});
  logic.dispatch(0);
  EXPECT_EQ(logic.ready(Queue::Store), 0u);
  EXPECT_EQ(logic.ready(Queue::Load), kNone);  // not dispatched yet
  logic.issued(0, 0);
  EXPECT_EQ(logic.ready(Queue::Store), kNone);  // issued, still holding its entry
  logic.finished(0, 5);
  logic.dispatch(5);
  EXPECT_EQ(logic.ready(Queue::Store), 1u);
  EXPECT_EQ(logic.ready(Queue::Load), 2u);
  EXPECT_EQ(logic.record(1).blocked_by, static_cast<int>(Queue::Store));
  EXPECT_DOUBLE_EQ(logic.record(1).dispatched, 5);
  EXPECT_EQ(logic.record(2).blocked_by, -1);
}

TEST(SystemcIssueLogic, InOrderIssueWithinAQueueAndDependencies) {
  // load0; compute1 needs load0; load2 needs compute1 (its buffer half); load3 is free but
  // queued behind load2.
  const CommandStream s = streamOf(
      {{Queue::Load, {}}, {Queue::Execute, {0}}, {Queue::Load, {1}}, {Queue::Load, {}}});
  IssueLogic logic(&s, {8, 16, 4});
  logic.dispatch(0);
  EXPECT_EQ(logic.ready(Queue::Execute), kNone);
  EXPECT_EQ(logic.ready(Queue::Load), 0u);
  logic.issued(0, 0);
  EXPECT_EQ(logic.ready(Queue::Load), kNone);  // load2 waits on compute1; load3 is behind it
  logic.finished(0, 3);
  EXPECT_EQ(logic.ready(Queue::Execute), 1u);
  logic.issued(1, 3);
  EXPECT_EQ(logic.record(1).last_dep, 0u);
  EXPECT_DOUBLE_EQ(logic.record(1).ready, 3);
  // The compute has streamed its operands: the load waiting for that half may go, before the
  // compute's results are out.
  logic.released(1, 7);
  EXPECT_EQ(logic.ready(Queue::Load), 2u);
  logic.issued(2, 7);
  EXPECT_DOUBLE_EQ(logic.record(2).ready, 7);
  EXPECT_EQ(logic.ready(Queue::Load), 3u);
  logic.issued(3, 7);
  for (uint32_t c : {1u, 2u, 3u}) logic.finished(c, 9);
  EXPECT_TRUE(logic.done());
}

TEST(SystemcIssueLogic, AStoreWaitsForTheResultsNotTheRelease) {
  const CommandStream s = streamOf({{Queue::Execute, {}}, {Queue::Store, {0}}});
  IssueLogic logic(&s, {8, 16, 4});
  logic.dispatch(0);
  logic.issued(0, 0);
  logic.released(0, 4);
  EXPECT_EQ(logic.ready(Queue::Store), kNone);
  logic.finished(0, 9);
  EXPECT_EQ(logic.ready(Queue::Store), 1u);
}

}  // namespace
}  // namespace tessel::sim::systemc
