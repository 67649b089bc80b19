// Collectives against their closed forms, derived by hand from the step model
// (systems/collective.h): a step takes its busiest link's bytes / bandwidth plus its longest
// route's latency; a collective is its call overhead plus its steps.
#include <gtest/gtest.h>

#include <cmath>

#include "systems/collective.h"
#include "util/error.h"

namespace tessel::systems {
namespace {

constexpr double kB = 50e9;      // bytes/s per link per direction
constexpr double kA = 1e-6;      // latency per crossing
constexpr double kO = 10e-6;     // call overhead

Topology flat(DimKind kind, int n) {
  Topology t;
  t.kind = std::string(nameOf(kind));
  t.dims.push_back({kind, n, {kB, kA, 10}, 0});
  return t;
}

Topology grid(DimKind kind, std::vector<int> sizes) {
  Topology t;
  t.kind = kind == DimKind::Ring ? "torus" : "mesh";
  for (int s : sizes) t.dims.push_back({kind, s, {kB, kA, 10}, 0});
  return t;
}

CollectiveCost cost(Collective op, double bytes, const Topology& t, const std::string& algorithm) {
  return costCollective({op, bytes, algorithm}, Network(t), kO);
}

TEST(CollectiveClosedForms, RingAllReduceOnARing) {
  // 2(n-1) steps, each moving S/n over every link once: T = o + 2(n-1)a + 2(n-1)/n S/B.
  for (int n : {3, 5, 8, 16}) {
    const double s = 8 << 20;
    const CollectiveCost c = cost(Collective::AllReduce, s, flat(DimKind::Ring, n), "ring");
    EXPECT_NEAR(c.seconds, kO + 2 * (n - 1) * kA + 2.0 * (n - 1) / n * s / kB, 1e-12) << n;
    EXPECT_EQ(c.steps, 2 * (n - 1));
    EXPECT_DOUBLE_EQ(c.bytes_per_link, 2.0 * (n - 1) / n * s);
    // Every rank's forward link carries the same: n links.
    EXPECT_DOUBLE_EQ(c.link_bytes, n * 2.0 * (n - 1) / n * s);
    EXPECT_DOUBLE_EQ(c.energy_pj, c.link_bytes * 10);
  }
}

TEST(CollectiveClosedForms, BidirectionalRingHalvesTheTransfer) {
  // Half the buffer each way round: the same 2(n-1) steps of S/(2n) per link per direction.
  const int n = 8;
  const double s = 1 << 20;
  const CollectiveCost c = cost(Collective::AllReduce, s, flat(DimKind::Ring, n), "bidirectional-ring");
  EXPECT_NEAR(c.seconds, kO + 2 * (n - 1) * kA + (n - 1.0) / n * s / kB, 1e-12);
}

TEST(CollectiveClosedForms, AllGatherAndReduceScatterAreHalfARingAllReduce) {
  const int n = 6;
  const double s = 3 << 20;
  for (Collective op : {Collective::AllGather, Collective::ReduceScatter}) {
    const CollectiveCost c = cost(op, s, flat(DimKind::Ring, n), "ring");
    EXPECT_NEAR(c.seconds, kO + (n - 1) * kA + (n - 1.0) / n * s / kB, 1e-12);
    EXPECT_EQ(c.steps, n - 1);
  }
}

TEST(CollectiveClosedForms, DimensionOrderedAllReduceOnATorus) {
  // 4 x 4 torus. Reduce-scatter along x: both ways round rings of 4, 3 steps of S/8 per link
  // per direction; along y on S/4: 3 steps of S/32; all-gather back the same.
  //   T = o + 12a + 2 * 3 (S/8 + S/32) / B
  const double s = 16 << 20;
  const CollectiveCost c = cost(Collective::AllReduce, s, grid(DimKind::Ring, {4, 4}), "dimension-ordered");
  EXPECT_NEAR(c.seconds, kO + 12 * kA + 6 * (s / 8 + s / 32) / kB, 1e-12);
  EXPECT_EQ(c.steps, 12);
}

TEST(CollectiveClosedForms, FlatRingOnATorusCrossesTwoLinksAtARowEnd) {
  // Ranks in order on a 4 x 4 torus: 3 -> 4 is (3,0) -> (0,1), x's wraparound link then y's:
  // every step's longest route is two crossings; no link carries two messages in a step.
  //   T = o + 2(n-1) (2a + S/(nB)),  n = 16
  const double s = 1 << 20;
  const int n = 16;
  const CollectiveCost c = cost(Collective::AllReduce, s, grid(DimKind::Ring, {4, 4}), "ring");
  EXPECT_NEAR(c.seconds, kO + 2 * (n - 1) * (2 * kA + s / n / kB), 1e-12);
}

TEST(CollectiveClosedForms, AllToAllOnASwitch) {
  // One step: each rank's port up carries S/n to each of the n-1 others, each port down
  // receives as much; a crossing's latency once: T = o + a + (n-1)/n S/B.
  for (int n : {2, 4, 8}) {
    const double s = 4 << 20;
    const CollectiveCost c = cost(Collective::AllToAll, s, flat(DimKind::Switch, n), "direct");
    EXPECT_NEAR(c.seconds, kO + kA + (n - 1.0) / n * s / kB, 1e-12) << n;
    EXPECT_DOUBLE_EQ(c.bytes_per_link, (n - 1.0) / n * s);
  }
}

TEST(CollectiveClosedForms, HalvingDoublingOnASwitch) {
  // log2 n steps of S/2, S/4 .. S/n, then the same back: T = o + 2 log2(n) a + 2 (n-1)/n S/B.
  const int n = 8;
  const double s = 1 << 20;
  const CollectiveCost c = cost(Collective::AllReduce, s, flat(DimKind::Switch, n), "halving-doubling");
  EXPECT_NEAR(c.seconds, kO + 6 * kA + 2 * (n - 1.0) / n * s / kB, 1e-12);
  EXPECT_EQ(c.steps, 6);
}

TEST(CollectiveClosedForms, SendRecvAcrossALinePaysEveryHopsLatency) {
  // Rank 0 to rank 3 of a line: three crossings, cut through: T = o + 3a + S/B.
  const double s = 1 << 20;
  const CollectiveCost c = cost(Collective::SendRecv, s, flat(DimKind::Line, 4), "");
  EXPECT_NEAR(c.seconds, kO + 3 * kA + s / kB, 1e-12);
  EXPECT_EQ(c.algorithm, "direct");
  EXPECT_DOUBLE_EQ(c.link_bytes, 3 * s);
}

TEST(CollectiveClosedForms, PipelinedChainTakesTheBestChunkCount) {
  // A broadcast down a line of n: fill n-1 steps, then one per further chunk, each a chunk's
  // transfer plus a latency: T(C) = o + (n - 1 + C - 1)(S/(C B) + a). Brute force over C.
  const int n = 6;
  for (double s : {64.0 * 1024, 1.0 * (1 << 20), 64.0 * (1 << 20)}) {
    const CollectiveCost c = cost(Collective::Broadcast, s, flat(DimKind::Line, n), "ring");
    double best = 1e30;
    for (int chunks = 1; chunks <= s / 4096; ++chunks)
      best = std::min(best, kO + (n - 2 + chunks) * (s / chunks / kB + kA));
    EXPECT_NEAR(c.seconds, best, 1e-12) << s;
    EXPECT_EQ(c.steps, n - 2 + c.chunks);
  }
}

TEST(CollectiveClosedForms, AGroupOfOneMovesNothing) {
  const CollectiveCost c = cost(Collective::AllReduce, 1 << 20, flat(DimKind::Ring, 1), "");
  EXPECT_EQ(c.algorithm, "none");
  EXPECT_EQ(c.seconds, 0);
}

TEST(CollectiveClosedForms, TheCheapestIsChosenAndAForcedOneMustApply) {
  const Network net(flat(DimKind::Ring, 6));
  const std::vector<CollectiveCost> all = costAll(Collective::AllReduce, 1 << 20, net, kO);
  ASSERT_GE(all.size(), 3u);
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[0].seconds, all[i].seconds);
  EXPECT_EQ(costCollective({Collective::AllReduce, 1 << 20, ""}, net, kO).algorithm, all[0].algorithm);
  // 6 is no power of two; a one-dimensional ring has no dimensions to order.
  for (const char* name : {"halving-doubling", "dimension-ordered", "pairwise", "bogus"}) {
    EXPECT_THROW(costCollective({Collective::AllReduce, 1 << 20, name}, net, kO), ConfigError) << name;
  }
}

}  // namespace
}  // namespace tessel::systems

namespace tessel::systems {
namespace {

TEST(CollectiveClosedForms, RotatedDimensionsUseBothDimensionsAtOnce) {
  // 4 x 4 torus, two shares of S/2: share 0 reduce-scatters along x while share 1 does along y
  // (disjoint links), then they swap. Steps 1-3 carry S/16 per link per direction (S/2 both ways
  // round rings of 4), steps 4-6 S/64; the all-gather mirrors them:
  //   T = o + 12a + 6 (S/16 + S/64) / B, half the dimension-ordered transfer.
  const double s = 16 << 20;
  const CollectiveCost c = cost(Collective::AllReduce, s, grid(DimKind::Ring, {4, 4}), "rotated-dimensions");
  EXPECT_NEAR(c.seconds, kO + 12 * kA + 6 * (s / 16 + s / 64) / kB, 1e-12);
  EXPECT_EQ(c.steps, 12);
}

}  // namespace
}  // namespace tessel::systems

namespace tessel::systems {
namespace {

TEST(CollectiveClosedForms, EveryToEveryStepsTooLargeToRouteAreRefusedNotRun) {
  // 65,536 ranks: all-to-all's every-to-every steps would route billions of messages; the
  // all-reduce still has its dimension-ordered forms.
  const Network net(grid(DimKind::Ring, {256, 256}));
  EXPECT_THROW(costCollective({Collective::AllToAll, 1 << 20, ""}, net, kO), ConfigError);
  EXPECT_EQ(costCollective({Collective::AllReduce, 1 << 20, ""}, net, kO).algorithm, "rotated-dimensions");
}

}  // namespace
}  // namespace tessel::systems
