// Depth-first conv chains on the SystemC engine: the tile pipeline of lower/fused_conv.cpp run on
// the blocks, against the analytical group cost on the same plans. Every op's MACs and bytes per
// level agree exactly; each conv group's cycles within 5%. Each simulation in a forked child.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <sstream>

#include "arch/load.h"
#include "dataflows/host_conversions.h"
#include "models/workload.h"
#include "sim/analytical/fused_cost.h"
#include "sim/fusion.h"
#include "sim/run.h"
#include "sim/systemc/lower/fused.h"
#include "sim/systemc/systemc_engine.h"
#include "tests/systemc/engine/fixtures.h"
#include "tests/systemc/engine/fused_checks.h"
#include "tests/systemc/in_child.h"

namespace tessel::sim::systemc {
namespace {

struct Case {
  std::string name;
  std::string arch;
  std::vector<std::string> overrides;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

arch::Accelerator design(const Case& c) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + c.arch + ".yaml",
                        c.overrides);
}

// ResNet-50 planned as `tessel run --objective energy` plans it (where its conv chains fuse on
// these designs), then both engines on the plans.
struct Planned {
  arch::Accelerator acc;
  models::Graph g;
  dataflows::Dataflow df;
  std::vector<dataflows::OpPlan> plans;
};

std::unique_ptr<Planned> plan(const Case& c) {
  auto p = std::make_unique<Planned>();
  p->acc = design(c);
  models::WorkloadOptions o;
  o.dtype = p->acc.array.input_dtype;
  p->g = dataflows::withHostConversions(models::build("resnet50", o), p->acc, true);
  p->df = dataflows::loadDataflow(p->acc.array.dataflows.front());
  dataflows::PlanOptions po;
  po.mapper = "search";
  po.mapper_options.objective = "energy";
  po.fusion = dataflows::FusionMode::Auto;
  p->plans = planGraph(p->g, p->acc, p->df, po, {});
  return p;
}

// "schedules: ...; groups within 0.05: 1; ops with other counts: 0" and the gaps.
std::string crossCheck(const Case& c) {
  registerEngine();
  const auto p = plan(c);
  RunOptions o;
  o.engine = "analytical";
  const RunStats a = evaluatePlans(p->g, p->acc, p->df, p->plans, o);
  o.engine = "systemc";
  const RunStats s = evaluatePlans(p->g, p->acc, p->df, p->plans, o);
  std::map<std::string, int> schedules;
  double worst = 0;
  std::ostringstream why;
  for (size_t i = 0; i < s.fusion_groups.size(); ++i) {
    const GroupRecord& g = s.fusion_groups[i];
    if (g.kind != "conv") continue;
    ++schedules[g.schedule];
    const double ratio = g.cycles / a.fusion_groups.at(i).cycles;
    worst = std::max(worst, std::abs(ratio - 1));
    why << " | " << g.name << " " << g.schedule << " " << g.block_rows << "x" << g.block_cols << " "
        << ratio;
  }
  int differ = 0;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const OpStats &x = a.ops[i], &y = s.ops[i];
    const bool same = testing::sameCounts(x, y);
    if (!same) ++differ, why << " | counts differ: " << x.name;
  }
  std::ostringstream out;
  out << "schedules:";
  for (const auto& [k, n] : schedules) out << " " << k;
  out << "; groups within 0.05: " << (worst <= 0.05) << "; ops with other counts: " << differ << ";"
      << why.str();
  return out.str();
}

class SystemcConvChain : public ::testing::TestWithParam<std::pair<Case, std::string>> {};

TEST_P(SystemcConvChain, GroupsWithinFivePercentCountsExact) {
  const auto& [c, schedules] = GetParam();
  const auto r = testing::inChild([&] { return crossCheck(c); });
  ASSERT_TRUE(r.ok) << r.output;
  const std::string want =
      "schedules: " + schedules + "; groups within 0.05: 1; ops with other counts: 0;";
  EXPECT_EQ(r.output.substr(0, want.size()), want) << r.output;
  if (std::getenv("TESSEL_TEST_VERBOSE")) std::printf("%s: %s\n", c.name.c_str(), r.output.c_str());
}

// gemmini-default (256 KiB scratchpad): whole-width bands with keep, weights resident or re-read
// per band, single-tile groups; with a 64 KiB scratchpad 4 x 4 tiles, recomputed and kept (line
// buffers); npu-3core (384 KiB per core).
INSTANTIATE_TEST_SUITE_P(
    Designs, SystemcConvChain,
    ::testing::Values(std::pair{Case{"gemmini", "gemmini-default", {}}, std::string("keep")},
                      std::pair{
                          Case{"gemmini_64k", "gemmini-default", {"scratchpad.capacity=64KiB"}},
                          std::string("keep recompute")},
                      std::pair{Case{"npu", "npu-3core", {}}, std::string("keep")}),
    [](const auto& info) { return info.param.first.name; });

// The lowering only: the edge tensors' off-chip bytes ride on DMA commands (the block GEMMs
// touch the local memories only), dependencies point back, and every member's bytes summed
// over the commands are the group cost's.
TEST(SystemcConvChain, OffChipBytesMoveOnlyInTransfers) {
  const auto p = plan(Case{"gemmini_64k", "gemmini-default", {"scratchpad.capacity=64KiB"}});
  const analytical::MemoryModel mem(p->acc, false);
  int groups = 0;
  for (const auto& plan : p->plans) {
    if (!plan.group || plan.op->id != plan.group->chain.first()) continue;
    ++groups;
    const dataflows::FusedGroup& grp = *plan.group;
    const auto cost = analytical::evaluateGroup(grp, p->g, p->acc, mem, false);
    ASSERT_TRUE(cost.ok) << cost.reason;
    std::vector<BlockRun> blocks(grp.blocks.size(), BlockRun{100, 4});
    FusedLowering low;
    lowerConvChain(grp, p->g, p->acc, cost, blocks, std::vector<double>(grp.chain.convs.size(), 0),
                   mem.localInputs(), low);
    const CommandStream& s = low.stream;
    for (uint32_t i = 0; i < s.commands.size(); ++i) {
      const Command& cmd = s.commands[i];
      const bool dma = cmd.kind == Kind::Load || cmd.kind == Kind::Store;
      EXPECT_EQ(cmd.time_local, dma) << i;
      for (uint32_t a = cmd.access_begin; a < cmd.access_end && !dma; ++a) {
        EXPECT_FALSE(mem.offChip(s.accesses[a].level)) << grp.name << " " << i;
      }
      for (uint32_t d = cmd.dep_begin; d < cmd.dep_end; ++d) ASSERT_LT(s.deps[d], i);
    }
    testing::expectMemberBytes(low, cost, p->acc.levels.size());
  }
  EXPECT_GT(groups, 0);
}

}  // namespace
}  // namespace tessel::sim::systemc
