// The lowering, without a simulation: the commands move exactly the bytes the access-count
// model counts, their enumeration of tiles re-derives the closed form's DRAM traffic for GEMMs,
// and their dependencies only point back.
#include <gtest/gtest.h>

#include "sim/analytical/nest_stats.h"
#include "sim/engine.h"
#include "sim/systemc/lower/lower.h"
#include "tests/sim/tiny_arch.h"
#include "tests/systemc/engine/fixtures.h"

namespace tessel::sim::systemc {
namespace {

using testing::planned;
using testing::shipped;

std::unique_ptr<Engine> analyticalFor(const testing::Planned& p) {
  return makeEngine("analytical", p.acc, p.dataflow, {});
}

// Every level's bytes per tensor and direction, summed over the commands, equal the analytical
// engine's counts of the same op.
void expectSameBytes(const CommandStream& s, const OpStats& a, const std::string& op) {
  for (size_t l = 0; l < a.traffic.size(); ++l) {
    for (int t = 0; t < 3; ++t) {
      EXPECT_EQ(s.bytesAt(l, t, false), a.traffic[l].read_bytes[size_t(t)])
          << op << " level " << a.traffic[l].level << " tensor " << t << " reads";
      EXPECT_EQ(s.bytesAt(l, t, true), a.traffic[l].write_bytes[size_t(t)])
          << op << " level " << a.traffic[l].level << " tensor " << t << " writes";
    }
  }
  int64_t rf = 0, noc = 0;
  for (const Command& c : s.commands) rf += c.register_file_bytes, noc += c.noc_bytes;
  EXPECT_EQ(rf, a.register_file_bytes) << op;
  EXPECT_EQ(noc, a.noc_bytes) << op;
}

void expectBackwardDeps(const CommandStream& s) {
  for (uint32_t i = 0; i < s.commands.size(); ++i) {
    for (uint32_t d = s.commands[i].dep_begin; d < s.commands[i].dep_end; ++d) {
      ASSERT_LT(s.deps[d], i) << "command " << i << " depends on a later one";
    }
  }
}

TEST(SystemcLowering, FourTilesOfAGemm) {
  // gemm M=256 K=4 N=4 on the tiny 4x4 design with Gemmini's tiling: 4 tiles of 64 x 4 x 4
  // along m. Inputs change every tile, weights never, outputs every tile:
  //   tile 0: load inputs, load weights, compute
  //   tiles 1-3: load inputs, store the previous outputs, compute;  then the last store.
  auto p = planned(testing::tinyArch(), "gemm:M=256,K=4,N=4", "ws", "gemmini-auto");
  const auto nc = analytical::nestCost(p.plans[0], p.acc, false);
  const GemmLowering g = lowerGemm(p.plans[0], nc);
  EXPECT_EQ(g.tiles, 4);
  std::string kinds;
  for (const Command& c : g.stream.commands) kinds += nameOf(c.kind)[0];
  EXPECT_EQ(kinds, "llclscls" "clscs");
  // Each input load moves a quarter of A (256 B), the store a quarter of C (256 B).
  EXPECT_EQ(g.stream.commands[0].access_end - g.stream.commands[0].access_begin, 2u);
  const Access& first = g.stream.accesses[g.stream.commands[0].access_begin];
  EXPECT_EQ(first.level, 0);
  EXPECT_EQ(first.bytes, 256);
  // Compute i+2 waits for the store that drained its output half (store i).
  const Command& c2 = g.stream.commands[8];
  ASSERT_EQ(c2.kind, Kind::Compute);
  bool waits_store = false;
  for (uint32_t d = c2.dep_begin; d < c2.dep_end; ++d) waits_store |= g.stream.deps[d] == 4;
  EXPECT_TRUE(waits_store);
  // The array's work per tile: 64 steps (m rows streamed once per weight swap, swaps hidden).
  EXPECT_DOUBLE_EQ(g.stream.commands[2].work, 64);
  EXPECT_DOUBLE_EQ(g.stream.run_start, 4);      // the first preload, R = 4
  EXPECT_DOUBLE_EQ(g.stream.pipeline_tail, 7);  // skew 4 + 4 - 2, plus the edge register
  expectBackwardDeps(g.stream);
  expectSameBytes(g.stream, analyticalFor(p)->evaluate(p.plans[0]), "gemm");
}

// For GEMMs homed in DRAM the enumeration moves each tile's whole footprint at every refill:
// its sums are an independent count of what the closed form gives.
TEST(SystemcLowering, EnumeratedTilesReproduceTheClosedFormForGemms) {
  for (const std::string arch : {"gemmini-default", "eyeriss-like", "shidiannao-like"}) {
    for (const std::string gemm :
         {"gemm:M=512,K=768,N=2304", "gemm:M=100,K=300,N=70", "gemm:M=1,K=768,N=3072"}) {
      auto p = planned(shipped(arch), gemm);
      const auto nc = analytical::nestCost(p.plans[0], p.acc, false);
      const GemmLowering g = lowerGemm(p.plans[0], nc);
      const auto& hw = *p.plans[0].mapping.hw;
      EXPECT_DOUBLE_EQ(g.enumerated_bytes[0], nc.cost.reads[size_t(hw.dram)][0]) << arch << " " << gemm;
      EXPECT_DOUBLE_EQ(g.enumerated_bytes[1], nc.cost.reads[size_t(hw.dram)][1]) << arch << " " << gemm;
      EXPECT_DOUBLE_EQ(nc.cost.tiles, static_cast<double>(g.tiles)) << arch << " " << gemm;
    }
  }
}

TEST(SystemcLowering, EveryOpOfAWorkloadMovesTheAnalyticalBytes) {
  for (const std::string arch : {"gemmini-default", "eyeriss-like", "tpu-v1-like",
                                 "gemmini-survey-model", "shidiannao-like"}) {
    auto p = planned(shipped(arch), "bert-base");
    auto engine = analyticalFor(p);
    for (const dataflows::OpPlan& plan : p.plans) {
      const OpStats a = engine->evaluate(plan);
      const bool gemm = plan.op->isGemmLike() && plan.placement != dataflows::Placement::Host;
      if (gemm) {
        const GemmLowering g = lowerGemm(plan, analytical::nestCost(plan, p.acc, false));
        expectBackwardDeps(g.stream);
        expectSameBytes(g.stream, a, arch + " " + plan.op->name);
      }
    }
  }
}

}  // namespace
}  // namespace tessel::sim::systemc
