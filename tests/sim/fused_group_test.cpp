// Fused groups (dataflows/fused_group.h) costed as one loop nest: traffic of a small attention
// derived by hand, causal skipping, the stages' sum, and the choice against the unfused plan.
#include <gtest/gtest.h>

#include <numeric>

#include "dataflows/dataflow.h"
#include "dataflows/mapper.h"
#include "models/builder.h"
#include "models/chains.h"
#include "models/transformer.h"
#include "sim/analytical/fused_cost.h"
#include "sim/fusion.h"
#include "sim/run.h"
#include "tests/sim/tiny_arch.h"

namespace tessel {
namespace {

using dataflows::FusedGroup;

// 16x16 INT8 array, 64 KiB scratchpad, 16 KiB accumulator, an SFU that runs softmax.
arch::Accelerator design() {
  auto a = testing::tinyArch(16);
  a.levels[1].capacity_bytes = 64 * 1024;
  a.levels[2].capacity_bytes = 16 * 1024;
  a.sfu = arch::Sfu{{"softmax", "gelu", "silu", "mul"}, 16, true, 1, 0};
  return a;
}

// x [1, 64, 64] -> qkv -> 4 heads of 16: score -> softmax -> context -> proj (INT8 throughout).
models::Graph attentionGraph(bool causal) {
  models::Graph g;
  g.name = "attention";
  models::detail::Builder b{g, DType::Int8};
  const int x = b.input("x", {1, 64, 64}, DType::Int8);
  models::detail::AttentionSpec spec;
  spec.heads = 4;
  spec.causal = causal;
  models::detail::attention(b, "attn", x, spec);
  return g;
}

FusedGroup groupOf(const models::Graph& g, const arch::Accelerator& acc, int64_t br, int64_t bc) {
  const std::vector<models::ChainGroup> chains = models::findChains(g);
  EXPECT_EQ(chains.size(), 1u);
  FusedGroup grp;
  grp.chain = chains.at(0);
  grp.block_rows = br;
  grp.block_cols = bc;
  grp.online_softmax = bc < 64;
  const dataflows::AttentionDims d = dataflows::attentionDims(grp.chain, g);
  const double n = static_cast<double>(dataflows::attentionBlocks(d, br, bc).blocks);
  auto mapper = dataflows::makeMapper("search");
  const auto df = dataflows::loadDataflow("ws");
  for (auto [op, shape] : {std::pair{grp.chain.score, models::GemmShape{4, br, bc, 16}},
                           std::pair{grp.chain.context, models::GemmShape{4, br, 16, bc}}}) {
    models::Op block = g.op(op);
    block.gemm = shape;
    FusedGroup::Block blk{op, dataflows::problemOf(block, g), {}, n};
    blk.mapping = mapper->map(blk.problem, acc, df, {}).mapping;
    grp.blocks.push_back(blk);
  }
  return grp;
}

const sim::analytical::MemberCost& memberOf(const sim::analytical::GroupCost& c, int op) {
  for (const auto& m : c.members) {
    if (m.op == op) return m;
  }
  throw std::runtime_error("no member");
}

// L = 64, d = 16, 4 heads, 16 x 16 blocks: 4 query blocks x 4 key blocks per head.
// Not causal: every query block loads all 64 keys -> 4 x 64 = 256 key rows per head.
// Causal: query block i sees keys [0, 16 (i + 1)) -> 16 + 32 + 48 + 64 = 160 key rows, and
// 1 + 2 + 3 + 4 = 10 blocks; score elements per head 16 x 160 = 2560 (diagonal blocks whole).
TEST(FusedGroup, AttentionTrafficByHand) {
  const arch::Accelerator acc = design();
  const sim::analytical::MemoryModel mem(acc, false);
  for (bool causal : {false, true}) {
    SCOPED_TRACE(causal ? "causal" : "full");
    const models::Graph g = attentionGraph(causal);
    const FusedGroup grp = groupOf(g, acc, 16, 16);
    const auto b = dataflows::attentionBlocks(dataflows::attentionDims(grp.chain, g), 16, 16);
    EXPECT_EQ(b.blocks, causal ? 10 : 16);
    EXPECT_EQ(b.key_rows, causal ? 160 : 256);
    const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
    ASSERT_TRUE(c.ok) << c.reason;
    const auto& score = memberOf(c, grp.chain.score);
    const auto& context = memberOf(c, grp.chain.context);
    const double key_rows = causal ? 160 : 256, scores = causal ? 2560 : 4096;
    // MACs: heads x score elements x d, for each GEMM.
    EXPECT_EQ(score.macs, static_cast<int64_t>(4 * scores * 16));
    EXPECT_EQ(context.macs, static_cast<int64_t>(4 * scores * 16));
    // DRAM (level 0): Q read once, 4 x 64 x 16 INT8 = 4096 B; K and V 4 x key rows x 16 B;
    // O written once, 4096 B; nothing else (no score, no probability).
    EXPECT_DOUBLE_EQ(score.reads[0][0], 4096);
    EXPECT_DOUBLE_EQ(score.reads[0][1], 4 * key_rows * 16);
    EXPECT_DOUBLE_EQ(context.reads[0][1], 4 * key_rows * 16);
    EXPECT_DOUBLE_EQ(context.writes[0][2], 4096);
    EXPECT_DOUBLE_EQ(score.writes[0][2] + context.reads[0][0] + score.reads[0][2], 0);
    // Scratchpad (level 1) fills: Q once, K and V as loaded, P as the SFU writes it (1 B each).
    EXPECT_DOUBLE_EQ(score.writes[1][0], 4096);
    EXPECT_DOUBLE_EQ(score.writes[1][1], 4 * key_rows * 16);
    EXPECT_DOUBLE_EQ(context.writes[1][1], 4 * key_rows * 16);
    EXPECT_DOUBLE_EQ(context.writes[1][0], 4 * scores);
    // The members' cycles add up to the group's.
    double sum = 0;
    for (const auto& m : c.members) sum += std::accumulate(m.cycles.begin(), m.cycles.end(), 0.0);
    EXPECT_NEAR(sum, c.cycles, 1e-9 * c.cycles);
    EXPECT_GE(c.cycles, std::max({c.array, c.vector, c.memory}));
  }
}

// K and V kept in the scratchpad between query blocks are read from DRAM once.
TEST(FusedGroup, ResidentKeysAndValuesAreReadOnce) {
  const arch::Accelerator acc = design();
  const sim::analytical::MemoryModel mem(acc, false);
  const models::Graph g = attentionGraph(false);
  FusedGroup grp = groupOf(g, acc, 16, 16);
  grp.resident_level = 1;
  const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_DOUBLE_EQ(memberOf(c, grp.chain.score).reads[0][1], 4 * 64 * 16);
  EXPECT_DOUBLE_EQ(memberOf(c, grp.chain.context).reads[0][1], 4 * 64 * 16);
}

// A block that does not fit is refused with the memory named: 64 x 64 scores of INT32 per head
// stack (4 heads share no K/V here, one unit's block: 64 x 64 x 4 B = 16 KiB plus the output
// rows) overflow the 16 KiB accumulator.
TEST(FusedGroup, BlocksThatDoNotFitAreRefused) {
  const arch::Accelerator acc = design();
  const models::Graph g = attentionGraph(false);
  const FusedGroup grp = groupOf(g, acc, 64, 64);
  const std::string why = sim::analytical::groupFits(grp, g, acc);
  EXPECT_NE(why.find("accumulator"), std::string::npos) << why;
}

// --fusion auto keeps a group only when it costs less than the unfused plan; epilogue leaves
// every plan without a group.
TEST(FusedGroup, AutoFusesWhenItPaysAndEpilogueNever) {
  const arch::Accelerator acc = design();
  const models::Graph g = attentionGraph(true);
  const auto df = dataflows::loadDataflow("ws");
  dataflows::PlanOptions po;
  po.mapper = "search";
  po.fusion = dataflows::FusionMode::Epilogue;
  for (const auto& p : sim::planGraph(g, acc, df, po, {})) EXPECT_FALSE(p.group) << p.op->name;
  po.fusion = dataflows::FusionMode::Auto;
  const auto plans = sim::planGraph(g, acc, df, po, {});
  const auto fused = std::find_if(plans.begin(), plans.end(), [](const auto& p) { return p.group; });
  ASSERT_NE(fused, plans.end());
  EXPECT_LT(0, fused->group->unfused_cycles);
  sim::RunOptions ro;
  ro.plan = po;
  const double fused_cycles = sim::simulate(g, acc, df, ro).totalCycles();
  ro.plan.fusion = dataflows::FusionMode::Epilogue;
  EXPECT_LT(fused_cycles, sim::simulate(g, acc, df, ro).totalCycles());
}

}  // namespace
}  // namespace tessel
