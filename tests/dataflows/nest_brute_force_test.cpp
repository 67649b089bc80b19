// The loop-nest cost model against brute force on random small nests (fixed seeds). The brute
// force reads only the Problem, Hardware and Mapping and enumerates element by element:
//   - the tiles each cut of the nest holds over time, per holder, and what moves (Nest::volume);
//   - every tensor's transfers and the partial sums through the output's chain, value by value
//     (evaluate()'s counts): nest_count_enumeration.h, which nest_tree_brute_force_test.cpp
//     runs on trees of levels.
// It shares no helper or formula with the model. A failing case prints its problem and loop nest.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "dataflows/nest/cost.h"
#include "dataflows/nest/reuse.h"
#include "tests/dataflows/nest_count_enumeration.h"
#include "tests/dataflows/nest_enumeration.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using dataflows::nest::Nest;
using dataflows::nest::Space;
using namespace testing;
using namespace testing::brute;

constexpr int kCases = 150;
constexpr int kPrinted = 3;               // failing cases printed in full; the rest are counted
constexpr int64_t kMaxIterations = 3000;  // every loop's factor multiplied: the nest's MAC slots

// ---------------------------------------------------------------------------------------------
// Nest::volume by enumeration: the tiles below the cut moving to the copies the spatial loops
// above it make (tileMoves), every copy counted (All) or one per distinct value at a step
// (Collapse).
struct Volume {
  double all[2]{}, collapse[2]{};  // [reuse]
};

Volume bruteVolume(const Case& c, Operand t, size_t cut) {
  Hop h;  // from above every fan-out down to the cut
  h.cut = cut;
  std::vector<int> nets;
  for (size_t i = 0; i < cut; ++i) {
    if (!c.loops[i].spatial) continue;
    h.crossed.push_back(i), h.copies *= c.loops[i].f;
    nets.push_back(c.loops[i].net);
  }
  const Moves moves = tileMoves(c, t, h);
  Volume v;
  for (int reuse = 0; reuse < 2; ++reuse) {
    const std::vector<Event>& x = reuse ? moves.kept : moves.all;
    v.all[reuse] = double(x.size());
    v.collapse[reuse] = distinct(c, h, x, nets);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Random chains: DRAM, maybe an L2, one shared buffer, the PEs.

Hardware randomHardware(Rng& r) {
  const int rows = int(pick(r, 1, 4));
  const int cols = int(pick(r, 1, 4));
  Hardware hw = tinyNest(rows, cols, false, -1, 64);
  for (Level& l : hw.levels) l.pool_bytes = {-1, -1, -1}, l.can_hold = {true, true, true};
  if (chance(r, 30)) {
    Level l2 = hw.levels[0];
    l2.name = "l2";
    hw.levels.insert(hw.levels.begin() + 1, l2);
    hw.l2 = 1;
  }
  hw.multicast = chance(r, 70);
  hw.reduction = chance(r, 70);
  hw.accum_dtype = DType::Int32;
  return hw;
}

Case randomCase(Rng& r, bool one_by_one_stride2 = false) {
  for (;;) {
    Case c;
    c.p = randomProblem(r, one_by_one_stride2);
    c.hw = randomHardware(r);
    c.m = randomMapping(c.p, c.hw, r);
    c.loops = nestLoops(c.m, c.hw);
    if (c.hw.l2 >= 0 && chance(r, 30)) c.o.home[2] = c.hw.l2;
    int64_t iterations = 1;
    for (const Lp& l : c.loops) iterations *= l.f;
    if (iterations <= kMaxIterations) return c;
  }
}

// What the random cases covered: each feature the properties must meet.
struct Coverage {
  int stride[4]{}, dilation[3]{}, window[5]{}, one_by_one_stride2 = 0, narrow_window = 0;
  int padding = 0, temporal_above_spatial = 0, spatial_window = 0, diagonal = 0, partial = 0;
  void add(const Case& c) {
    const Problem& p = c.p;
    ++stride[p.stride_h], ++stride[p.stride_w], ++dilation[p.dilation_h], ++dilation[p.dilation_w];
    ++window[p.of(Dim::R)], ++window[p.of(Dim::S)];
    one_by_one_stride2 +=
        p.of(Dim::R) == 1 && p.of(Dim::S) == 1 && p.stride_h == 2 && p.stride_w == 2;
    narrow_window += (p.of(Dim::R) - 1) * p.dilation_h + 1 < p.stride_h && p.of(Dim::P) > 1;
    padding += p.input_h > 0 &&
               p.input_h < (p.of(Dim::P) - 1) * p.stride_h + (p.of(Dim::R) - 1) * p.dilation_h + 1;
    bool above = false, window_sp = false, rs = false, pq = false, part = false;
    for (size_t i = 0; i < c.loops.size(); ++i) {
      const Lp& l = c.loops[i];
      const bool w = l.d == Dim::P || l.d == Dim::Q || l.d == Dim::R || l.d == Dim::S;
      window_sp |= l.spatial && w;
      rs |= l.spatial && (l.d == Dim::R || l.d == Dim::S);
      pq |= l.spatial && (l.d == Dim::P || l.d == Dim::Q);
      for (size_t j = i + 1; j < c.loops.size(); ++j) {
        above |= !l.spatial && c.loops[j].spatial && c.loops[j].d == l.d;
      }
    }
    for (Dim d : kAllDims) part |= p.of(d) % c.m.tile(1, d, c.hw.array()) != 0;
    temporal_above_spatial += above;
    spatial_window += window_sp;
    diagonal += rs && pq;
    partial += part;
  }
  void check() const {
    for (int s = 1; s <= 3; ++s) EXPECT_GT(stride[s], 0) << "stride " << s;
    for (int d = 1; d <= 2; ++d) EXPECT_GT(dilation[d], 0) << "dilation " << d;
    for (int w = 1; w <= 4; ++w) EXPECT_GT(window[w], 0) << "window " << w;
    EXPECT_GT(one_by_one_stride2, 0);
    EXPECT_GT(narrow_window, 5);
    EXPECT_GT(padding, 20);
    EXPECT_GT(temporal_above_spatial, 20);
    EXPECT_GT(spatial_window, 40);
    EXPECT_GT(diagonal, 5);
    EXPECT_GT(partial, 40);
  }
};

// Nest::volume for every tensor at every level's cut and the MACs', with and without reuse
// (the MACs' cut: without), either space.
std::vector<Check> volumeChecks(const Case& c) {
  const Nest nest(c.p, c.m, c.hw);
  EXPECT_EQ(checkShape(c.m, c.p, c.hw), "");
  EXPECT_EQ(nest.size(), c.loops.size());
  std::vector<std::pair<size_t, bool>> cuts;  // (cut, the MACs')
  for (int l = 1; l <= c.pe(); ++l) {
    cuts.emplace_back(c.cut(l), false);
    EXPECT_EQ(nest.cut(l), c.cut(l)) << "level " << l;
  }
  cuts.emplace_back(c.loops.size(), true);
  std::vector<Check> v;
  for (Operand t : kTensorList) {
    for (auto [cut, macs] : cuts) {
      const Volume b = bruteVolume(c, t, cut);
      for (int reuse = 0; reuse < 2 - macs; ++reuse) {
        const std::string what = std::string(kTensorName[size_t(t)]) + " cut " +
                                 std::to_string(cut) + (macs ? " (MACs)" : "") +
                                 (reuse ? " reuse" : " no reuse");
        v.push_back({what + " All", nest.volume(t, cut, reuse, Space::All), b.all[reuse]});
        v.push_back(
            {what + " Collapse", nest.volume(t, cut, reuse, Space::Collapse), b.collapse[reuse]});
      }
    }
  }
  return v;
}

TEST(NestBruteForce, VolumeMatchesEnumeration) {
  Rng r(20241126);
  Coverage cov;
  int failing = 0;
  for (int n = 0; n < kCases; ++n) {
    const Case c = randomCase(r, n == 0);  // the first: a 1x1 stride-2 conv
    cov.add(c);
    expectAgree(volumeChecks(c), c, "case " + std::to_string(n), failing);
  }
  EXPECT_EQ(failing, 0) << "of " << kCases << " cases disagree (the first " << kPrinted
                        << " printed above)";
  cov.check();
}

// evaluate()'s counts (every tensor, level and network) against the transfers and the partial
// sums enumerated.
TEST(NestBruteForce, CountsMatchEnumeration) {
  Rng r(7 * 20241126);
  int failing = 0;
  int64_t refills = 0, reduced = 0, shared_innermost = 0, per_pe = 0, offchip_child = 0;
  for (int n = 0; n < kCases; ++n) {
    const Case c = randomCase(r);
    const Enumeration x = enumerate(c);
    ASSERT_EQ(x.error, "") << c.text();
    expectAgree(costChecks(c, x.tally), c, "case " + std::to_string(n), failing, kPrinted);
    refills += x.refills > 0, reduced += x.reduced > 0;
    const bool pe_keeps = c.m.levels[size_t(c.pe())].keeps[2];
    per_pe += pe_keeps, shared_innermost += !pe_keeps;
    offchip_child += c.hw.l2 >= 0 && c.o.home[2] == 0 && c.m.levels[size_t(c.hw.l2)].keeps[2];
  }
  EXPECT_EQ(failing, 0) << "of " << kCases << " cases disagree (the first " << kPrinted
                        << " printed above)";
  EXPECT_GT(refills, 30);
  EXPECT_GT(reduced, 20);
  EXPECT_GT(per_pe, 30);
  EXPECT_GT(shared_innermost, 30);
  EXPECT_GT(offchip_child, 5);
}

// A hand-built case: DRAM, a buffer with no loops of its own, the PE level.
Case pinned(Problem p, int rows, int cols, Factors dram, Factors pe, Factors sp_rows,
            Factors sp_cols, std::array<bool, 3> pe_keeps) {
  Case c;
  c.p = p;
  c.hw = tinyNest(rows, cols, false, -1, 64);
  for (Level& l : c.hw.levels) l.pool_bytes = {-1, -1, -1}, l.can_hold = {true, true, true};
  auto order = [](const Factors& f) {
    std::vector<Dim> o;
    for (Dim d : kAllDims) {
      if (f[ix(d)] > 1) o.push_back(d);
    }
    return o;
  };
  c.m = nestMapping(c.hw, dram, order(dram), kOnes, {}, pe, order(pe), sp_rows, sp_cols);
  c.m.levels[2].keeps = pe_keeps;
  c.loops = nestLoops(c.m, c.hw);
  return c;
}

// One pinned case: its volumes and its counts against the enumeration.
void expectCaseAgrees(const Case& c) {
  int failing = 0;
  expectAgree(volumeChecks(c), c, "volumes", failing);
  const Enumeration x = enumerate(c);
  ASSERT_EQ(x.error, "");
  expectAgree(costChecks(c, x.tally), c, "counts", failing);
}

// Two nests the random ones found disagreeing, reduced: a spatial loop over a dim the tensor
// does not depend on, with a loop of the same dim on its other side, the split not dividing the
// extent.
// C = 4 over 2 rows x a PE loop of 3 (c = 3 row + i): every PE step has a MAC in row 0, so the
// reduced partial sums reach the buffer 3 times, not ceil(4 / 2) = 2; likewise the inputs over
// K = 4 split 2 columns x 3 PE steps take 3 multicast reads per (p, c), not 2.
TEST(NestBruteForce, CollapsedSpatialLoopOutsideAPeLoopOfTheSameDim) {
  Problem p;
  p.extent[ix(Dim::K)] = 4;
  p.extent[ix(Dim::C)] = 4;
  const Case c = pinned(p, 2, 2, kOnes, dims({{Dim::K, 3}, {Dim::C, 3}}), dims({{Dim::C, 2}}),
                        dims({{Dim::K, 2}}), {false, false, false});
  expectCaseAgrees(c);
}

// C = 4 over 3 PE rows under a DRAM loop C:2 (c = 3 dram + row): all 3 PEs hold the output, so
// it has 3 residencies in the PEs (3 drains, 3 deliveries), not ceil(4 / 2) = 2.
TEST(NestBruteForce, PerPeSpatialLoopInsideATemporalLoopOfTheSameDim) {
  Problem p;
  p.extent[ix(Dim::C)] = 4;
  const Case c =
      pinned(p, 3, 1, dims({{Dim::C, 2}}), kOnes, dims({{Dim::C, 3}}), kOnes, {false, false, true});
  expectCaseAgrees(c);
}

}  // namespace
}  // namespace tessel
