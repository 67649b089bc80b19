// The fused-group cost model against independent references: a brute-force walk of the fused
// attention loop nest (every block, every load), an FFN's traffic by hand, and more buffer never
// costing more DRAM bytes.
#include <gtest/gtest.h>

#include <limits>

#include "dataflows/mapper.h"
#include "models/builder.h"
#include "models/chains.h"
#include "models/transformer.h"
#include "models/workload.h"
#include "sim/analytical/fused_cost.h"
#include "tests/sim/tiny_arch.h"

namespace tessel {
namespace {

using dataflows::FusedGroup;

// What a naive walk of the fused loop nest touches, per unit (one K/V head's rows).
struct Walk {
  int64_t blocks = 0, key_rows = 0, scores = 0, rescales = 0;
};

// for each query block i, for each key block j (skipped when every key in it is above every
// query's causal limit): load K/V block j, compute its scores (whole block, then masked), and
// rescale the partial output once for every block after the first.
Walk walk(int64_t s, int64_t t, int64_t br, int64_t bc, bool causal) {
  Walk w;
  for (int64_t q0 = 0; q0 < s; q0 += br) {
    const int64_t rows = std::min(br, s - q0);
    int64_t seen = 0;
    for (int64_t k0 = 0; k0 < t; k0 += bc) {
      bool any = !causal;
      for (int64_t r = q0; r < q0 + rows && !any; ++r) any = k0 <= r + (t - s);
      if (!any) continue;
      const int64_t cols = std::min(bc, t - k0);
      w.blocks += 1;
      w.key_rows += cols;
      w.scores += rows * cols;
      if (seen++ > 0) w.rescales += rows;
    }
  }
  return w;
}

TEST(FusedSearch, BlockCountsMatchABruteForceWalkOfTheNest) {
  for (bool causal : {false, true}) {
    for (auto [s, t] : {std::pair<int64_t, int64_t>{1, 37}, {7, 7}, {33, 33}, {20, 50}, {64, 64}}) {
      for (int64_t br : {1, 3, 8, 16, 64}) {
        for (int64_t bc : {1, 5, 16, 50, 64}) {
          dataflows::AttentionDims d;
          d.queries = s;
          d.keys = t;
          d.causal = causal;
          const auto b = dataflows::attentionBlocks(d, br, bc);
          const Walk w = walk(s, t, br, bc, causal);
          SCOPED_TRACE(std::to_string(s) + "x" + std::to_string(t) + " blocks " +
                       std::to_string(br) + "x" + std::to_string(bc) + (causal ? " causal" : ""));
          EXPECT_EQ(b.blocks, w.blocks);
          EXPECT_EQ(b.key_rows, w.key_rows);
          EXPECT_EQ(b.score_elems, w.scores);
          EXPECT_EQ(b.rescale_rows, w.rescales);
        }
      }
    }
  }
}

arch::Accelerator design(uint64_t scratchpad, uint64_t accumulator) {
  auto a = testing::tinyArch(16);
  a.levels[1].capacity_bytes = scratchpad;
  a.levels[2].capacity_bytes = accumulator;
  a.sfu = arch::Sfu{{"softmax", "gelu", "silu", "mul"}, 16, true, 1, 0};
  return a;
}

// An L2 of `capacity` (64 B/cycle, 4 cycles) between DRAM and the scratchpad: level 1.
void addL2(arch::Accelerator& acc, uint64_t capacity) {
  arch::StorageLevel l2;
  l2.name = "l2";
  l2.kind = arch::LevelKind::L2;
  l2.capacity_bytes = capacity;
  l2.bandwidth = 64;
  l2.latency = 4;
  l2.holds = {true, true, true};
  acc.levels.insert(acc.levels.begin() + 1, l2);
}

FusedGroup::Block block(const models::Graph& g, int op, models::GemmShape shape, double n,
                        const arch::Accelerator& acc) {
  models::Op b = g.op(op);
  b.gemm = shape;
  FusedGroup::Block blk{op, dataflows::problemOf(b, g), {}, n};
  blk.mapping = dataflows::makeMapper("search")->map(blk.problem, acc, dataflows::loadDataflow("ws"), {}).mapping;
  return blk;
}

// GPT-2's FFN at 32 tokens of width 64 (fc 64 -> 256, GELU, proj 256 -> 64), INT8.
models::Graph gpt2Ffn() {
  models::Graph g;
  g.name = "ffn";
  models::detail::Builder b{g, DType::Int8};
  const int x = b.input("x", {1, 32, 64}, DType::Int8);
  models::detail::feedForward(b, "mlp", x, 256, true);
  return g;
}

// GPT-2's FFN at 32 tokens of width 64 (fc 64 -> 256, GELU, proj 256 -> 64), INT8: 32-row
// blocks, 64-column hidden chunks -> 1 row block x 4 chunks.
TEST(FusedSearch, FfnTrafficByHand) {
  const models::Graph g = gpt2Ffn();
  const auto chains = models::findChains(g);
  ASSERT_EQ(chains.size(), 1u);
  ASSERT_EQ(chains[0].kind, models::ChainKind::Ffn);
  const arch::Accelerator acc = design(64 * 1024, 16 * 1024);
  const sim::analytical::MemoryModel mem(acc, false);
  for (int resident : {-1, 1}) {
    FusedGroup grp;
    grp.chain = chains[0];
    grp.block_rows = 32;
    grp.block_cols = 64;
    grp.resident_level = resident;
    grp.blocks.push_back(block(g, chains[0].up[0], {1, 32, 64, 64}, 4, acc));
    grp.blocks.push_back(block(g, chains[0].down, {1, 32, 64, 64}, 4, acc));
    const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
    ASSERT_TRUE(c.ok) << c.reason;
    double x_read = 0, w_read = 0, y_write = 0, other = 0;
    for (const auto& m : c.members) {
      x_read += m.reads[0][0];
      w_read += m.reads[0][1];
      y_write += m.writes[0][2];
      other += m.writes[0][0] + m.writes[0][1] + m.reads[0][2];
    }
    // Input 32 x 64 B once; weights 64 x 256 + 256 x 64 = 32 KiB once (one row block, so the
    // same resident or not); output 32 x 64 B once; the 32 x 256 hidden never.
    EXPECT_DOUBLE_EQ(x_read, 2048);
    EXPECT_DOUBLE_EQ(w_read, 32768);
    EXPECT_DOUBLE_EQ(y_write, 2048);
    EXPECT_DOUBLE_EQ(other, 0);
  }
}

// The same FFN with its running output in a 64 KiB L2 between DRAM and the scratchpad: 16-row
// blocks, 64-column chunks -> 2 row blocks x 4 chunks.
TEST(FusedSearch, FfnPartialSumsInTheL2ByHand) {
  const models::Graph g = gpt2Ffn();
  const auto chains = models::findChains(g);
  ASSERT_EQ(chains.size(), 1u);
  arch::Accelerator acc = design(64 * 1024, 16 * 1024);
  addL2(acc, 64 * 1024);
  const sim::analytical::MemoryModel mem(acc, false);
  for (bool stream_input : {false, true}) {
    SCOPED_TRACE(stream_input ? "input per chunk" : "input per row block");
    FusedGroup grp;
    grp.chain = chains[0];
    grp.block_rows = 16;
    grp.block_cols = 64;
    grp.partials_level = 1;
    grp.stream_input = stream_input;
    grp.blocks.push_back(block(g, chains[0].up[0], {1, 16, 64, 64}, 8, acc));
    grp.blocks.push_back(block(g, chains[0].down, {1, 16, 64, 64}, 8, acc));
    ASSERT_EQ(grp.schedule(), "partials");
    const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
    ASSERT_TRUE(c.ok) << c.reason;
    double dram[3][2] = {}, l2_bytes[3][2] = {};
    for (const auto& m : c.members) {
      for (size_t t = 0; t < 3; ++t) {
        dram[t][0] += m.reads[0][t], dram[t][1] += m.writes[0][t];
        l2_bytes[t][0] += m.reads[1][t], l2_bytes[t][1] += m.writes[1][t];
      }
    }
    // Input 32 x 64 B from DRAM once (streamed: staged in the L2 once, read there per chunk,
    // 4x); weights 32 KiB per row block (2x); the output 32 x 64 B once.
    EXPECT_DOUBLE_EQ(dram[0][0], 2048);
    EXPECT_DOUBLE_EQ(dram[1][0], 65536);
    EXPECT_DOUBLE_EQ(dram[2][1], 2048);
    EXPECT_DOUBLE_EQ(dram[0][1] + dram[1][1] + dram[2][0], 0);
    // The running output, 32 x 64 INT32 = 8 KiB, read and written back in the L2 for each chunk
    // but one: 3 x 8192 B each way; the staged input written once and read per chunk.
    EXPECT_DOUBLE_EQ(l2_bytes[2][0], 24576);
    EXPECT_DOUBLE_EQ(l2_bytes[2][1], 24576);
    EXPECT_DOUBLE_EQ(l2_bytes[0][1], stream_input ? 2048 : 0);
    EXPECT_DOUBLE_EQ(l2_bytes[0][0], stream_input ? 8192 : 0);
    EXPECT_DOUBLE_EQ(l2_bytes[1][0] + l2_bytes[1][1], 0);
    // An L2 of 8 KiB gives 4 KiB: a 16 x 64 x 4 B = 4 KiB running output fits, not with its
    // 16 x 64 B staged input beside it (5 KiB), and 32 rows (8 KiB) never; the refusal names it.
    arch::Accelerator small = acc;
    small.levels[1].capacity_bytes = 8 * 1024;
    const std::string fits = sim::analytical::groupFits(grp, g, small);
    if (stream_input) {
      EXPECT_NE(fits.find("and the input need 5120 B, half of l2 holds 4096"), std::string::npos)
          << fits;
    } else {
      EXPECT_EQ(fits, "");
    }
    FusedGroup big = grp;
    big.block_rows = 32;
    const std::string why = sim::analytical::groupFits(big, g, small);
    EXPECT_NE(why.find("half of l2 holds 4096"), std::string::npos) << why;
  }
}

// The gate-up half of a gated FFN (gate and up in one loop nest, act(gate) * up on the vector
// unit, the product written out; the down projection outside): ffn:S=32,D=64,F=256 INT8 (every
// tensor one byte), 16-row blocks x 64-column chunks -> 2 row blocks x 4 chunks.
TEST(FusedSearch, GateUpHalfTrafficByHand) {
  models::WorkloadOptions o;
  o.dtype = DType::Int8;
  const models::Graph g = models::build("ffn:S=32,D=64,F=256", o);
  const auto chains = models::findChains(g);
  ASSERT_EQ(chains.size(), 1u);
  ASSERT_GE(chains[0].gate_mul, 0);
  const models::ChainGroup half = models::gateUpOf(chains[0]);
  EXPECT_EQ(half.ops.size(), 4u);  // gate, up, silu, the product
  EXPECT_TRUE(half.gateUp());
  EXPECT_EQ(half.ffnOutput(), chains[0].gate_mul);
  EXPECT_EQ(dataflows::ffnDims(half, g).out, 0);
  const arch::Accelerator acc = design(64 * 1024, 16 * 1024);
  const sim::analytical::MemoryModel mem(acc, false);
  for (int resident : {-1, 1}) {
    for (bool stream_input : {false, true}) {
      SCOPED_TRACE(std::to_string(resident) + (stream_input ? " input per chunk" : ""));
      FusedGroup grp;
      grp.chain = half;
      grp.block_rows = 16;
      grp.block_cols = 64;
      grp.resident_level = resident;
      grp.stream_input = stream_input;
      for (int up : half.up) grp.blocks.push_back(block(g, up, {1, 16, 64, 64}, 8, acc));
      ASSERT_EQ(grp.schedule(), "gate_up");
      const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
      ASSERT_TRUE(c.ok) << c.reason;
      double dram[3][2] = {};
      int64_t macs = 0;
      for (const auto& m : c.members) {
        for (size_t t = 0; t < 3; ++t) dram[t][0] += m.reads[0][t], dram[t][1] += m.writes[0][t];
        macs += m.macs;
      }
      // The input, 32 x 64 B, once (kept per row block) or once per chunk (4 x 2048 B).
      EXPECT_DOUBLE_EQ(dram[0][0], stream_input ? 8192 : 2048);
      // Gate and up weights, 64 x 256 B each: once per row block (2 x 32 KiB), or once when they
      // stay in the scratchpad.
      EXPECT_DOUBLE_EQ(dram[1][0], resident < 0 ? 65536 : 32768);
      // The product, 32 x 256 B, written once; the gate's and up's outputs never leave.
      EXPECT_DOUBLE_EQ(dram[2][1], 8192);
      EXPECT_DOUBLE_EQ(dram[0][1] + dram[1][1] + dram[2][0], 0);
      EXPECT_EQ(macs, 2 * 32 * 64 * 256);
      // SiLU and the product, one pass each over 32 x 256 values on the 16-lane SFU.
      EXPECT_DOUBLE_EQ(c.vector, 2.0 * 32 * 256 / 16);
    }
  }
  // Streamed through a 64 KiB L2 (level 1): each 16-row block of the input (1 KiB) is read from
  // DRAM once and written to the L2 once, then read there for each of the 4 chunks.
  arch::Accelerator with_l2 = acc;
  addL2(with_l2, 64 * 1024);
  const sim::analytical::MemoryModel mem2(with_l2, false);
  FusedGroup grp;
  grp.chain = half;
  grp.block_rows = 16;
  grp.block_cols = 64;
  grp.stream_input = true;
  grp.stage_level = 1;
  for (int up : half.up) grp.blocks.push_back(block(g, up, {1, 16, 64, 64}, 8, with_l2));
  ASSERT_EQ(grp.stagingLevel(), 1);
  const auto c = sim::analytical::evaluateGroup(grp, g, with_l2, mem2, false);
  ASSERT_TRUE(c.ok) << c.reason;
  double x_dram = 0, x_l2_write = 0, x_l2_read = 0;
  for (const auto& m : c.members) {
    x_dram += m.reads[0][0];
    x_l2_write += m.writes[1][0];
    x_l2_read += m.reads[1][0];
  }
  EXPECT_DOUBLE_EQ(x_dram, 2048);
  EXPECT_DOUBLE_EQ(x_l2_write, 2048);
  EXPECT_DOUBLE_EQ(x_l2_read, 8192);
  // Half of a 2 KiB L2 holds the 16-row block (1 KiB) exactly, not a 32-row one.
  with_l2.levels[1].capacity_bytes = 2 * 1024;
  EXPECT_EQ(sim::analytical::groupFits(grp, g, with_l2), "");
  grp.block_rows = 32;
  EXPECT_NE(sim::analytical::groupFits(grp, g, with_l2)
                .find("the staged input needs 2048 B, half of l2 holds 1024"),
            std::string::npos);
}

// Through an accumulator port of 4 B/cycle, the down projection's blocks are port-bound: their
// time is every byte of outputs they move through the accumulator — their own partial sums and
// the running output's (chunks - 1) trips in and out — over the port's rate.
TEST(FusedSearch, TheRunningOutputTakesTheAccumulatorPort) {
  const models::Graph g = gpt2Ffn();
  const auto chains = models::findChains(g);
  ASSERT_EQ(chains.size(), 1u);
  arch::Accelerator acc = design(64 * 1024, 16 * 1024);
  acc.levels[2].bandwidth = 4;
  addL2(acc, 64 * 1024);
  const sim::analytical::MemoryModel mem(acc, false);
  FusedGroup grp;
  grp.chain = chains[0];
  grp.block_rows = 16;
  grp.block_cols = 64;
  grp.partials_level = 1;
  grp.blocks.push_back(block(g, chains[0].up[0], {1, 16, 64, 64}, 8, acc));
  grp.blocks.push_back(block(g, chains[0].down, {1, 16, 64, 64}, 8, acc));
  const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
  ASSERT_TRUE(c.ok) << c.reason;
  const sim::analytical::MemberCost* down = nullptr;
  for (const auto& m : c.members) down = m.op == chains[0].down ? &m : down;
  ASSERT_NE(down, nullptr);
  const double bytes = down->reads[3][2] + down->writes[3][2];
  const double array = down->cycles[size_t(sim::Cause::Compute)] +
                       down->cycles[size_t(sim::Cause::FillDrain)] +
                       down->cycles[size_t(sim::Cause::Noc)];
  EXPECT_GT(c.partials_port_cycles, 0);
  EXPECT_NEAR(array, bytes / 4, 1e-9 * array);
}

// The fewest DRAM bytes over every schedule that fits never grows with the scratchpad: a
// schedule that fits a buffer fits every larger one, and its traffic does not depend on it.
TEST(FusedSearch, MoreBufferNeverMeansMoreDramBytes) {
  models::WorkloadOptions o;
  o.dtype = DType::Int8;
  const models::Graph g = models::build("attention:S=64,T=64,H=4,KV=2,D=16,causal=1", o);
  const auto chains = models::findChains(g);
  ASSERT_EQ(chains.size(), 1u);
  const dataflows::AttentionDims d = dataflows::attentionDims(chains[0], g);
  double previous = std::numeric_limits<double>::infinity();
  int fitting = 0;
  for (uint64_t kib : {4, 8, 16, 32, 64, 128}) {
    const arch::Accelerator acc = design(kib * 1024, 16 * 1024);
    const sim::analytical::MemoryModel mem(acc, false);
    double best = std::numeric_limits<double>::infinity();
    for (int64_t br : dataflows::blockSizes(d.queries, 1)) {
      for (int64_t bc : dataflows::blockSizes(d.keys, 1)) {
        for (int resident : {-1, 1}) {
          FusedGroup grp;
          grp.chain = chains[0];
          grp.block_rows = br;
          grp.block_cols = bc;
          grp.online_softmax = bc < d.keys;
          grp.resident_level = resident;
          if (!sim::analytical::groupFits(grp, g, acc).empty()) continue;
          const double n = static_cast<double>(dataflows::attentionBlocks(d, br, bc).blocks);
          const int64_t rows = d.group * std::min(br, d.queries);
          // DRAM bytes do not depend on the block GEMMs' mappings: bounds suffice.
          grp.blocks = {{chains[0].score, {}, {}, n}, {chains[0].context, {}, {}, n}};
          models::Op sc = g.op(chains[0].score), cx = g.op(chains[0].context);
          sc.gemm = {d.units, rows, std::min(bc, d.keys), d.head_dim};
          cx.gemm = {d.units, rows, d.value_dim, std::min(bc, d.keys)};
          grp.blocks[0].problem = dataflows::problemOf(sc, g);
          grp.blocks[1].problem = dataflows::problemOf(cx, g);
          const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
          ASSERT_TRUE(c.ok) << c.reason;
          best = std::min(best, c.offchip_bytes);
          ++fitting;
        }
      }
    }
    EXPECT_LE(best, previous) << kib << " KiB";
    previous = best;
  }
  EXPECT_GT(fitting, 0);
  // At 128 KiB every K/V head (64 keys x 16 x 2 B) stays resident: Q, K, V and O once:
  // Q 64 x 4 x 16 + K 64 x 2 x 16 + V the same + O 64 x 4 x 16 = 1024 x 12 B.
  EXPECT_DOUBLE_EQ(previous, 4096 + 2048 + 2048 + 4096);
}


// The same for an FFN over an L2 (its running output's home under `partials`, where its weights
// may stay): ffn:S=256,D=64,F=256 INT8, every schedule of rows x chunks, residency, partials and
// input streaming the search tries, bytes in DRAM only.
TEST(FusedSearch, MoreL2NeverMeansMoreDramBytesForAnFfn) {
  models::WorkloadOptions o;
  o.dtype = DType::Int8;
  const models::Graph g = models::build("ffn:S=256,D=64,F=256", o);
  const auto chains = models::findChains(g);
  ASSERT_EQ(chains.size(), 1u);
  const dataflows::FfnDims d = dataflows::ffnDims(chains[0], g);
  const double weights = 3.0 * 64 * 256;
  double previous = std::numeric_limits<double>::infinity();
  for (uint64_t kib : {8, 16, 32, 64, 128, 256}) {
    arch::Accelerator acc = design(64 * 1024, 16 * 1024);
    addL2(acc, kib * 1024);
    const sim::analytical::MemoryModel mem(acc, false);
    double best = std::numeric_limits<double>::infinity();
    for (int64_t rows : dataflows::blockSizes(d.rows, 1)) {
      for (int64_t cols : dataflows::blockSizes(d.hidden, 16)) {
        for (int resident : {-1, 1, 2}) {
          if (resident == 1 && weights > static_cast<double>(kib * 1024) / 2) continue;
          for (auto [partials, stream_input] : {std::pair{-1, false}, {1, false}, {1, true}}) {
            FusedGroup grp;
            grp.chain = chains[0];
            grp.block_rows = rows;
            grp.block_cols = cols;
            grp.resident_level = resident;
            grp.partials_level = partials;
            grp.stream_input = stream_input;
            if (!sim::analytical::groupFits(grp, g, acc).empty()) continue;
            const double n = static_cast<double>(((d.rows + rows - 1) / rows) *
                                                 ((d.hidden + cols - 1) / cols));
            for (int id : {chains[0].up[0], chains[0].up[1], chains[0].down}) {
              models::Op op = g.op(id);
              op.gemm = id == chains[0].down ? models::GemmShape{1, rows, d.out, cols}
                                             : models::GemmShape{1, rows, cols, d.model};
              grp.blocks.push_back({id, dataflows::problemOf(op, g), {}, n});
            }
            const auto c = sim::analytical::evaluateGroup(grp, g, acc, mem, false);
            ASSERT_TRUE(c.ok) << c.reason;
            double dram = 0;
            for (const auto& m : c.members) {
              for (size_t t = 0; t < 3; ++t) dram += m.reads[0][t] + m.writes[0][t];
            }
            best = std::min(best, dram);
          }
        }
      }
    }
    EXPECT_LE(best, previous) << kib << " KiB";
    previous = best;
  }
  // At 256 KiB the 256 x 64 INT32 running output (64 KiB) fits half the L2 with the input
  // staged beside it, so one row block: x once (256 x 64 B), the weights once (3 x 64 x 256 B),
  // the output once (256 x 64 B).
  EXPECT_DOUBLE_EQ(previous, 16384 + 49152 + 16384);
}

}  // namespace
}  // namespace tessel
