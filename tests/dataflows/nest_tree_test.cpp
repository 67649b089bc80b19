// Hierarchies as a tree: fan-outs above a buffer, a buffer per cluster, several arrays under one
// buffer. Counts derived by hand on a two-fan-out design, and the mapper using every fan-out.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/search.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using dataflows::nest::CostOptions;
using dataflows::nest::evaluate;
using dataflows::nest::gemmProblem;
using dataflows::nest::Problem;
using namespace testing;

constexpr size_t kI = 0, kW = 1, kO = 2;

// DRAM -> global buffer -(fan-out x2: multicast, no reduction, 3 pJ/B per copy reached)->
// cluster buffer (one per copy; reads 4 pJ/B, writes 4 pJ/B except weights 5) -> a 1 x 2
// spatial array (multicast and reduction, 2 pJ/B) -> PEs with 64 B per tensor.
Hardware twoFanOuts() {
  Hardware hw = tinyNest(1, 2, false, 1 << 20, 64);
  Level gb = hw.levels[1];
  gb.name = "global_buffer";
  gb.fanout = 2;
  gb.fanout_multicast = true;
  gb.fanout_reduction = false;
  gb.fanout_pj = 3;
  Level cluster = hw.levels[1];
  cluster.name = "cluster";
  cluster.arch_level = {2, 2, 2};
  cluster.read_pj = {4, 4, 4};
  cluster.write_pj = {4, 5, 4};
  cluster.instances = 2;
  Level pe = hw.levels[2];
  pe.instances = 4;
  hw.levels = {hw.levels[0], gb, cluster, pe};
  hw.local_level = 1;
  hw.array_level = 2;
  hw.arrays = 2;
  return hw;
}

// GEMM M=4 (p), N=4 (k), K=4 (c). The global buffer's fan-out splits k over the clusters (2
// each), each cluster loops over p (4), its array's two columns take one k each, and each PE
// keeps its output while c (4) passes: output stationary under both fan-outs.
//   inputs (p, c), 16 B: DRAM -> buffer 16. The clusters need the same inputs (k is not an
//     input dim): the buffer reads 16 once, the multicast delivers 16 to each cluster (32 B
//     written, 32 B over its links). No PE keeps inputs: every MAC reads one from its cluster,
//     the columns sharing it: 2 clusters x 4 p x 4 c = 32 B read, 64 B delivered to the PEs.
//   weights (c, k), 16 B: each cluster takes its own 8 (16 B read, written and delivered);
//     every MAC reads its weight: 2 x 4 x 2 x 4 = 64 B read from the clusters, all delivered.
//   outputs (p, k), 16 sums of 4 B: each PE's sum starts in it and takes 4 updates (64 x 4 B
//     written, 48 of them re-reading it, +16 drains = 256 B read); each sum leaves the PE once
//     (16 x 4 B up the array's NoC, written to the cluster, then read and sent up the
//     fan-out: 64 B), written to the buffer once (64 B) and read once for DRAM (64 B); DRAM
//     takes the 16 results at int8 (16 B).
//   steps: 64 MACs on 4 PEs, one each per step: 16.
TEST(NestTree, TwoFanOutsCountByHand) {
  const Hardware hw = twoFanOuts();
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m;
  m.levels.resize(4);
  m.levels[1].spatial = dims({{Dim::K, 2}});
  m.levels[2].factor = dims({{Dim::P, 4}});
  m.levels[2].order = {Dim::P};
  m.levels[3].factor = dims({{Dim::C, 4}});
  m.levels[3].order = {Dim::C};
  m.levels[3].keeps = {false, false, true};
  m.cols = dims({{Dim::K, 2}});
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  const std::vector<dataflows::nest::PerTensor> reads = {
      {16, 16, 0}, {16, 16, 64}, {32, 64, 64}, {0, 0, 256}};
  const std::vector<dataflows::nest::PerTensor> fills = {
      {0, 0, 0}, {16, 16, 0}, {32, 16, 0}, {0, 0, 0}};
  const std::vector<dataflows::nest::PerTensor> updates = {
      {0, 0, 16}, {0, 0, 64}, {0, 0, 64}, {0, 0, 256}};
  for (size_t l = 0; l < 4; ++l) {
    for (size_t t = 0; t < 3; ++t) {
      SCOPED_TRACE(hw.levels[l].name + " tensor " + std::to_string(t));
      EXPECT_EQ(c.reads[l][t], reads[l][t]);
      EXPECT_EQ(c.fills[l][t], fills[l][t]);
      EXPECT_EQ(c.updates[l][t], updates[l][t]);
      EXPECT_EQ(c.writes[l][t], fills[l][t] + updates[l][t]);
    }
  }
  EXPECT_EQ(c.fanout_sent[1][kI], 16);
  EXPECT_EQ(c.fanout_delivered[1][kI], 32);
  EXPECT_EQ(c.fanout_sent[1][kW], 16);
  EXPECT_EQ(c.fanout_delivered[1][kW], 16);
  EXPECT_EQ(c.fanout_sent[1][kO], 64);
  EXPECT_EQ(c.fanout_delivered[1][kO], 64);
  EXPECT_EQ(c.noc_bytes[kI], 32);
  EXPECT_EQ(c.delivered[kI], 64);
  EXPECT_EQ(c.noc_bytes[kW], 64);
  EXPECT_EQ(c.delivered[kW], 64);
  EXPECT_EQ(c.noc_bytes[kO], 64);
  EXPECT_EQ(c.steps, 16);
  EXPECT_EQ(c.compute, 16);
  EXPECT_EQ(c.cycles, 16);
  EXPECT_DOUBLE_EQ(c.utilization, 1.0);
  // Energy: DRAM 48 B x 200; buffer 192 B x 6; cluster reads 160 B x 4 + writes 32 x 4 + 16 x 5
  // + 64 x 4; PEs 512 B x 1; fan-out links 112 B x 3; array NoC 192 B x 2; 64 MACs x 1.
  EXPECT_DOUBLE_EQ(c.energy, 9600 + 1152 + (640 + 464) + 512 + 336 + 384 + 64);
}

// The same GEMM with the global buffer's fan-out unused: the two PEs of one cluster do it all,
// taking twice the steps; the fan-out carries nothing twice (the one cluster gets all).
TEST(NestTree, AnIdleFanOutHalvesTheSpeed) {
  const Hardware hw = twoFanOuts();
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m;
  m.levels.resize(4);
  m.levels[0].factor = dims({{Dim::K, 2}});
  m.levels[0].order = {Dim::K};
  m.levels[2].factor = dims({{Dim::P, 4}});
  m.levels[2].order = {Dim::P};
  m.levels[3].factor = dims({{Dim::C, 4}});
  m.levels[3].order = {Dim::C};
  m.levels[3].keeps = {false, false, true};
  m.cols = dims({{Dim::K, 2}});
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.steps, 32);
  EXPECT_DOUBLE_EQ(c.utilization, 0.5);
  EXPECT_EQ(c.fanout_delivered[1][kI], c.fanout_sent[1][kI]);
}

// One PE with a register file and, below it, a one-byte weight register (a second level inside
// the PE). GEMM M=4 (p), N=1, K=2 (c): the register file loops over c (2), the register level
// over p (4); the register keeps the weight while p turns, the register file the outputs.
//   weights: 2 B from DRAM to the buffer to the register file; the register file sends each
//     once to the register (2 B read, 2 B filled); the MACs read the register 8 times.
//   outputs: 8 updates in the register file (32 B), 4 of them re-reading a sum (16 B) and 4
//     drains (16 B) to the buffer; the buffer sends 4 results of 1 B to DRAM.
// Without the register the MACs read the weight from the register file: 8 reads, not 2.
TEST(NestTree, RegistersInsideAPeServeTheStationaryWeight) {
  Hardware hw = tinyNest(1, 1, false, 1 << 20, 64);
  Level reg = hw.levels[2];
  reg.name = "registers";
  reg.can_hold = {false, true, false};
  reg.pool_bytes = {0, 1, 0};
  reg.read_pj = reg.write_pj = {0.5, 0.5, 0.5};
  hw.levels.push_back(reg);
  const Problem p = gemmProblem(1, 4, 1, 2);
  Mapping m;
  m.levels.resize(4);
  m.levels[2].factor = dims({{Dim::C, 2}});
  m.levels[2].order = {Dim::C};
  m.levels[2].keeps = {false, true, true};
  m.levels[3].factor = dims({{Dim::P, 4}});
  m.levels[3].order = {Dim::P};
  m.levels[3].keeps = {false, true, false};
  ASSERT_EQ(checkShape(m, p, hw), "");
  CostOptions o;
  o.ideal_memory = true;
  const auto c = evaluate(p, m, hw, o);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[3][kW], 8);
  EXPECT_EQ(c.fills[3][kW], 2);
  EXPECT_EQ(c.reads[2][kW], 2);
  EXPECT_EQ(c.fills[2][kW], 2);
  EXPECT_EQ(c.reads[1][kW], 2);
  EXPECT_EQ(c.reads[1][kI], 8);
  EXPECT_EQ(c.updates[2][kO], 32);
  EXPECT_EQ(c.reads[2][kO], 32);
  EXPECT_EQ(c.updates[1][kO], 16);
  EXPECT_EQ(c.reads[1][kO], 16);
  EXPECT_EQ(c.updates[0][kO], 4);
  EXPECT_EQ(c.steps, 8);
  m.levels[3].keeps = {false, false, false};
  const auto without = evaluate(p, m, hw, o);
  ASSERT_TRUE(without.ok);
  EXPECT_EQ(without.reads[2][kW], 8);
  EXPECT_EQ(without.reads[3][kW], 0);
}

// Spatial factors beyond a fan-out are refused by name.
TEST(NestTree, SpatialFactorsBeyondAFanOutAreRefused) {
  const Hardware hw = twoFanOuts();
  const Problem p = gemmProblem(1, 4, 4, 4);
  Mapping m;
  m.levels.resize(4);
  m.levels[1].spatial = dims({{Dim::K, 4}});
  m.levels[3].factor = dims({{Dim::C, 4}, {Dim::P, 4}});
  m.levels[3].order = {Dim::P, Dim::C};
  EXPECT_NE(checkShape(m, p, hw).find("global_buffer: spatial factors 4 exceed its fan-out of 2"),
            std::string::npos)
      << checkShape(m, p, hw);
}

// The mapper spreads a large GEMM over every fan-out: on four 128 x 128 arrays under one
// buffer (tpu-v4i-like) it reaches the compute bound of all four, 4x one array's.
TEST(NestTree, TheMapperUsesEveryFanOut) {
  const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4i-like.yaml");
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  ASSERT_EQ(hw.arrays, 4);
  const Problem p = gemmProblem(1, 2048, 2048, 2048);
  dataflows::nest::SearchOptions so;
  so.cost.ideal_memory = true;
  so.threads = 1;
  const auto r = dataflows::nest::search(p, hw, dataflows::loadDataflow("ws").nest, so);
  ASSERT_TRUE(r.ok) << r.reason;
  const auto& m = r.mapping;
  int64_t fan = 1;
  for (Dim d : dataflows::nest::kAllDims) fan *= m.levels[size_t(hw.local())].spatial[dataflows::nest::at(d)];
  EXPECT_EQ(fan, 4);
  // 2048^3 MACs over 4 x 16,384 PEs: 131,072 steps at best.
  EXPECT_GE(r.cost.steps, 131072);
  EXPECT_LE(r.cost.steps, 131072 * 1.01);
}

// A split register file's pads each reach the cost model at their own energy: eyeriss-like's
// 24 B input pad (flip-flops), 448 B filter pad (an SRAM macro) and 48 B psum pad.
TEST(NestTree, EachPadOfASplitRegisterFileHasItsOwnEnergy) {
  const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/eyeriss-like.yaml");
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const dataflows::nest::Level& pe = hw.levels[size_t(hw.pe())];
  ASSERT_TRUE(pe.per_pe);
  for (size_t t = 0; t < 3; ++t) {
    EXPECT_GT(acc.array.rf_pad_read_pj[t], 0) << t;
    EXPECT_DOUBLE_EQ(pe.read_pj[t], acc.array.rf_pad_read_pj[t]) << t;
    EXPECT_DOUBLE_EQ(pe.write_pj[t], acc.array.rf_pad_write_pj[t]) << t;
  }
  // The 24 B pad is cheaper per byte than the 48 B one, and both than the 448 B macro.
  EXPECT_LT(pe.read_pj[kI], pe.read_pj[kO]);
  EXPECT_LT(pe.read_pj[kO], pe.read_pj[kW]);
}

}  // namespace
}  // namespace tessel
