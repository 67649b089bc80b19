// The mixed-precision search: plans meet their tolerance, lower the insensitive ops, and read
// back; suffix probes equal full runs.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "kernels/validation/precision_search.h"

namespace tessel::kernels {
namespace {

using testing::reference;
using testing::smallGraph;
using testing::store;

// 0.03: above the least sensitive single ops of a 1-block GPT-2 (0.004 - 0.02 rel L2 measured)
// and below the all-INT8 error (0.058), so the search must choose.
constexpr double kTolerance = 0.03;

SearchResult search(const models::Graph& g, SearchOptions o) {
  return searchPrecision(reference(g), store(), o);
}

SearchOptions options(double tolerance, SearchMetric m = SearchMetric::RelL2) {
  SearchOptions o;
  o.tolerance = tolerance;
  o.metric = m;
  return o;
}

// One search, three checks: the plan meets the tolerance and lowers the insensitive ops; a full
// run of the plan (the probes ran suffixes fed with reference activations) reproduces the
// reported error exactly; the YAML reads back to the same plan.
TEST(ExecutorPrecision, PlanMeetsToleranceValidatesAndReadsBack) {
  const models::Graph g = smallGraph("gpt2");
  const SearchOptions o = options(kTolerance);
  const SearchResult r = search(g, o);
  EXPECT_LE(r.error, kTolerance);
  EXPECT_EQ(r.ops.size(),
            12u);  // ln_1 qkv score softmax context proj ln_2 fc gelu proj ln_f lm_head
  const OpSensitivity* least = &r.ops[0];
  int lowered = 0;
  for (const OpSensitivity& s : r.ops) {
    if (s.error < least->error) least = &s;
    if (s.error > kTolerance) {
      EXPECT_FALSE(s.lowered) << s.op;  // never tried with others
    }
    lowered += s.lowered;
    EXPECT_EQ(r.plan.dtypeOf(s.op), s.lowered ? DType::Int8 : DType::FP32) << s.op;
  }
  EXPECT_TRUE(least->lowered);  // the greedy's first trial is exactly its sensitivity probe
  EXPECT_GE(lowered, 2);
  EXPECT_LT(lowered, 12);

  const ReferenceRun& ref = reference(g);
  const ValidationReport v = validate(ref, lowerGraph(ref.graph, r.plan), store(), {});
  EXPECT_DOUBLE_EQ(v.output.error.rel_l2, r.error);

  const models::PrecisionPlan back = models::parsePrecisionPlan(planYaml(r, o), "plan.yaml");
  EXPECT_EQ(back.default_dtype, DType::FP32);
  ASSERT_EQ(back.ops.size(), r.plan.ops.size());
  for (const OpSensitivity& s : r.ops) EXPECT_EQ(back.dtypeOf(s.op), r.plan.dtypeOf(s.op));
}

// FP16 costs ~1e-3 rel L2 per op (measured <= 1.3e-3 for the whole model in FP16): a 1e-2
// tolerance admits every candidate.
TEST(ExecutorPrecision, Fp16LowersEverything) {
  SearchOptions o = options(1e-2);
  o.to = {models::OpPrecision{DType::FP16, {}, {}, {}}};
  const SearchResult r = search(smallGraph("gpt2"), o);
  for (const OpSensitivity& s : r.ops) EXPECT_TRUE(s.lowered) << s.op;
}

// Two candidates, cheapest first: every op goes to int8 when the plan's error allows it, else to
// fp16 (which alone costs ~1e-3 an op, so it fits a 1e-2 tolerance); the plan's error stays
// within the tolerance and its YAML reads back with both formats. A 1-block BERT (no vocabulary
// head to requantize at every probe) keeps it quick.
TEST(ExecutorPrecision, SeveralFormatsCheapestThatFitsFirst) {
  SearchOptions o = options(1e-2);
  o.to = {models::OpPrecision{DType::Int8, {}, {}, {}}, models::OpPrecision{DType::FP16, {}, {}, {}}};
  const SearchResult r = search(smallGraph("bert", 8), o);
  EXPECT_LE(r.error, 1e-2);
  int int8 = 0, fp16 = 0;
  for (const OpSensitivity& s : r.ops) {
    ASSERT_EQ(s.errors.size(), 2u);
    EXPECT_LT(s.errors[1], s.errors[0]) << s.op;  // fp16 is the more precise
    if (s.errors[0] > 1e-2) {
      EXPECT_NE(s.chosen, 0) << s.op;
    }
    int8 += s.chosen == 0;
    fp16 += s.chosen == 1;
    EXPECT_EQ(r.plan.dtypeOf(s.op), s.chosen == 0 ? DType::Int8 : s.chosen == 1 ? DType::FP16 : DType::FP32);
  }
  EXPECT_GE(int8, 2);
  EXPECT_GE(fp16, 1);
  const models::PrecisionPlan back = models::parsePrecisionPlan(planYaml(r, o), "plan.yaml");
  for (const OpSensitivity& s : r.ops) EXPECT_EQ(back.dtypeOf(s.op), r.plan.dtypeOf(s.op));
}

// Sparsity traded against precision: candidates "fp16+2:4" (weights pruned to 2:4) and "fp16".
// Only matmuls and convolutions have weights to prune, so on every other op the sparse candidate
// is plain fp16 (the same error). Magnitude-pruning 2:4 of Gaussian weights drops about half of
// their energy (rel L2 of a pruned GEMM ~0.36, docs/sparsity.md), so at a tolerance of 0.2 the
// search keeps pruning off every op whose pruning alone exceeds it and takes it only where the
// error allows; the plan meets the tolerance, a full run of it reproduces the error, and the YAML
// reads the per-op sparsity back.
TEST(ExecutorPrecision, SparsityTradesAgainstPrecision) {
  SearchOptions o = options(0.2);
  const auto sparse = parseCandidate("fp16+2:4");
  ASSERT_TRUE(sparse.has_value());
  ASSERT_TRUE(sparse->sparsity.has_value());
  EXPECT_EQ(candidateName(*sparse), "fp16+2:4");
  o.to = {*sparse, models::OpPrecision{DType::FP16, {}, {}, {}}};
  const models::Graph g = smallGraph("bert", 8);
  const SearchResult r = search(g, o);
  EXPECT_LE(r.error, 0.2);
  int pruned = 0;
  for (const OpSensitivity& s : r.ops) {
    ASSERT_EQ(s.errors.size(), 2u);
    const bool weights = s.kind == models::OpKind::MatMul || s.kind == models::OpKind::Conv2d;
    if (!weights) {
      EXPECT_DOUBLE_EQ(s.errors[0], s.errors[1]) << s.op;
    }
    if (s.errors[0] > 0.2) {
      EXPECT_NE(s.chosen, 0) << s.op;
    }
    const std::optional<Sparsity> sp = r.plan.precisionOf(s.op).sparsity;
    const bool is_pruned = s.chosen == 0 && weights;
    EXPECT_EQ(sp.has_value() && !sp->dense(), is_pruned) << s.op;
    pruned += is_pruned;
  }
  EXPECT_GE(pruned, 1);
  const ReferenceRun& ref = reference(g);
  const ValidationReport v = validate(ref, lowerGraph(ref.graph, r.plan), store(), {});
  EXPECT_DOUBLE_EQ(v.output.error.rel_l2, r.error);
  const models::PrecisionPlan back = models::parsePrecisionPlan(planYaml(r, o), "plan.yaml");
  for (const OpSensitivity& s : r.ops) {
    EXPECT_EQ(back.precisionOf(s.op).sparsity, r.plan.precisionOf(s.op).sparsity) << s.op;
  }
  std::string why;
  EXPECT_FALSE(parseCandidate("fp16+3:2", why).has_value());
  EXPECT_NE(why.find("sparsity"), std::string::npos) << why;
}

TEST(ExecutorPrecision, KlMetric) {
  const SearchResult r = search(smallGraph("gpt2"), options(1e-3, SearchMetric::Kl));
  EXPECT_LE(r.error, 1e-3);
  EXPECT_GE(r.plan.ops.size(), 1u);
}

TEST(ExecutorPrecision, BadOptionsAreConfigErrors) {
  EXPECT_THROW(search(smallGraph("bert"), options(0.1, SearchMetric::Kl)), ConfigError);
  EXPECT_THROW(search(smallGraph("gpt2"), options(0.0)), ConfigError);
}

}  // namespace
}  // namespace tessel::kernels
