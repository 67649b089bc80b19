// The loop-nest cost model against counts derived by hand: a 4x4x4 GEMM on a 2x2 systolic
// array, a 1-D convolution's halo, and a 3x3 convolution on a 4x4 input under row-stationary.
#include "dataflows/nest/cost.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dataflows/nest/tile_timing.h"
#include "models/workload.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using dataflows::Operand;
using dataflows::nest::CostOptions;
using dataflows::nest::evaluate;
using dataflows::nest::gemmProblem;
using dataflows::nest::Problem;
using namespace testing;

constexpr size_t kI = 0, kW = 1, kO = 2;

// GEMM m = n = k = 4 (p = 4, K = 4, C = 4), INT8 in and out, INT32 partial sums, on a 2x2
// weight-stationary systolic array: rows take C:2, columns K:2, the PE keeps its weight while
// the 4 rows of m stream past (pe P:4), the buffer loops over the 2x2 weight blocks (K:2, C:2).
//
// Weights: DRAM -> buffer once: 16 B. Buffer -> PEs: each weight once (both spatial dims are
// weight dims): 16 B, 4 swaps per PE. Every MAC reads its PE's weight: 64 B from the PE.
// Inputs bypass the PEs: each MAC takes its input from the buffer, but a column multicast
// (K is not an input dim) feeds both columns with one read: 4 m x 4 k x 2 K-blocks = 32 B read;
// the PEs receive 64 B.
// Outputs: a column adds its partial sums on the way down (C is not an output dim), so the
// buffer sees 4 m x 4 n x 2 C-blocks = 32 updates x 4 B = 128 B written; 16 of those updates
// start an output, the other 16 read the sum first: 64 B read; the final drain to DRAM reads 16
// sums (64 B more) and writes 16 INT8 outputs.
// Time: 16 steps (64 MACs on 4 PEs) in 4 weight swaps of m = 4 rows each. Double-buffered, a
// swap issues every max(m, R) = 4 cycles, so the 3 later preloads hide behind the stream
// (swap_exposed = max(0, 2 - 4) = 0); the first preload (R = 2), the skew (R + C - 2 = 2) and
// the edge register (+1) are paid once: 16 + 2 + 2 + 1 = 21 cycles with free memory, the PE
// grid's wsSequenceCycles(2, 2, 4, 4, true) = 3 x 4 + (2 + 4 + 2 + 1).
TEST(NestCost, Gemm4x4x4OnTwoByTwoSystolicWs) {
  const Hardware hw = tinyNest(2, 2, true);
  const Problem p = gemmProblem(1, 4, 4, 4, DType::Int8, DType::Int8, DType::Int8);
  Mapping m = nestMapping(hw, kOnes, {}, dims({{Dim::K, 2}, {Dim::C, 2}}), {Dim::K, Dim::C},
                          dims({{Dim::P, 4}}), {Dim::P}, dims({{Dim::C, 2}}), dims({{Dim::K, 2}}));
  m.levels[2].keeps = {false, true, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[0][kI], 16);
  EXPECT_EQ(c.reads[0][kW], 16);
  EXPECT_EQ(c.reads[0][kO], 0);
  EXPECT_EQ(c.writes[0][kO], 16);
  EXPECT_EQ(c.writes[1][kI], 16);
  EXPECT_EQ(c.writes[1][kW], 16);
  EXPECT_EQ(c.reads[1][kW], 16);
  EXPECT_EQ(c.reads[1][kI], 32);
  EXPECT_EQ(c.writes[1][kO], 128);
  EXPECT_EQ(c.reads[1][kO], 64 + 64);
  EXPECT_EQ(c.writes[2][kW], 16);
  EXPECT_EQ(c.reads[2][kW], 64);
  EXPECT_EQ(c.noc_bytes[kI], 32);
  EXPECT_EQ(c.delivered[kI], 64);
  EXPECT_EQ(c.noc_bytes[kO], 128);
  EXPECT_EQ(c.steps, 16);
  EXPECT_EQ(c.array, 21);
  EXPECT_EQ(c.cycles, 21);
  // Energy: DRAM 48 B x 200, buffer (16+16+16 writes, 16+32+128 reads, 128 writes) x 6,
  // PE 80 B x 1, 64 MACs x 1. Neighbour links cost a hop per PE a value reaches: every MAC's
  // input (64 B) and partial sum (64 x 4 B) crosses one link, each weight one on its way in
  // (16 B): (64 + 16 + 256) x 2.
  EXPECT_EQ(c.delivered[kO], 256);
  EXPECT_EQ(c.delivered[kW], 16);
  const double buffer = (16 + 16 + 128 + 16 + 32 + 128) * 6.0;
  EXPECT_DOUBLE_EQ(c.energy, 48 * 200.0 + buffer + 80 + (64 + 16 + 256) * 2.0 + 64);
}

// The cost model's systolic array time is the PE grid's (tile_timing.h, which the clocked grid
// checks): with free memory and full tiles, every swap of the stationary tensor streams the same
// m, and the op takes the back-to-back sequence of its swaps, however the swaps are spread over
// local tiles (here the DRAM's P loop makes dram_p local tiles, refilling the weights in each).
TEST(NestCost, SystolicArrayTimeIsThePeGridsSequence) {
  using dataflows::nest::osSequenceCycles;
  using dataflows::nest::wsSequenceCycles;
  CostOptions o;
  o.ideal_memory = true;
  // A level's loop order lists only the dims with a factor > 1.
  auto loops = [](const Factors& f, std::vector<Dim> order) {
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](Dim d) { return f[static_cast<size_t>(d)] <= 1; }),
                order.end());
    return order;
  };
  // WS: the PE keeps a weight while m rows of inputs stream; the buffer loops over kb x cb
  // weight blocks, the DRAM over dram_p row blocks: dram_p x kb x cb swaps of m each.
  struct Ws {
    int rows, cols;
    int64_t m, dram_p, kb, cb;
    bool double_buffered;
  };
  for (const Ws& x : std::vector<Ws>{{2, 2, 4, 1, 2, 2, true},  {2, 2, 4, 1, 2, 2, false},
                                     {4, 4, 2, 3, 1, 2, true},  {4, 4, 2, 3, 1, 2, false},
                                     {4, 2, 8, 2, 3, 1, true},  {3, 3, 1, 4, 2, 2, true},
                                     {3, 3, 1, 4, 2, 2, false}, {2, 4, 16, 1, 1, 1, true}}) {
    Hardware hw = tinyNest(x.rows, x.cols, true);
    hw.weight_double_buffered = x.double_buffered;
    const Problem p = gemmProblem(1, x.m * x.dram_p, x.cols * x.kb, x.rows * x.cb);
    const Factors dram = dims({{Dim::P, x.dram_p}}), local = dims({{Dim::K, x.kb}, {Dim::C, x.cb}});
    const Factors pe = dims({{Dim::P, x.m}});
    Mapping m = nestMapping(hw, dram, loops(dram, {Dim::P}), local, loops(local, {Dim::K, Dim::C}),
                            pe, loops(pe, {Dim::P}), dims({{Dim::C, x.rows}}),
                            dims({{Dim::K, x.cols}}));
    m.levels[2].keeps = {false, true, false};
    ASSERT_EQ(checkShape(m, p, hw), "");
    const auto c = evaluate(p, m, hw, o);
    ASSERT_TRUE(c.ok) << c.reason;
    const int64_t swaps = x.dram_p * x.kb * x.cb;
    EXPECT_EQ(c.swaps, static_cast<double>(swaps));
    EXPECT_EQ(c.array, static_cast<double>(wsSequenceCycles(x.rows, x.cols, x.m, swaps,
                                                            x.double_buffered)))
        << x.rows << "x" << x.cols << " m=" << x.m << " swaps=" << swaps;
  }
  // OS: the PE keeps an output while the reduction k streams; the buffer loops over pb x kb
  // output blocks, one swap each.
  struct Os {
    int rows, cols;
    int64_t k, pb, kb;
  };
  for (const Os& x : std::vector<Os>{{2, 2, 4, 2, 2}, {4, 4, 2, 2, 1}, {4, 2, 8, 1, 3}, {3, 3, 3, 2, 2}}) {
    const Hardware hw = tinyNest(x.rows, x.cols, true);
    const Problem p = gemmProblem(1, x.rows * x.pb, x.cols * x.kb, x.k);
    const Factors local = dims({{Dim::P, x.pb}, {Dim::K, x.kb}}), pe = dims({{Dim::C, x.k}});
    Mapping m = nestMapping(hw, kOnes, {}, local, loops(local, {Dim::P, Dim::K}), pe,
                            loops(pe, {Dim::C}), dims({{Dim::P, x.rows}}), dims({{Dim::K, x.cols}}));
    m.levels[2].keeps = {false, false, true};
    ASSERT_EQ(checkShape(m, p, hw), "");
    const auto c = evaluate(p, m, hw, o);
    ASSERT_TRUE(c.ok) << c.reason;
    EXPECT_EQ(c.array, static_cast<double>(osSequenceCycles(x.rows, x.cols, x.k, x.pb * x.kb)))
        << x.rows << "x" << x.cols << " k=" << x.k << " swaps=" << x.pb * x.kb;
  }
}

// The same 4x4x4 GEMM (p = m, K = n, C = k; INT8 in, INT32 partial sums) on a 2x2 spatial array
// whose NoC multicasts and reduces, under the three other dataflows, free memory. Each row of a
// table is one tensor's bytes: buffer reads / PE writes (received) / MAC-side reads.
//
// OS: rows P:2, cols K:2; the buffer loops over the 2x2 output blocks (P:2, K:2); the PE keeps
// its output while the whole reduction C:4 passes.
//   inputs  (p, c): one read per MAC but the columns share it (K is not an input dim); the
//           buffer's K loop re-sends: 4 x 4 x 2 = 32 B read, 64 B received.
//   weights (c, k): likewise over the rows and the buffer's P loop: 32 B read, 64 B received.
//   outputs: each PE's 4 sums start in the PE and leave once: 16 x 4 B written to the buffer,
//           never read back before the drain (64 B); in the PE 64 updates (256 B written), 48
//           of them re-reading the sum and 16 drained (192 + 64 B read).
TEST(NestCost, Gemm4x4x4OutputStationary) {
  const Hardware hw = tinyNest(2, 2, false, 1 << 20, 64);
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m = nestMapping(hw, kOnes, {}, dims({{Dim::P, 2}, {Dim::K, 2}}), {Dim::P, Dim::K},
                          dims({{Dim::C, 4}}), {Dim::C}, dims({{Dim::P, 2}}), dims({{Dim::K, 2}}));
  m.levels[2].keeps = {false, false, true};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[1][kI], 32);
  EXPECT_EQ(c.delivered[kI], 64);
  EXPECT_EQ(c.reads[1][kW], 32);
  EXPECT_EQ(c.delivered[kW], 64);
  EXPECT_EQ(c.writes[1][kO], 16 * 4);
  EXPECT_EQ(c.reads[1][kO], 16 * 4);  // the drain to DRAM only
  EXPECT_EQ(c.writes[2][kO], 64 * 4);
  EXPECT_EQ(c.reads[2][kO], (48 + 16) * 4);
  EXPECT_EQ(c.writes[0][kO], 16);
  EXPECT_EQ(c.steps, 16);
  EXPECT_EQ(c.cycles, 16);
}

// IS: rows C:2, cols P:2; the buffer loops P:2, C:2; the PE keeps its input while all 4 output
// channels (K:4) read it.
//   inputs:  each sent once to its PE: 16 B read, 16 B received, 64 B read by the MACs in it.
//   weights: one per MAC, shared by the columns (P is not a weight dim), re-sent for the
//            buffer's P loop: 32 B read, 64 B received.
//   outputs: the two rows add theirs in the network (C is not an output dim) but the buffer's
//            C loop makes each sum leave twice: 32 updates x 4 B written, 16 of them re-reading
//            the sum (64 B) plus the drain (64 B).
TEST(NestCost, Gemm4x4x4InputStationary) {
  const Hardware hw = tinyNest(2, 2, false, 1 << 20, 64);
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m = nestMapping(hw, kOnes, {}, dims({{Dim::P, 2}, {Dim::C, 2}}), {Dim::P, Dim::C},
                          dims({{Dim::K, 4}}), {Dim::K}, dims({{Dim::C, 2}}), dims({{Dim::P, 2}}));
  m.levels[2].keeps = {true, false, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[1][kI], 16);
  EXPECT_EQ(c.writes[2][kI], 16);
  EXPECT_EQ(c.reads[2][kI], 64);
  EXPECT_EQ(c.reads[1][kW], 32);
  EXPECT_EQ(c.delivered[kW], 64);
  EXPECT_EQ(c.writes[1][kO], 32 * 4);
  EXPECT_EQ(c.reads[1][kO], 16 * 4 + 16 * 4);
  EXPECT_EQ(c.steps, 16);
  EXPECT_EQ(c.cycles, 16);
}

// NLR: rows C:2, cols K:2, nothing in the PE; the buffer loops K:2, C:2, P:4 (P innermost).
//   inputs:  per MAC, shared by the columns, re-sent for the buffer's K loop: 32 B read.
//   weights: per MAC, re-sent for each of the 4 P iterations: 4 x 4 x 4 = 64 B read.
//   outputs: reduced over the rows, leaving once per buffer C iteration: 32 updates (128 B
//            written), 16 re-reading (64 B) plus the drain (64 B).
//   Nothing is read or written in a register file.
TEST(NestCost, Gemm4x4x4NoLocalReuse) {
  const Hardware hw = tinyNest(2, 2, false, 1 << 20, 0);
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m = nestMapping(hw, kOnes, {}, dims({{Dim::K, 2}, {Dim::C, 2}, {Dim::P, 4}}),
                          {Dim::K, Dim::C, Dim::P}, kOnes, {}, dims({{Dim::C, 2}}),
                          dims({{Dim::K, 2}}));
  m.levels[2].keeps = {false, false, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[1][kI], 32);
  EXPECT_EQ(c.reads[1][kW], 64);
  EXPECT_EQ(c.writes[1][kO], 32 * 4);
  EXPECT_EQ(c.reads[1][kO], 16 * 4 + 16 * 4);
  for (size_t t = 0; t < 3; ++t) EXPECT_EQ(c.reads[2][t] + c.writes[2][t], 0) << t;
  EXPECT_EQ(c.steps, 16);
  EXPECT_EQ(c.cycles, 16);
}

// A 1-D convolution: 6 outputs (P), a 3-tap filter (R), 2 input channels (C), stride 1: 8 input
// rows per channel, 16 input elements in all. The buffer holds 2 outputs' window (4 rows); DRAM
// loops P:3 and C:2.
//   - P innermost at DRAM: consecutive tiles overlap by 2 rows, which stay: each channel's 8
//     rows are read once, 16 in total (halo reuse).
//   - C innermost: the channel changes between neighbouring windows, so each window reloads its
//     4 rows: 3 windows x 4 rows x 2 channels = 24.
TEST(NestCost, OneDimensionalConvolutionHalo) {
  const Hardware hw = tinyNest(1, 1, false, 1 << 20, 64);
  Problem p;
  p.extent[static_cast<size_t>(Dim::P)] = 6;
  p.extent[static_cast<size_t>(Dim::R)] = 3;
  p.extent[static_cast<size_t>(Dim::C)] = 2;
  auto mapping = [&](std::vector<Dim> order) {
    Mapping m = nestMapping(hw, dims({{Dim::P, 3}, {Dim::C, 2}}), std::move(order),
                            dims({{Dim::P, 2}, {Dim::R, 3}}), {Dim::P, Dim::R}, kOnes, {}, kOnes,
                            kOnes);
    m.levels[2].keeps = {false, false, false};
    return m;
  };
  CostOptions o;
  o.ideal_memory = true;
  const auto sliding = evaluate(p, mapping({Dim::C, Dim::P}), hw, o);
  const auto reload = evaluate(p, mapping({Dim::P, Dim::C}), hw, o);
  ASSERT_TRUE(sliding.ok && reload.ok);
  EXPECT_EQ(sliding.reads[0][kI], 16);
  EXPECT_EQ(reload.reads[0][kI], 24);
  // The weights (6) stay in the buffer while P turns inside C (sliding: 6 reads); with C inside
  // P they are reloaded for each of the 3 windows (18).
  EXPECT_EQ(sliding.reads[0][kW], 6);
  EXPECT_EQ(reload.reads[0][kW], 18);
}

// A 3x3 convolution on a 4x4 input (no padding: 2x2 outputs, C = K = 1) on 3x2 spatial PEs under
// row-stationary: PE (r, p) holds filter row r, input row p + r and the partial-sum row of output
// row p; it runs the 1-D convolution over Q:2 and S:3 itself.
//   - Inputs: the multicast NoC sends each input row once to every PE on its diagonal: the
//     buffer reads the whole 4x4 input once (16 B); the PEs receive 6 rows x 4 = 24 B.
//   - Weights: each filter row is sent once to both columns: 9 B read, 18 B received.
//   - Partial sums: the 3 PEs of a column add theirs vertically, so the buffer receives the 4
//     outputs once (16 B at INT32) and never reads one back; each PE drains its 2 sums (12 x 4 B).
//   - In the PEs: 36 MACs each update a sum (36 x 4 B written); all but each PE's first update of
//     each of its 2 sums read it first: (36 - 12) x 4 B.
//   - 6 steps: 36 MACs over 6 PEs, all busy.
TEST(NestCost, ThreeByThreeConvRowStationaryMulticastAndReduction) {
  const Hardware hw = tinyNest(3, 2, false, 1 << 20, 64);
  Problem p;
  p.extent[static_cast<size_t>(Dim::P)] = 2;
  p.extent[static_cast<size_t>(Dim::Q)] = 2;
  p.extent[static_cast<size_t>(Dim::R)] = 3;
  p.extent[static_cast<size_t>(Dim::S)] = 3;
  p.input_h = p.input_w = 4;
  Mapping m = nestMapping(hw, kOnes, {}, kOnes, {}, dims({{Dim::Q, 2}, {Dim::S, 3}}),
                          {Dim::Q, Dim::S}, dims({{Dim::R, 3}}), dims({{Dim::P, 2}}));
  m.levels[2].keeps = {true, true, true};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[1][kI], 16);
  EXPECT_EQ(c.writes[2][kI], 24);
  EXPECT_EQ(c.reads[1][kW], 9);
  EXPECT_EQ(c.writes[2][kW], 18);
  EXPECT_EQ(c.writes[1][kO], 16);
  EXPECT_EQ(c.reads[2][kO], 12 * 4 + (36 - 12) * 4);
  EXPECT_EQ(c.writes[2][kO], 36 * 4);
  EXPECT_EQ(c.steps, 6);
  EXPECT_DOUBLE_EQ(c.utilization, 1.0);
  // Without the reduction every PE's partial sums go to the buffer (12 updates, 8 of them
  // re-reading a sum): the count grows by exactly the PEs that used to add in the network.
  Hardware no_reduce = hw;
  no_reduce.reduction = false;
  const auto n = evaluate(p, m, no_reduce, o);
  EXPECT_EQ(n.writes[1][kO], 12 * 4);
  EXPECT_EQ(n.reads[1][kO], (12 - 4) * 4 + 4 * 4);
}

// Shapes that do not divide: m = 5 streams in PE tiles of 2 (2 + 2 + 1 rows: a short stream
// takes fewer steps) and n = 4 spreads over 3 columns (3 + 1: the second pass leaves two
// columns idle). The MACs stay 5 x 4 x 3 = 60, nothing rounded; the array spends 5 steps along
// m times 2 passes along n = 10 steps of 9 PEs, so 60 / 90 of the slots do work.
TEST(NestCost, PartialTilesAreCountedNotRounded) {
  const Hardware hw = tinyNest(3, 3, true);
  const Problem p = gemmProblem(1, 5, 4, 3);
  Mapping m = nestMapping(hw, dims({{Dim::P, 3}, {Dim::K, 2}}), {Dim::K, Dim::P}, kOnes, {},
                          dims({{Dim::P, 2}}), {Dim::P}, dims({{Dim::C, 3}}), dims({{Dim::K, 3}}));
  m.levels[2].keeps = {false, true, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.macs, 60);
  EXPECT_EQ(c.steps, 10);
  // Inputs: 5 x 3, multicast over the columns, read once per pass along n: 30 B.
  EXPECT_EQ(c.reads[1][kI], 30);
  // Weights stay in the PEs while the 3 m tiles pass (P innermost at DRAM): each of the 12 is
  // loaded once: 9 in the first pass, 3 in the second.
  EXPECT_EQ(c.writes[2][kW], 12);
}

// A depthwise convolution keeps its groups on G: 4 groups of one channel, a 3x3 window over a
// 4x4 input (2x2 outputs). The loop nest has 4 x 2 x 2 x 3 x 3 = 144 MACs, and with the whole
// problem in the buffer each tensor comes from DRAM once: 4 x 16 inputs, 4 x 9 weights,
// 4 x 4 outputs.
TEST(NestCost, DepthwiseConvolutionHasItsGroupsOnG) {
  models::Graph g = models::build("conv:H=4,W=4,C=4,K=4,R=3,S=3,groups=4", {});
  const Problem p = dataflows::nest::problemOf(g.op(0), g);
  EXPECT_EQ(p.of(Dim::G), 4);
  EXPECT_EQ(p.of(Dim::C), 1);
  EXPECT_EQ(p.of(Dim::K), 1);
  EXPECT_EQ(p.macs(), 144);
  const Hardware hw = tinyNest(1, 1, false, 1 << 20, 64);
  Mapping m = nestMapping(hw, kOnes, {}, dims({{Dim::G, 4}, {Dim::P, 2}, {Dim::Q, 2}}),
                          {Dim::G, Dim::P, Dim::Q}, dims({{Dim::R, 3}, {Dim::S, 3}}),
                          {Dim::R, Dim::S}, kOnes, kOnes);
  m.levels[2].keeps = {false, true, true};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[0][kI], 4 * 16);
  EXPECT_EQ(c.reads[0][kW], 4 * 9);
  EXPECT_EQ(c.writes[0][kO], 4 * 4);
}

TEST(NestCost, CapacityIsChecked) {
  const Hardware hw = tinyNest(2, 2, true, 16);
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m = nestMapping(hw, kOnes, {}, dims({{Dim::K, 2}, {Dim::C, 2}}), {Dim::K, Dim::C},
                          dims({{Dim::P, 4}}), {Dim::P}, dims({{Dim::C, 2}}), dims({{Dim::K, 2}}));
  m.levels[2].keeps = {false, true, false};
  const auto c = evaluate(p, m, hw, CostOptions{});
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.reason.find("buffer"), std::string::npos) << c.reason;
}

// A 1-D convolution (K = 16, C = 4, P = 4, R = 3) on 16 PEs, one output channel each (cols
// K:16). The buffer loops C:2 outside P:4; the PE keeps its output while C:2 x R:3 pass, so it
// sees each of its 4 outputs twice: 8 residencies per PE, the first 4 fresh, the 4 of the second
// C pass refilled from the buffer with the first pass's partial sum.
//   - In a PE: 48 MACs (4 x 4 x 3), each writes the sum (48); each reads it first except the first
//     MAC of a fresh residency: 48 - 4 = 44 accumulate reads (a refilled residency reads from its
//     first MAC). The 8 drains read it once more: 52 reads; the 4 refills write: 52 writes.
//   - The buffer (one residency for the whole op) takes 8 updates per PE (128), sends 4 refills
//     per PE down (64 reads); an update that lands right after its refill overwrites, the first
//     of each output starts it: no other read. The final drain to DRAM reads the 64 outputs.
//   - NoC: 128 updates up and 64 refills down, 192 sums delivered, all at 4 B.
TEST(NestCost, RefilledPartialSumsReadTheRegisterFile) {
  const Hardware hw = tinyNest(1, 16, false, 1 << 20, 64);
  Problem p;
  p.extent[static_cast<size_t>(Dim::K)] = 16;
  p.extent[static_cast<size_t>(Dim::C)] = 4;
  p.extent[static_cast<size_t>(Dim::P)] = 4;
  p.extent[static_cast<size_t>(Dim::R)] = 3;
  Mapping m =
      nestMapping(hw, kOnes, {}, dims({{Dim::C, 2}, {Dim::P, 4}}), {Dim::C, Dim::P},
                  dims({{Dim::C, 2}, {Dim::R, 3}}), {Dim::C, Dim::R}, kOnes, dims({{Dim::K, 16}}));
  m.levels[2].keeps = {false, false, true};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  const double pes = 16, acc = 4;
  EXPECT_EQ(c.reads[2][kO], pes * (48 - 4 + 8) * acc);
  EXPECT_EQ(c.writes[2][kO], pes * (48 + 4) * acc);
  EXPECT_EQ(c.writes[1][kO], pes * 8 * acc);
  EXPECT_EQ(c.reads[1][kO], (pes * 4 + 64) * acc);
  EXPECT_EQ(c.writes[0][kO], 64);
  EXPECT_EQ(c.noc_bytes[kO], (128 + 64) * acc);
  EXPECT_EQ(c.delivered[kO], (128 + 64) * acc);
}

// Q = 8 output columns at stride 2 with S = 1 (P = 1, R = 3: 3 input rows per column), over 4
// PE columns (cols Q:4) under a buffer loop Q:2: PE j takes output columns j and 4 + j, input
// columns 2j and 8 + 2j. The buffer's Q loop slides each PE's window, but its two columns are 8
// apart: nothing overlaps, so each PE receives 2 columns x 3 rows = 6 words, 24 in all (its K:2
// loop reuses them). The columns of different PEs differ too: the multicast buffer sends 24,
// DRAM gives the 8 sampled columns of the 15 once: 24 words.
TEST(NestCost, StridedColumnsPerPeGetNoHaloCredit) {
  const Hardware hw = tinyNest(1, 4, false, 1 << 20, 64);
  Problem p;
  p.extent[static_cast<size_t>(Dim::K)] = 2;
  p.extent[static_cast<size_t>(Dim::Q)] = 8;
  p.extent[static_cast<size_t>(Dim::R)] = 3;
  p.stride_h = p.stride_w = 2;
  Mapping m =
      nestMapping(hw, kOnes, {}, dims({{Dim::Q, 2}}), {Dim::Q}, dims({{Dim::K, 2}, {Dim::R, 3}}),
                  {Dim::K, Dim::R}, kOnes, dims({{Dim::Q, 4}}));
  m.levels[2].keeps = {true, false, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.delivered[kI], 4 * 6);
  EXPECT_EQ(c.writes[2][kI], 4 * 6);
  EXPECT_EQ(c.reads[1][kI], 24);
  EXPECT_EQ(c.noc_bytes[kI], 24);
  EXPECT_EQ(c.reads[0][kI], 24);
}

// A 1x1 convolution at stride 2 on a 15x15 input (P = Q = 8, C = 2, K = 4) reads input rows and
// columns 0, 2, .., 14: 8 x 8 = 64 words per channel, not the 225 the input has. DRAM loops P:2
// and Q:2 over 4x4 output tiles; each tile's 4 rows and 4 columns are its own (Q, the sliding
// loop, moves 8 columns on): 4 tiles x 16 x 2 channels = 128 words from DRAM.
TEST(NestCost, OneByOneStrideTwoReadsOnlyTheSampledInput) {
  const Hardware hw = tinyNest(1, 1, false, 1 << 20, 64);
  Problem p;
  p.extent[static_cast<size_t>(Dim::K)] = 4;
  p.extent[static_cast<size_t>(Dim::C)] = 2;
  p.extent[static_cast<size_t>(Dim::P)] = 8;
  p.extent[static_cast<size_t>(Dim::Q)] = 8;
  p.stride_h = p.stride_w = 2;
  p.input_h = p.input_w = 15;
  Mapping m = nestMapping(hw, dims({{Dim::P, 2}, {Dim::Q, 2}}), {Dim::P, Dim::Q},
                          dims({{Dim::P, 4}, {Dim::Q, 4}}), {Dim::P, Dim::Q},
                          dims({{Dim::K, 4}, {Dim::C, 2}}), {Dim::K, Dim::C}, kOnes, kOnes);
  m.levels[2].keeps = {false, false, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[0][kI], 2 * 64);
  EXPECT_EQ(c.writes[1][kI], 2 * 64);
}

}  // namespace
}  // namespace tessel
