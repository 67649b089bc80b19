// The loop-nest cost model against brute force on random small trees of levels (fixed seeds): a
// fan-out of 2-4 copies below the local buffer, a cluster buffer per copy between it and the
// array (with a fan-out of its own), registers below the PE register file; each fan-out
// multicasting and reducing or not, spatial factors at every fan-out (partial ones too), tensors
// kept or bypassed anywhere. evaluate()'s reads, fills, updates and writes per level and tensor
// and every network's bytes against the enumeration of nest_count_enumeration.h, which sees the
// tree copy by copy. A failing case prints its hardware, problem and loop nest.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/dataflows/nest_count_enumeration.h"
#include "tests/dataflows/nest_enumeration.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using namespace testing;
using namespace testing::brute;

constexpr int kCases = 200;
constexpr int kPrinted = 3;               // failing cases printed in full; the rest are counted
constexpr int64_t kMaxIterations = 3000;  // every loop's factor multiplied: the nest's MAC slots

void randomFanout(Rng& r, Level& l) {
  l.fanout = int(pick(r, 2, 4));
  l.fanout_multicast = chance(r, 60);
  l.fanout_reduction = chance(r, 60);
  l.fanout_pj = 3;
}

// DRAM, maybe an L2, the local buffer (maybe with a fan-out), maybe a cluster buffer per copy
// (maybe with a fan-out of its own) above the array, the PEs, maybe registers in each PE: at
// least one of the three.
Hardware randomTree(Rng& r) {
  for (;;) {
    Hardware hw = tinyNest(int(pick(r, 1, 3)), int(pick(r, 1, 3)), false, -1, 64);
    for (Level& l : hw.levels) l.pool_bytes = {-1, -1, -1}, l.can_hold = {true, true, true};
    if (chance(r, 25)) {
      Level l2 = hw.levels[0];
      l2.name = "l2";
      hw.levels.insert(hw.levels.begin() + 1, l2);
      hw.l2 = 1;
    }
    const int local = int(hw.levels.size()) - 2;
    const Level plain = hw.levels[size_t(local)];
    if (chance(r, 65)) randomFanout(r, hw.levels[size_t(local)]);
    const bool cluster = chance(r, 50);
    if (cluster) {
      Level cl = plain;
      cl.name = "cluster";
      if (chance(r, 40)) randomFanout(r, cl);
      hw.levels.insert(hw.levels.begin() + local + 1, cl);
    }
    const bool registers = chance(r, 45);
    if (registers) {
      Level reg = hw.levels.back();
      reg.name = "registers";
      hw.levels.push_back(reg);
    }
    if (hw.levels[size_t(local)].fanout == 1 && !cluster && !registers) continue;
    hw.local_level = local;
    hw.array_level = local + cluster;
    hw.multicast = chance(r, 70);
    hw.reduction = chance(r, 70);
    hw.accum_dtype = DType::Int32;
    int64_t copies = 1;
    for (size_t l = 0; l < hw.levels.size(); ++l) {
      hw.levels[l].instances = copies;
      copies *= hw.levels[l].fanout;
      if (int(l) == hw.array()) hw.arrays = copies, copies *= hw.arrayPes();
    }
    return hw;
  }
}

Case randomTreeCase(Rng& r) {
  for (;;) {
    Case c;
    c.p = randomProblem(r, false);
    c.hw = randomTree(r);
    c.m = randomMapping(c.p, c.hw, r);
    c.loops = nestLoops(c.m, c.hw);
    if (c.hw.l2 >= 0 && chance(r, 30)) c.o.home[2] = c.hw.l2;
    int64_t iterations = 1;
    for (const Lp& l : c.loops) iterations *= l.f;
    if (iterations <= kMaxIterations) return c;
  }
}

// Every hop of every tensor's chain.
std::vector<Hop> hops(const Case& c) {
  std::vector<Hop> v;
  for (Operand t : kTensorList) {
    int par = c.o.home[size_t(t)];
    for (int l = par + 1; l <= c.levels(); ++l) {
      if (l < c.levels() && !c.m.levels[size_t(l)].keeps[size_t(t)]) continue;
      v.push_back(hopOf(c, t, par, l));
      par = l;
    }
  }
  return v;
}

// What the random trees covered: each shape the enumeration must meet.
struct TreeCoverage {
  int local_fanout = 0, cluster_keeps = 0, cluster_bypass = 0, cluster_fanout = 0;
  int registers_keep = 0, registers_bypass = 0, partial_fanout = 0, two_networks = 0;
  int copied_parent = 0, multicast = 0, one_per_copy = 0, reduction = 0, refills_under_copies = 0;
  void add(const Case& c, const Enumeration& x) {
    const Hardware& hw = c.hw;
    for (size_t l = 0; l < hw.levels.size(); ++l) {
      const auto& lv = c.m.levels[l];
      const int li = int(l);
      bool used = false, part = false;
      for (Dim d : kAllDims) {
        used |= lv.spatial[ix(d)] > 1;
        // The fan-out's copies do not split the extent evenly: its tile does not divide it.
        const int64_t below = c.m.tile(li, d, hw.array()) / lv.factor[ix(d)];
        part |= lv.spatial[ix(d)] > 1 && c.p.of(d) % below != 0;
      }
      const bool any = lv.keeps[0] || lv.keeps[1] || lv.keeps[2];
      const bool all = lv.keeps[0] && lv.keeps[1] && lv.keeps[2];
      local_fanout += li == hw.local() && used;
      cluster_fanout += li > hw.local() && li <= hw.array() && used;
      cluster_keeps += li > hw.local() && li <= hw.array() && any;
      cluster_bypass += li > hw.local() && li <= hw.array() && !all;
      registers_keep += li > c.pe() && any;
      registers_bypass += li > c.pe() && !all;
      partial_fanout += part;
      for (size_t t = 0; t < 3 && hw.levels[l].fanout > 1; ++t) {
        const double sent = x.tally.sent[size_t(levelNet(li))][t];
        const double got = x.tally.delivered[size_t(levelNet(li))][t];
        (t == 2 ? reduction : multicast) += sent < got;
        one_per_copy += used && sent == got && sent > 0;
      }
    }
    bool two = false, copied = false;
    for (const Hop& h : hops(c)) {
      std::vector<int> nets;
      for (size_t i : h.crossed) {
        if (std::find(nets.begin(), nets.end(), c.loops[i].net) == nets.end())
          nets.push_back(c.loops[i].net);
      }
      two |= nets.size() >= 2;
      copied |= h.parents > 1 && h.ch < c.levels();
    }
    two_networks += two, copied_parent += copied;
    refills_under_copies += x.refills_under_copies > 0;
  }
  void check() const {
    // Counts at the fixed seed: 55 107 79 23 83 90 42 35 37 34 174 24 16; about 60% of each.
    EXPECT_GT(local_fanout, 30);
    EXPECT_GT(cluster_keeps, 60);
    EXPECT_GT(cluster_bypass, 45);
    EXPECT_GT(cluster_fanout, 12);
    EXPECT_GT(registers_keep, 45);
    EXPECT_GT(registers_bypass, 50);
    EXPECT_GT(partial_fanout, 24);
    EXPECT_GT(two_networks, 20);
    EXPECT_GT(copied_parent, 20);
    EXPECT_GT(multicast, 20);
    EXPECT_GT(one_per_copy, 100);
    EXPECT_GT(reduction, 14);
    EXPECT_GT(refills_under_copies, 9);
  }
};

TEST(NestTreeBruteForce, CountsMatchEnumeration) {
  Rng r(20250611);
  TreeCoverage cov;
  int failing = 0;
  int64_t checks = 0;
  for (int n = 0; n < kCases; ++n) {
    const Case c = randomTreeCase(r);
    EXPECT_EQ(checkShape(c.m, c.p, c.hw), "") << c.text();
    const Enumeration x = enumerate(c);
    ASSERT_EQ(x.error, "") << c.text();
    const std::vector<Check> v = costChecks(c, x.tally);
    checks += int64_t(v.size());
    expectAgree(v, c, "case " + std::to_string(n), failing, kPrinted);
    cov.add(c, x);
  }
  EXPECT_EQ(failing, 0) << "of " << kCases << " cases disagree (the first " << kPrinted
                        << " printed above)";
  cov.check();
  RecordProperty("checks", std::to_string(checks));
}

// A hand-built tree: DRAM, a buffer with a fan-out of `fanout` below it (neither multicast nor
// reduction), a cluster buffer per copy when `cluster`, a rows x cols array (multicast and
// reduction), the PEs, registers in each PE when `registers`. No loops yet; every level keeps
// every tensor.
Case pinnedTree(const Problem& p, int fanout, bool cluster, int rows, int cols, bool registers) {
  Case c;
  c.p = p;
  c.hw = tinyNest(rows, cols, false, -1, 64);
  for (Level& l : c.hw.levels) l.pool_bytes = {-1, -1, -1}, l.can_hold = {true, true, true};
  Level cl = c.hw.levels[1];
  cl.name = "cluster";
  c.hw.levels[1].fanout = fanout;
  if (cluster) c.hw.levels.insert(c.hw.levels.begin() + 2, cl);
  if (registers) {
    Level reg = c.hw.levels.back();
    reg.name = "registers";
    c.hw.levels.push_back(reg);
  }
  c.hw.local_level = 1;
  c.hw.array_level = 1 + cluster;
  c.hw.arrays = fanout;
  c.m.levels.resize(c.hw.levels.size());
  return c;
}

// Partial sums at one level, derived by hand (elements).
struct Hand {
  int level;
  double reads, fills, updates;
};

// The enumeration's output counts are the hand-derived ones, and the model agrees with the
// enumeration on every count.
void expectTreeCase(Case c, std::initializer_list<Hand> hand) {
  c.loops = nestLoops(c.m, c.hw);
  ASSERT_EQ(checkShape(c.m, c.p, c.hw), "");
  const Enumeration x = enumerate(c);
  ASSERT_EQ(x.error, "");
  for (const Hand& h : hand) {
    SCOPED_TRACE(c.hw.levels[size_t(h.level)].name);
    EXPECT_EQ(x.tally.reads[size_t(h.level)][2], h.reads);
    EXPECT_EQ(x.tally.fills[size_t(h.level)][2], h.fills);
    EXPECT_EQ(x.tally.updates[size_t(h.level)][2], h.updates);
  }
  int failing = 0;
  expectAgree(costChecks(c, x.tally), c, "counts", failing);
}

// Two PEs split c = 2 (rows c:2), each with registers below it that keep outputs: each PE's
// register starts the one output at zero (its PE never held a partial sum of it), takes one MAC
// (a write, no read: the copy holds nothing yet) and is drained once (a read). Registers: 2
// reads, no refill, 2 updates.
TEST(NestTreeBruteForce, RegistersUnderPesSplittingADimOutputsIgnore) {
  Problem p;
  p.extent[ix(Dim::C)] = 2;
  Case c = pinnedTree(p, 1, false, 2, 1, true);
  c.m.rows = dims({{Dim::C, 2}});
  expectTreeCase(c, {{3, 2, 0, 2}});
}

// The buffer's fan-out splits c = 2 over two clusters that keep outputs, the PEs bypass them:
// each cluster copy takes its MAC into a fresh zero (a write, no read) and is drained once (a
// read). Cluster: 2 reads, no refill, 2 updates.
TEST(NestTreeBruteForce, ClusterCopiesSplittingADimOutputsIgnore) {
  Problem p;
  p.extent[ix(Dim::C)] = 2;
  Case c = pinnedTree(p, 2, true, 1, 1, false);
  c.m.levels[1].spatial = dims({{Dim::C, 2}});
  c.m.levels[3].keeps = {true, true, false};
  expectTreeCase(c, {{2, 2, 0, 2}});
}

// The same split of c (4 = 2 clusters x a cluster loop of 2), each cluster looping c then k
// (k = 2) over its PE, which keeps outputs. In each cluster the PE holds k0, k1, k0, k1: the
// second residency of each takes a refill from its own cluster copy (2 per copy, 4 in all), and
// its MAC then reads the refilled sum. PE: 8 drains + 4 MAC reads = 12 reads, 4 refills, 8 MAC
// updates. Cluster: per copy 2 drains up + 2 refill reads; 4 updates, each on a zero (fresh, or
// right after its refill went down).
TEST(NestTreeBruteForce, RefillsUnderEachClusterCopy) {
  Problem p;
  p.extent[ix(Dim::C)] = 4;
  p.extent[ix(Dim::K)] = 2;
  Case c = pinnedTree(p, 2, true, 1, 1, false);
  c.m.levels[1].spatial = dims({{Dim::C, 2}});
  c.m.levels[2].factor = dims({{Dim::C, 2}, {Dim::K, 2}});
  c.m.levels[2].order = {Dim::C, Dim::K};
  expectTreeCase(c, {{3, 12, 4, 8}, {2, 8, 0, 8}});
}

}  // namespace
}  // namespace tessel
