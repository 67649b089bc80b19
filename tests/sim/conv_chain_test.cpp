// Depth-first conv chains (dataflows/conv_chain.h) costed as one fused group: halos and traffic
// of a two-conv chain derived by hand, the capacity check, more buffer never costing more DRAM
// bytes, the choice of runs within a chain, and a shipped design where a conv chain fuses.
#include "dataflows/conv_chain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/mapper.h"
#include "models/builder.h"
#include "models/chains.h"
#include "models/workload.h"
#include "sim/analytical/fused_cost.h"
#include "sim/fusion.h"
#include "sim/fusion_conv.h"
#include "sim/run.h"
#include "tests/sim/tiny_arch.h"

namespace tessel {
namespace {

using dataflows::FusedGroup;
using sim::analytical::GroupCost;
using sim::analytical::MemberCost;
constexpr size_t kIn = 0, kW = 1, kOut = 2;

// 16x16 INT8 array, 64 KiB scratchpad, 16 KiB accumulator; relu on the accumulator's path.
arch::Accelerator design(int64_t scratchpad = 64 * 1024) {
  auto a = testing::tinyArch(16);
  a.levels[1].capacity_bytes = scratchpad;
  a.levels[2].capacity_bytes = 16 * 1024;
  return a;
}

// x [1, 16, 16, 8] -> conv 3x3 pad 1 (8) -> relu -> conv 3x3 pad 1 (8), INT8.
models::Graph twoConvs() {
  models::Graph g;
  g.name = "two-convs";
  models::detail::Builder b{g, DType::Int8};
  int x = b.input("x", {1, 16, 16, 8}, DType::Int8);
  x = models::detail::conv2d(b, "conv1", x, {8, 3, 3, 1, 1});
  x = models::detail::unary(b, "relu1", models::OpKind::Relu, x);
  models::detail::conv2d(b, "conv2", x, {8, 3, 3, 1, 1});
  return g;
}

models::ChainGroup chainOf(const models::Graph& g) {
  const std::vector<models::ChainGroup> chains = models::findChains(g);
  EXPECT_EQ(chains.size(), 1u);
  return chains.at(0);
}

// A schedule of the chain as the search builds it (sim::convSchedule), its block GEMMs mapped.
FusedGroup scheduleOf(const models::Graph& g, const arch::Accelerator& acc, int64_t rows,
                      int64_t cols, bool keep, int resident, bool mapped = true) {
  const models::ChainGroup c = chainOf(g);
  const auto df = dataflows::loadDataflow("ws");
  static const auto mapper = dataflows::makeMapper("search");
  const sim::analytical::MemoryModel mem(acc, false);
  const sim::ConvSearch s{g, acc, *mapper, df, mem, "latency"};
  FusedGroup grp = sim::convSchedule(s, c, dataflows::convChainDims(c, g), rows, cols, keep,
                                     resident, {0, 0, 0, 0});
  for (FusedGroup::Block& blk : grp.blocks) {
    if (mapped) blk.mapping = mapper->map(blk.problem, acc, df, {}).mapping;
  }
  return grp;
}

const MemberCost& memberOf(const GroupCost& c, int op) {
  for (const MemberCost& m : c.members) {
    if (m.op == op) return m;
  }
  throw std::runtime_error("no member");
}

TEST(ConvChain, FoundWithTheConvsOwnEpilogue) {
  const models::Graph g = twoConvs();
  const models::ChainGroup c = chainOf(g);
  EXPECT_EQ(c.kind, models::ChainKind::ConvChain);
  EXPECT_EQ(c.convs, (std::vector<int>{0, 2}));
  EXPECT_EQ(c.ops, (std::vector<int>{0, 1, 2}));  // conv1, relu1, conv2
  // ResNet-50: every bottleneck's conv1 -> bn -> relu -> conv2 -> bn -> relu -> conv3 (its
  // bn3 stays conv3's epilogue; the block's output feeds the next block and its residual).
  models::WorkloadOptions o;
  o.dtype = DType::Int8;
  const models::Graph r = models::build("resnet50", o);
  int convs = 0;
  for (const models::ChainGroup& x : models::findChains(r)) {
    EXPECT_EQ(x.kind, models::ChainKind::ConvChain);
    EXPECT_EQ(x.convs.size(), 3u);
    EXPECT_EQ(x.ops.size(), 7u);
    convs += static_cast<int>(x.convs.size());
  }
  EXPECT_EQ(convs, 16 * 3);
}

// Bands of 4 rows of conv2's output (16 rows): band j needs conv1's rows [4j - 1, 4j + 5)
// clipped to [0, 16): 5, 6, 6, 5 = 22 rows; those read the input's rows [4j - 2, 4j + 6)
// clipped: 6, 8, 8, 6 = 28 rows. With keep each row is computed and read once: conv1's fresh
// rows 5, 4, 4, 3, the input's 6, 4, 4, 2.
TEST(ConvChain, HalosByHand) {
  const models::Graph g = twoConvs();
  const dataflows::ConvChainDims d = dataflows::convChainDims(chainOf(g), g);
  const dataflows::AxisTiles rows = dataflows::axisTiles(d, true, 4);
  ASSERT_EQ(rows.needed.size(), 4u);
  const std::vector<std::vector<int64_t>> needed{{6, 5, 4}, {8, 6, 4}, {8, 6, 4}, {6, 5, 4}};
  const std::vector<std::vector<int64_t>> fresh{{6, 5, 4}, {4, 4, 4}, {4, 4, 4}, {2, 3, 4}};
  EXPECT_EQ(rows.needed, needed);
  EXPECT_EQ(rows.fresh, fresh);
  const dataflows::ConvBands r = dataflows::convBands(d, 4, 16, false);
  EXPECT_EQ(r.tiles, 4);
  EXPECT_EQ(r.positions, (std::vector<double>{28 * 16, 22 * 16, 16 * 16}));
  EXPECT_EQ(r.block_rows, (std::vector<int64_t>{8, 6, 4}));  // the largest tile of each level
  EXPECT_EQ(r.in_rows, (std::vector<int64_t>{0, 8, 6}));
  const dataflows::ConvBands k = dataflows::convBands(d, 4, 16, true);
  EXPECT_EQ(k.positions, (std::vector<double>{16 * 16, 16 * 16, 16 * 16}));
  EXPECT_EQ(k.held, r.held);  // a whole-width band's window is its line buffer
}

// The same bands costed: MACs per output position of either conv 8 x 8 x 9 = 576.
//   recompute: conv1 22 rows x 16 x 576 = 202,752 MACs (147,456 unfused: the halo's price),
//     conv2 16 x 16 x 576 = 147,456. DRAM: the input's bands 28 x 16 x 8 B = 3,584; each
//     conv's 576 B of weights once per band, 2,304; the output once, 2,048; conv1's output
//     never. Scratchpad fills: the input's 3,584, the weights' 2,304 each, conv1's output as
//     it drains, 22 x 16 x 8 = 2,816.
//   keep: conv1 computes 16 rows (147,456 MACs), the input is read once (2,048 B), the fills of
//     conv1's output 2,048.
//   resident weights: 576 B each from DRAM, once.
TEST(ConvChain, TrafficByHand) {
  const arch::Accelerator acc = design();
  const sim::analytical::MemoryModel mem(acc, false);
  const models::Graph g = twoConvs();
  for (bool keep : {false, true}) {
    for (int resident : {-1, 1}) {
      SCOPED_TRACE(std::string(keep ? "keep" : "recompute") + (resident < 0 ? "" : " resident"));
      const FusedGroup grp = scheduleOf(g, acc, 4, 16, keep, resident);
      const GroupCost c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
      ASSERT_TRUE(c.ok) << c.reason;
      const MemberCost& conv1 = memberOf(c, 0);
      const MemberCost& relu = memberOf(c, 1);
      const MemberCost& conv2 = memberOf(c, 2);
      const double rows1 = keep ? 16 : 22, in_rows = keep ? 16 : 28;
      const double w = resident < 0 ? 4 * 576 : 576;
      EXPECT_EQ(conv1.macs, static_cast<int64_t>(rows1 * 16 * 576));
      EXPECT_EQ(conv2.macs, 147456);
      EXPECT_EQ(relu.macs, 0);
      // DRAM (level 0), by operand.
      EXPECT_DOUBLE_EQ(conv1.reads[0][kIn], in_rows * 16 * 8);
      EXPECT_DOUBLE_EQ(conv1.reads[0][kW], w);
      EXPECT_DOUBLE_EQ(conv2.reads[0][kW], w);
      EXPECT_DOUBLE_EQ(conv2.writes[0][kOut], 2048);
      EXPECT_DOUBLE_EQ(conv1.writes[0][kOut] + conv2.reads[0][kIn] + conv1.reads[0][kOut] +
                           conv2.reads[0][kOut] + relu.reads[0][kIn] + relu.writes[0][kOut],
                       0);
      EXPECT_DOUBLE_EQ(conv1.offchip.read[0] + conv2.offchip.read[0] + conv2.offchip.write[0],
                       in_rows * 16 * 8 + 2 * w + 2048);
      EXPECT_DOUBLE_EQ(c.offchip_bytes, in_rows * 16 * 8 + 2 * w + 2048);
      // Scratchpad (level 1) fills.
      EXPECT_DOUBLE_EQ(conv1.writes[1][kIn], in_rows * 16 * 8);
      EXPECT_DOUBLE_EQ(conv1.writes[1][kW], w);
      EXPECT_DOUBLE_EQ(conv2.writes[1][kIn], rows1 * 16 * 8);
      EXPECT_DOUBLE_EQ(conv2.writes[1][kW], w);
      // The relu drains with conv1 on the accumulator's path: no time, no bytes of its own.
      EXPECT_DOUBLE_EQ(c.vector, 0);
      for (size_t l = 0; l < 3; ++l) {
        for (size_t t = 0; t < 3; ++t) EXPECT_DOUBLE_EQ(relu.reads[l][t] + relu.writes[l][t], 0);
      }
      // The block GEMMs read their operands from the scratchpad and nothing else from DRAM.
      EXPECT_GT(conv1.reads[1][kIn], 0);
      EXPECT_GT(conv2.reads[1][kIn], 0);
      double sum = 0;
      for (const MemberCost& m : c.members) {
        for (double x : m.cycles) sum += x;
      }
      EXPECT_NEAR(sum, c.cycles, 1e-9 * c.cycles);
    }
  }
}

// Whole height (one band): the input 16 x 16 x 8 = 2,048 B (no next band to load), conv1's
// output 2,048 B, two chunks of weights (576 B each: 16 array columns cover conv2's 8 output
// channels) = 5,248 B. A 4 KiB scratchpad refuses it; bands of 4 rows fit: the input's window
// 8 rows (1,024 B) and the next band's 8 rows, conv1's 6 rows (768 B), the two chunks: 3,968 B.
TEST(ConvChain, WindowsMustFitTheScratchpad) {
  const arch::Accelerator acc = design(4096);
  const models::Graph g = twoConvs();
  const std::string why = sim::analytical::groupFits(scheduleOf(g, acc, 16, 16, false, -1), g, acc);
  EXPECT_EQ(why, "the scratchpad needs 5248 B, holds 4096");
  EXPECT_EQ(sim::analytical::groupFits(scheduleOf(g, acc, 4, 16, false, -1), g, acc), "");
  EXPECT_EQ(
      sim::analytical::groupFits(scheduleOf(g, design(3967), 4, 16, false, -1), g, design(3967)),
      "the scratchpad needs 3968 B, holds 3967");
}

// More scratchpad never gives more DRAM bytes: over every schedule (each band height and tile
// width, recompute and keep, weights resident or not) and over the schedules the search maps,
// the fewest bytes of those that fit only fall as the scratchpad grows (47,008 B at 1,664 B
// down to 13,056 at 2,176). The compulsory 5,248 B (the input and the output once, 2,048 B each,
// both convs' 576 B of weights once) from 2,264 B: 1 x 1 tiles with keep and the weights
// resident (1,152 B); the input's 5 x 5 window and its line buffer of 4 rows x 16 (89 x 8 B =
// 712 B) and the next tile's part (at most 3 x 3 x 8 = 72 B); conv1's 3 x 3 window and its line
// buffer of 2 rows x 16 (41 x 8 = 328 B).
TEST(ConvChain, MoreCapacityNeverMoreDramBytes) {
  const models::Graph g = twoConvs();
  const models::ChainGroup c = chainOf(g);
  const auto df = dataflows::loadDataflow("ws");
  auto mapper = dataflows::makeMapper("search");
  double last_all = std::numeric_limits<double>::infinity(), last_searched = last_all;
  int fitted = 0;
  for (int64_t cap : {1536, 1664, 1792, 1920, 2048, 2176, 2263, 2264, 65536}) {
    SCOPED_TRACE(cap);
    const arch::Accelerator acc = design(cap);
    const sim::analytical::MemoryModel mem(acc, false);
    double all = std::numeric_limits<double>::infinity();
    for (int64_t rows = 1; rows <= 16; ++rows) {
      for (int64_t cols = 1; cols <= 16; ++cols) {
        for (bool keep : {false, true}) {
          for (int resident : {-1, 1}) {
            // Unmapped: the bytes do not depend on the blocks' mappings.
            const FusedGroup grp = scheduleOf(g, acc, rows, cols, keep, resident, false);
            const GroupCost x = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
            if (x.ok) all = std::min(all, x.offchip_bytes), ++fitted;
          }
        }
      }
    }
    double searched = std::numeric_limits<double>::infinity();
    const sim::ConvSearch s{g, acc, *mapper, df, mem, "energy"};
    for (const FusedGroup& grp : sim::convSchedules(s, c, {0, 0, 0, 0}, DType::Int8, {-1, 1})) {
      searched =
          std::min(searched, sim::analytical::evaluateGroup(grp, g, acc, mem, false).offchip_bytes);
    }
    EXPECT_LE(all, last_all);
    EXPECT_LE(searched, last_searched);
    EXPECT_LE(all, searched);
    if (cap == 2263) {
      EXPECT_GT(searched, 5248);
    }
    if (cap == 2264) {
      EXPECT_EQ(searched, 5248);
    }
    last_all = all;
    last_searched = searched;
  }
  EXPECT_GT(fitted, 0);
  EXPECT_DOUBLE_EQ(last_searched, 5248);
}

// Runs of a chain of four convs: the disjoint ones that save the most.
TEST(ConvChain, PicksTheDisjointRunsThatSaveMost) {
  using sim::SegmentGain;
  // Whole chain 5 against [0, 1] + [2, 3] = 3 + 3.
  std::vector<size_t> p = sim::pickSegments({{0, 3, 5}, {0, 1, 3}, {2, 3, 3}, {1, 2, 4}}, 4);
  std::sort(p.begin(), p.end());
  EXPECT_EQ(p, (std::vector<size_t>{1, 2}));
  // [1, 2] alone beats either overlapping pair; a run that saves nothing is never picked.
  EXPECT_EQ(sim::pickSegments({{0, 1, 3}, {1, 2, 8}, {2, 3, 3}, {0, 3, 0}}, 4),
            (std::vector<size_t>{1}));
  EXPECT_TRUE(sim::pickSegments({{0, 1, -1}}, 2).empty());
}

// ResNet-50's first bottleneck, 56 x 56 x 64 -> 1x1 (64) -> 3x3 (64) -> 1x1 (256), each with its
// batch norm (and relu), on gemmini-default (256 KiB scratchpad, no L2). Under the energy
// objective its convs fuse: the two 56 x 56 x 64 INT8 intermediates (200,704 B each) are
// neither written nor read back, at least 802,816 B less DRAM traffic, and less energy. Under
// latency a fused group is chosen only if faster.
models::Graph bottleneck() {
  models::Graph g;
  g.name = "bottleneck";
  models::detail::Builder b{g, DType::Int8};
  int x = b.input("x", {1, 56, 56, 64}, DType::Int8);
  x = models::detail::conv2d(b, "conv1", x, {64, 1, 1, 1, 0});
  x = models::detail::batchNorm(b, "bn1", x);
  x = models::detail::unary(b, "relu1", models::OpKind::Relu, x);
  x = models::detail::conv2d(b, "conv2", x, {64, 3, 3, 1, 1});
  x = models::detail::batchNorm(b, "bn2", x);
  x = models::detail::unary(b, "relu2", models::OpKind::Relu, x);
  x = models::detail::conv2d(b, "conv3", x, {256, 1, 1, 1, 0});
  models::detail::batchNorm(b, "bn3", x);
  return g;
}

TEST(ConvChain, FusesOnAShippedDesignWhereItPays) {
  const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml", {});
  const models::Graph g = bottleneck();
  const auto df = dataflows::loadDataflow("ws");
  for (const std::string objective : {"energy", "latency"}) {
    SCOPED_TRACE(objective);
    sim::RunOptions o;
    o.plan.mapper = "search";
    o.plan.mapper_options.objective = objective;
    // Pure latency: the default tolerance takes the least energy within 1 % of the fastest, so
    // a fused chain may then be slower by up to that.
    o.plan.mapper_options.tolerance = 0;
    o.plan.fusion = dataflows::FusionMode::Epilogue;
    const sim::RunStats epilogue = sim::simulate(g, acc, df, o);
    o.plan.fusion = dataflows::FusionMode::Auto;
    const sim::RunStats fused = sim::simulate(g, acc, df, o);
    if (objective == "energy") {
      ASSERT_EQ(fused.fusion_groups.size(), 1u);
      EXPECT_EQ(fused.fusion_groups[0].kind, "conv");
      EXPECT_GE(epilogue.bytesAt("dram") - fused.bytesAt("dram"), 2 * 2 * 200704);
      EXPECT_LT(fused.energyTotalPj(), epilogue.energyTotalPj());
    } else {
      EXPECT_LE(fused.totalCycles(), epilogue.totalCycles());
    }
    EXPECT_EQ(fused.totalMacs(), epilogue.totalMacs());  // keep: no halo computed twice
  }
}

}  // namespace
}  // namespace tessel
