// A model split over a system's chips (systems/parallel.h), against the single-chip run and
// counts derived by hand.
#include <gtest/gtest.h>

#include "models/workload.h"
#include "sim/run.h"
#include "systems/parallel.h"
#include "util/error.h"

namespace tessel::systems {
namespace {

const std::string kChip = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml";

System systemOf(const std::string& topology, int count) {
  return loadSystemString("system:\n  chip: " + kChip + "\n  count: " + std::to_string(count) +
                              "\n  topology: " + topology +
                              "\n  link: {bandwidth: 50 GB/s, latency: 1 us, energy: 10 pJ/B}\n"
                              "  collective_overhead: 10 us\n",
                          "s.yaml");
}

models::WorkloadOptions options(const std::string& phase, int64_t seq, int64_t batch, int64_t layers,
                                int64_t tp = 1, int64_t ep = 1) {
  models::WorkloadOptions o;
  o.phase = phase;
  o.seq = seq;
  o.batch = batch;
  o.layers = layers;
  o.dtype = DType::BF16;
  o.tensor_parallel = tp;
  o.expert_parallel = ep;
  return o;
}

sim::RunOptions quick() {
  sim::RunOptions r;
  r.plan.mapper_options.budget = 500;
  return r;
}

int64_t weightBytes(const models::Graph& g) {
  int64_t b = 0;
  for (const models::Tensor& t : g.tensors())
    if (t.role == models::TensorRole::Weight) b += t.bytes();
  return b;
}

TEST(Parallel, ASystemOfOneChipIsThatChipsRun) {
  const System sys = systemOf("{kind: ring}", 1);
  const models::Graph g = models::build("llama-3.2-1b", options("prefill", 128, 1, 2));
  const dataflows::Dataflow df = dataflows::loadDataflow("ws");
  const SystemRun r = runOnSystem(sys, g, {}, df, quick());
  const sim::RunStats alone = sim::simulate(g, sys.chip, df, quick());
  EXPECT_EQ(r.chip.totalCycles(), alone.totalCycles());
  EXPECT_EQ(r.chip.energyTotalPj(), alone.energyTotalPj());
  EXPECT_DOUBLE_EQ(r.latency_s, alone.seconds());
  EXPECT_TRUE(r.communication.empty());
  EXPECT_DOUBLE_EQ(r.energy_pj(), alone.energyTotalPj());
}

TEST(Parallel, TensorParallelDecodeReadsEachWeightOnceInAll) {
  // llama-3.2-1b: 32 heads, 8 K/V heads, intermediate 8192, vocabulary 128,256 (divisible by 4):
  // every matrix splits four ways; the RMSNorm weights (d = 2048 each, two per block and the
  // final one) are on every rank. So 4 x a rank's weights = the model's + 3 x the norms'.
  const int64_t tp = 4, layers = 2;
  const models::Graph whole = models::build("llama-3.2-1b", options("decode", 256, 4, layers));
  const models::Graph rank = models::build("llama-3.2-1b", options("decode", 256, 4, layers, tp));
  const int64_t norms = (2 * layers + 1) * 2048 * 2;
  EXPECT_EQ(tp * weightBytes(rank), weightBytes(whole) + (tp - 1) * norms);
  // And a decode step reads each of the rank's matrices from DRAM once: every MatMul's weights
  // (the tied table once, by the LM head) are the rank's weights but the norms' (the vector
  // unit's own), where the attention BatchMatMuls' second operand is the KV cache.
  const System sys = systemOf("{kind: ring}", 4);
  const SystemRun r = runOnSystem(sys, rank, {tp, 1, 1, 1}, dataflows::loadDataflow("ws"), quick());
  int64_t weight_reads = 0;
  for (const sim::OpStats& op : r.chip.ops) {
    if (op.kind == models::OpKind::MatMul)
      weight_reads += op.traffic.at(0).read_bytes[static_cast<size_t>(sim::Operand::Weight)];
  }
  EXPECT_EQ(weight_reads, weightBytes(rank) - norms);
}

TEST(Parallel, TwoAllReducesPerBlockOfTheHiddenState) {
  // Per block: after o_proj and after down_proj, B x S x d x 2 B; the vocabulary-parallel
  // embedding's all-reduce first; the LM head's logits gathered last (vocabulary x 2 B).
  const models::Graph g = models::build("llama-3.2-1b", options("prefill", 64, 2, 3, 2));
  const int64_t hidden = 2 * 64 * 2048 * 2;
  ASSERT_EQ(g.communication.size(), 1u + 2 * 3 + 1);
  for (size_t i = 0; i + 1 < g.communication.size(); ++i) {
    EXPECT_EQ(g.communication[i].op, "all-reduce");
    EXPECT_EQ(g.communication[i].bytes, hidden);
  }
  EXPECT_EQ(g.communication.back().op, "all-gather");
  EXPECT_EQ(g.communication.back().bytes, 2 * 128256 * 2);
  EXPECT_EQ(g.op(g.communication[1].after).name, "layers.0.attn.o_proj");
  EXPECT_EQ(g.op(g.communication[2].after).name, "layers.0.mlp.down_proj");

  // Timed: 7 identical all-reduces on a ring of two, each o + a + S/2 / B (one step each way).
  const System sys = systemOf("{kind: ring}", 2);
  const SystemRun r = runOnSystem(sys, g, {2, 1, 1, 1}, dataflows::loadDataflow("ws"), quick());
  ASSERT_EQ(r.communication.size(), 2u);
  EXPECT_EQ(r.communication[0].calls, 7);
  const double each = 10e-6 + 2 * (1e-6 + hidden / 2.0 / 50e9);  // reduce-scatter + all-gather
  EXPECT_NEAR(r.communication[0].seconds, 7 * each, 1e-12);
  EXPECT_NEAR(r.latency_s, r.chip.seconds() + r.communication_s, 1e-12);
}

TEST(Parallel, ExpertParallelWithDataParallelAttention) {
  // mixtral-8x7b, ep 4, batch 4: each rank attends over its one sequence (S = 32) and holds 2 of
  // the 8 experts, which receive every rank's tokens: 4 x 32 x 2 (top-2) / 8 = 32 rows each.
  // Dispatch and combine are all-to-alls of the rank's tokens' two copies: 32 x 2 x 4096 x 2 B.
  const models::Graph g = models::build("mixtral-8x7b", options("prefill", 32, 4, 1, 1, 4));
  int experts = 0;
  for (const models::Op& op : g.ops()) {
    if (op.name.find(".dispatch") != std::string::npos) {
      ++experts;
      EXPECT_EQ(g.tensor(op.outputs[0]).shape[0], 32) << op.name;
    }
  }
  EXPECT_EQ(experts, 2);
  ASSERT_EQ(g.communication.size(), 2u);
  for (const models::Communication& c : g.communication) {
    EXPECT_EQ(c.op, "all-to-all");
    EXPECT_EQ(c.bytes, 32 * 2 * 4096 * 2);
  }
  EXPECT_EQ(g.tensor(g.op(g.findOp("embed_tokens")).outputs[0]).shape[0], 1);  // batch 4 / 4
}

TEST(Parallel, PipelineStagesSplitTheBlocksAndSendBetween) {
  // Four blocks in two stages: blocks 0-1 then 2-3, one send of the hidden state
  // (1 x 64 x 2048 x 2 B) from rank 0 to rank 1 of a line: o + a + S / B.
  const System sys = systemOf("{kind: mesh, dims: [2]}", 2);
  const models::Graph g = models::build("llama-3.2-1b", options("prefill", 64, 1, 4));
  const SystemRun r = runOnSystem(sys, g, {1, 2, 1, 1}, dataflows::loadDataflow("ws"), quick());
  ASSERT_EQ(r.stages.size(), 2u);
  EXPECT_EQ(r.stages[0].first_layer, 0);
  EXPECT_EQ(r.stages[0].last_layer, 1);
  EXPECT_EQ(r.stages[1].first_layer, 2);
  EXPECT_NEAR(r.stages[0].seconds + r.stages[1].seconds, r.chip.seconds(), 1e-12);
  EXPECT_NEAR(r.pipeline_s, 10e-6 + 1e-6 + 64 * 2048 * 2 / 50e9, 1e-12);
  EXPECT_NEAR(r.interval_s, std::max(r.stages[0].seconds, r.stages[1].seconds), 1e-12);
  // The embedding table sits with stage 0, the LM head's matrix with stage 1.
  EXPECT_GT(r.stages[0].weight_bytes, 128256 * 2048 * 2);
  EXPECT_GT(r.stages[1].weight_bytes, 128256 * 2048 * 2);
}

TEST(Parallel, SplitsTheModelOrTheSystemCannotTakeAreRefused) {
  const auto option = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const ConfigError& e) {
      return e.where().yaml_path + ": " + e.message();
    }
    return std::string("no error");
  };
  const std::string heads = option([] { models::build("llama-3.2-1b", options("prefill", 8, 1, 1, 3)); });
  EXPECT_NE(heads.find("--tp: tp 3 does not divide"), std::string::npos) << heads;
  const std::string gpt2 = option([] { models::build("gpt2", options("prefill", 8, 1, 1, 2)); });
  EXPECT_NE(gpt2.find("--tp: parallel splits are modeled for Hugging Face decoders"), std::string::npos) << gpt2;
  const std::string dense = option([] { models::build("llama-3.2-1b", options("prefill", 8, 1, 1, 1, 2)); });
  EXPECT_NE(dense.find("--ep"), std::string::npos) << dense;
  const std::string batch = option([] { models::build("mixtral-8x7b", options("prefill", 8, 3, 1, 1, 2)); });
  EXPECT_NE(batch.find("--ep: ep 2 does not divide the batch"), std::string::npos) << batch;

  const System cube = loadSystemString("system:\n  chip: " + kChip +
                                           "\n  count: 64\n  topology: {kind: torus, dims: [4, 4, 4]}\n"
                                           "  link: {bandwidth: 50 GB/s}\n",
                                       "s.yaml");
  const dataflows::Dataflow df = dataflows::loadDataflow("ws");
  const models::Graph two = models::build("llama-3.2-1b", options("prefill", 8, 1, 2, 2));
  const std::string many = option([&] { runOnSystem(cube, two, {2, 1, 1, 64}, df, quick()); });
  EXPECT_NE(many.find("needs 128 chips"), std::string::npos) << many;
  const std::string stages = option([&] { runOnSystem(cube, two, {2, 3, 1, 1}, df, quick()); });
  EXPECT_NE(stages.find("--pp: pp 3 exceeds the model's 2 blocks"), std::string::npos) << stages;
  // The tensor-parallel group must fill whole inner dimensions: 8 = 4 x 2 does, 6 does not.
  const models::Graph eight = models::build("llama-3.2-1b", options("prefill", 8, 1, 1, 8));
  EXPECT_EQ(option([&] { runOnSystem(cube, eight, {8, 1, 1, 1}, df, quick()); }), "no error");
}

TEST(Parallel, AStageThatDoesNotFitAChipIsInfeasible) {
  // llama-3.1-8b's 16 GB of bf16 weights on chips of 8 GiB: one stage cannot hold them, two can.
  const System sys = loadSystemString("system:\n  chip: " + kChip +
                                          "\n  overrides: [dram.capacity=8GiB]\n  count: 2\n"
                                          "  topology: {kind: ring}\n  link: {bandwidth: 50 GB/s}\n",
                                      "s.yaml");
  const models::Graph g = models::build("llama-3.1-8b", options("decode", 128, 1, 0));
  const dataflows::Dataflow df = dataflows::loadDataflow("ws");
  try {
    runOnSystem(sys, g, {}, df, quick());
    ADD_FAILURE() << "fit on one chip";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("stage 0 (blocks 0..31) needs"), std::string::npos) << e.what();
  }
  const SystemRun r = runOnSystem(sys, g, {1, 2, 1, 1}, df, quick());
  EXPECT_LE(r.memory_per_chip, int64_t{8} << 30);
}

}  // namespace
}  // namespace tessel::systems

#include "systems/parallel_search.h"

namespace tessel::systems {
namespace {

TEST(Parallel, TheSearchReturnsTheFastestSplitThatFits) {
  // llama-3.2-1b cut to 4 blocks (about 1 GB of bf16 weights, the tied table 501 MiB of it) on
  // four chips of 384 MiB: one chip cannot hold it; the search must pick a split that fits and
  // no fitting split may be faster.
  const System sys = loadSystemString("system:\n  chip: " + kChip +
                                          "\n  overrides: [dram.capacity=384MiB]\n  count: 4\n"
                                          "  topology: {kind: ring}\n  link: {bandwidth: 50 GB/s}\n",
                                      "s.yaml");
  const auto graph_of = [](const Split& s) {
    return models::build("llama-3.2-1b", options("decode", 128, 2, 4, s.tp, s.ep));
  };
  const SplitSearch found = searchSplits(sys, 0, graph_of, dataflows::loadDataflow("ws"), quick(), "latency");
  ASSERT_GE(found.best, 0);
  const SplitCandidate& best = found.candidates[static_cast<size_t>(found.best)];
  EXPECT_LE(best.memory_per_chip, int64_t{384} << 20);
  EXPECT_DOUBLE_EQ(found.best_run.latency_s, best.latency_s);
  int refused = 0;
  for (const SplitCandidate& c : found.candidates) {
    EXPECT_LE(c.split.chips(), 4) << c.split.str();
    if (!c.ok) {
      ++refused;
      continue;
    }
    EXPECT_LE(c.memory_per_chip, int64_t{384} << 20) << c.split.str();
    EXPECT_GE(c.latency_s, best.latency_s) << c.split.str();
  }
  EXPECT_GE(refused, 1);  // tp=1 pp=1 at least
  EXPECT_FALSE(found.candidates.front().ok);
}

}  // namespace
}  // namespace tessel::systems

namespace tessel::systems {
namespace {

TEST(Overlap, CollectiveMatmulByHand) {
  // An all-reduce of 8 ms over 4 ranks: halves of 4 ms; the producer GEMM of 2 ms covers 3/4 of
  // its time (1.5 ms) of the reduce-scatter, the consumer's 8 ms more than the all-gather, which
  // keeps its last chunk's quarter (1 ms) exposed: 2.5 + 1 = 3.5 ms.
  const OverlapWindow w{2e-3, 8e-3};
  EXPECT_NEAR(exposedSeconds(Overlap::CollectiveMatmul, "all-reduce", 8e-3, 4, w), 3.5e-3, 1e-15);
  EXPECT_DOUBLE_EQ(exposedSeconds(Overlap::None, "all-reduce", 8e-3, 4, w), 8e-3);
  // An all-gather has only its consumer; an all-to-all no decomposition.
  EXPECT_NEAR(exposedSeconds(Overlap::CollectiveMatmul, "all-gather", 8e-3, 4, w), 2e-3, 1e-15);
  EXPECT_DOUBLE_EQ(exposedSeconds(Overlap::CollectiveMatmul, "all-to-all", 8e-3, 4, w), 8e-3);
}

TEST(Overlap, HiddenAndExposedAddUpToTheCollectives) {
  const System sys = systemOf("{kind: ring}", 4);
  const models::Graph g = models::build("llama-3.2-1b", options("prefill", 256, 1, 2, 4));
  const dataflows::Dataflow df = dataflows::loadDataflow("ws");
  const SystemRun plain = runOnSystem(sys, g, {4, 1, 1, 1}, df, quick());
  const SystemRun over = runOnSystem(sys, g, {4, 1, 1, 1}, df, quick(), Overlap::CollectiveMatmul);
  EXPECT_NEAR(over.communication_s + over.hidden_s, plain.communication_s, 1e-12);
  EXPECT_GT(over.hidden_s, 0);
  EXPECT_GE(over.communication_s, plain.communication_s / 4 - 1e-12);  // a chunk's share stays
  EXPECT_NEAR(over.latency_s, over.compute_s + over.communication_s, 1e-12);
  EXPECT_DOUBLE_EQ(over.compute_s, plain.compute_s);
}

}  // namespace
}  // namespace tessel::systems
