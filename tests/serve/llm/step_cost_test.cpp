// Iteration costs from the engines against `tessel run`'s own simulations of the same steps: a
// decode step alone, a batch of equal decodes, a prefill; whole KV blocks; interpolation bounded
// by the grid points around it.
#include "serve/llm/step_cost.h"

#include <gtest/gtest.h>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"

namespace tessel::serve::llm {
namespace {

const std::string kModel = std::string(TESSEL_SOURCE_DIR) + "/tests/serve/llm/data/tiny-llama.json";

struct Fixture {
  arch::Accelerator acc = arch::loadFile(std::string(TESSEL_SOURCE_DIR) +
                                         "/configs/arch/gemmini-default.yaml");
  dataflows::Dataflow df = dataflows::loadDataflow("ws");
  sim::RunOptions run;
  Fixture() {
    run.plan.mapper = "search";
    run.plan.mapper_options.budget = 300;
  }
  models::WorkloadOptions base() const {
    models::WorkloadOptions o;
    o.dtype = acc.array.input_dtype;
    return o;
  }
  EngineStepCost cost(int64_t kv_block, bool exact) const {
    EngineCostInputs in;
    in.build = [](const models::WorkloadOptions& o) { return models::build(kModel, o); };
    in.base = base();
    in.acc = &acc;
    in.dataflow = &df;
    in.run = run;
    in.kv_block = kv_block;
    in.exact = exact;
    in.blocks = 3;
    return EngineStepCost(in);
  }
  // What `tessel run` gives for the step: the whole decoder simulated on the design as loaded.
  sim::RunStats runOf(int64_t batch, int64_t seq, const std::string& phase) const {
    models::WorkloadOptions o = base();
    o.batch = batch;
    o.seq = seq;
    o.phase = phase;
    return sim::simulate(models::build(kModel, o), acc, df, run);
  }
};

TEST(LlmStepCost, ExactDecodeStepAloneIsTheDecodeRun) {
  Fixture f;
  EngineStepCost cost = f.cost(1, true);
  for (int64_t kv : {1, 37, 300}) {
    const sim::RunStats r = f.runOf(1, kv, "decode");
    const StepTime t = cost.of({{kv, 1, true}});
    EXPECT_NEAR(t.seconds, r.seconds(), 1e-9 * r.seconds()) << "kv " << kv;
    EXPECT_NEAR(t.energy_j, r.dynamicEnergyPj() * 1e-12, 1e-9 * t.energy_j) << "kv " << kv;
  }
}

TEST(LlmStepCost, ExactBatchOfEqualDecodesIsTheBatchedDecodeRun) {
  Fixture f;
  EngineStepCost cost = f.cost(1, true);
  const int64_t kv = 120;
  for (int batch : {2, 5}) {
    const std::vector<SeqStep> steps(static_cast<size_t>(batch), SeqStep{kv, 1, true});
    const sim::RunStats r = f.runOf(batch, kv, "decode");
    EXPECT_NEAR(cost.of(steps).seconds, r.seconds(), 1e-9 * r.seconds()) << batch;
  }
}

TEST(LlmStepCost, LonePrefillIsThePrefillRunWithinOnePercent) {
  // The iteration's attention reads the prompt's keys from the paged cache it has just written;
  // the prefill graph reads them from the K projection's output: the one difference.
  Fixture f;
  EngineStepCost cost = f.cost(1, true);
  for (int64_t prompt : {64, 200}) {
    const sim::RunStats r = f.runOf(1, prompt, "prefill");
    EXPECT_NEAR(cost.of({{0, prompt, true}}).seconds, r.seconds(), 0.01 * r.seconds()) << prompt;
  }
}

TEST(LlmStepCost, KvLengthsCountWholeBlocks) {
  Fixture f;
  EngineStepCost paged = f.cost(16, true), exact = f.cost(1, true);
  // 100 cached + 1 new = 101 keys: 7 blocks of 16 = 112 keys, as 111 cached + 1.
  EXPECT_DOUBLE_EQ(paged.of({{100, 1, true}}).seconds, exact.of({{111, 1, true}}).seconds);
  EXPECT_EQ(paged.paddedKeys(101), 112);
  EXPECT_EQ(paged.paddedKeys(112), 112);
}

TEST(LlmStepCost, InterpolationStaysBetweenTheGridPointsAroundIt) {
  Fixture f;
  EngineStepCost grid = f.cost(1, false), exact = f.cost(1, true);
  for (int64_t t : {23, 37, 100, 300}) {
    const auto [lo, hi] = gridBracket(t, false, kTokenGrid);
    ASSERT_LT(lo, t);
    ASSERT_GT(hi, t);
    const double a = exact.tokens(lo).seconds, b = exact.tokens(hi).seconds;
    const double x = grid.tokens(t).seconds, e = exact.tokens(t).seconds;
    // Linear between its neighbours, so within them; the exact cost too (more tokens never take
    // less time), so the error is at most the step between them.
    EXPECT_GE(x, std::min(a, b) - 1e-15);
    EXPECT_LE(x, std::max(a, b) + 1e-15);
    EXPECT_LE(std::abs(x - e), std::abs(b - a) + 1e-15) << t;
  }
  // On the grid, interpolation is the simulation itself.
  EXPECT_DOUBLE_EQ(grid.tokens(64).seconds, exact.tokens(64).seconds);
  // Two sequences of 95 + 1 = 96 keys: a point of the attention grid (64, 96, 128...).
  EXPECT_DOUBLE_EQ(grid.of({{95, 1, true}, {95, 1, true}}).seconds,
                   exact.of({{95, 1, true}, {95, 1, true}}).seconds);
}

using Bracket = std::pair<int64_t, int64_t>;

TEST(LlmStepCost, GridPointsAreEveryValueUpToABoundThenAFixedNumberPerDoubling) {
  EXPECT_EQ(gridBracket(16, false, kTokenGrid), Bracket(16, 16));
  EXPECT_EQ(gridBracket(17, false, kTokenGrid), Bracket(16, 20));
  EXPECT_EQ(gridBracket(100, false, kTokenGrid), Bracket(96, 112));
  EXPECT_EQ(gridBracket(100, false, kChunkGrid), Bracket(64, 128));
  EXPECT_EQ(gridBracket(3, false, kAttentionGrid), Bracket(3, 3));
  EXPECT_EQ(gridBracket(5, false, kAttentionGrid), Bracket(4, 6));
  EXPECT_EQ(gridBracket(100, false, kAttentionGrid), Bracket(96, 128));
  EXPECT_EQ(gridBracket(1000, true, kAttentionGrid), Bracket(1000, 1000));
}

TEST(LlmStepCost, ShapesAreSimulatedOnceAndGiveTheSameAnswerAgain) {
  Fixture f;
  EngineStepCost cost = f.cost(16, false);
  const std::vector<SeqStep> batch = {{0, 50, true}, {70, 1, true}, {200, 1, true}};
  const StepTime a = cost.of(batch);
  const int64_t shapes = cost.shapesEvaluated();
  EXPECT_GT(shapes, 0);
  const StepTime b = cost.of(batch);
  EXPECT_EQ(cost.shapesEvaluated(), shapes);
  EXPECT_DOUBLE_EQ(a.seconds, b.seconds);
}

}  // namespace
}  // namespace tessel::serve::llm

namespace tessel::serve::llm {
namespace {

TEST(LlmStepCost, TheSameCostsOnOneThreadAsOnTwo) {
  // The mapper searches one op per thread; a search's result does not depend on its thread.
  Fixture one, two;
  one.run.plan.mapper_options.threads = 1;
  two.run.plan.mapper_options.threads = 2;
  EngineStepCost a = one.cost(16, false), b = two.cost(16, false);
  const std::vector<SeqStep> batch = {{0, 90, true}, {33, 1, true}, {150, 1, true}, {7, 1, true}};
  EXPECT_EQ(a.of(batch).seconds, b.of(batch).seconds);
  EXPECT_EQ(a.of(batch).energy_j, b.of(batch).energy_j);
}

}  // namespace
}  // namespace tessel::serve::llm

namespace tessel::serve::llm {
namespace {

TEST(LlmStepCost, ATensorParallelStepPaysItsCollectivesAndCountsEveryChip) {
  // tiny-llama split two ways: each iteration all-reduces the embedding's lookup and twice per
  // block (3 blocks), and gathers the LM head's logits: 1 + 2 x 3 + 1 = 8 collectives, here
  // 1 ms each. Energy counts both chips' work and the links' 1 mJ per call.
  Fixture f;
  EngineCostInputs in;
  in.build = [](const models::WorkloadOptions& o) { return models::build(kModel, o); };
  in.base = f.base();
  in.base.tensor_parallel = 2;
  in.acc = &f.acc;
  in.dataflow = &f.df;
  in.run = f.run;
  in.exact = true;
  in.blocks = 3;
  EngineStepCost alone(in);
  in.chips = 2;
  in.collective = [](const models::Communication&) { return CollectiveTime{1e-3, 1e-3}; };
  EngineStepCost split(in);
  for (int64_t kv : {16, 100}) {
    const StepTime a = alone.of({{kv, 1, true}}), s = split.of({{kv, 1, true}});
    EXPECT_NEAR(s.seconds - a.seconds, 8e-3, 1e-12) << kv;
    EXPECT_NEAR(s.energy_j, 2 * a.energy_j + 8e-3, 1e-9) << kv;
    EXPECT_DOUBLE_EQ(s.macs, a.macs);
  }
}

}  // namespace
}  // namespace tessel::serve::llm
