// Metrics on hand-made vectors whose answers are known in closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/validation/metrics.h"
#include "kernels/numeric/quantize.h"

namespace tessel::kernels {
namespace {

TEST(ExecutorMetrics, IdenticalVectorsAreExact) {
  const std::vector<float> x = {1.0f, -2.0f, 3.5f, 0.25f};
  const ErrorMetrics m = compareValues(x.data(), x.data(), 4);
  EXPECT_EQ(m.count, 4);
  EXPECT_EQ(m.max_abs, 0.0);
  EXPECT_EQ(m.rel_l2, 0.0);
  EXPECT_DOUBLE_EQ(m.cosine, 1.0);
  EXPECT_TRUE(std::isinf(m.sqnr_db) && m.sqnr_db > 0);
}

TEST(ExecutorMetrics, OrthogonalVectorsHaveZeroCosine) {
  const std::vector<float> a = {1, 0, 1, 0}, b = {0, 3, 0, -2};
  EXPECT_DOUBLE_EQ(compareValues(a.data(), b.data(), 4).cosine, 0.0);
  const std::vector<float> c = {1, 1, -1, -1}, d = {1, -1, 1, -1};  // also orthogonal
  EXPECT_DOUBLE_EQ(compareValues(c.data(), d.data(), 4).cosine, 0.0);
}

// ref = +-1 (power 1), noise = +-0.1 (power 0.01): SQNR = 10 log10(1 / 0.01) = 20 dB exactly,
// rel L2 = sqrt(0.01) = 0.1, max |error| = 0.1.
TEST(ExecutorMetrics, SqnrOfKnownNoise) {
  std::vector<float> ref(1000), x(1000);
  for (size_t i = 0; i < ref.size(); ++i) {
    ref[i] = i % 2 ? 1.0f : -1.0f;
    x[i] = ref[i] + ((i / 2) % 2 ? 0.1f : -0.1f);
  }
  const ErrorMetrics m = compareValues(ref.data(), x.data(), 1000);
  EXPECT_NEAR(m.sqnr_db, 20.0, 1e-5);
  EXPECT_NEAR(m.rel_l2, 0.1, 1e-7);
  EXPECT_NEAR(m.max_abs, 0.1, 1e-7);
  // Noise orthogonal to the signal: cos = 1 / sqrt(1 + 0.01).
  EXPECT_NEAR(m.cosine, 1.0 / std::sqrt(1.01), 1e-7);  // inputs are floats: 0.1f is off by 1.5e-9
}

TEST(ExecutorMetrics, ScaleChangesErrorNotDirection) {
  const std::vector<float> a = {1, 2, 3}, b = {2, 4, 6};
  const ErrorMetrics m = compareValues(a.data(), b.data(), 3);
  EXPECT_NEAR(m.cosine, 1.0, 1e-12);
  EXPECT_NEAR(m.rel_l2, 1.0, 1e-12);
  EXPECT_NEAR(m.sqnr_db, 0.0, 1e-9);
}

TEST(ExecutorMetrics, MaskedReferenceEntriesAreSkippedNonFiniteResultsPoison) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> ref = {1, -inf, 2}, x = {1, -5, 2};
  const ErrorMetrics m = compareValues(ref.data(), x.data(), 3);
  EXPECT_EQ(m.count, 2);
  EXPECT_EQ(m.rel_l2, 0.0);
  const std::vector<float> bad = {1, 0, inf};
  const ErrorMetrics p = compareValues(ref.data(), bad.data(), 3);
  EXPECT_EQ(p.nonfinite, 1);
  EXPECT_TRUE(std::isinf(p.rel_l2));
}

TEST(ExecutorMetrics, IntegerTensorsAreDequantized) {
  const Tensor f = Tensor::fromFloats({4}, {0.5f, -1.0f, 0.25f, 1.0f});
  const Tensor q = quantize(f, QuantParams::perTensor(1.0f / 127.0f));
  const ErrorMetrics m = compare(f, q);
  EXPECT_LE(m.max_abs, 0.5 / 127.0 + 1e-7);  // half a step
  EXPECT_GT(m.cosine, 0.9999);
}

TEST(ExecutorMetrics, Top1AndKlOnLogits) {
  const Tensor ref = Tensor::fromFloats({2, 3}, {1, 3, 2, 0, 0, 5});
  EXPECT_DOUBLE_EQ(top1Agreement(ref, ref), 1.0);
  EXPECT_NEAR(meanKlDivergence(ref, ref), 0.0, 1e-15);
  // Adding a constant to a row leaves its softmax unchanged.
  const Tensor shifted = Tensor::fromFloats({2, 3}, {11, 13, 12, -7, -7, -2});
  EXPECT_NEAR(meanKlDivergence(ref, shifted), 0.0, 1e-12);
  const Tensor swapped = Tensor::fromFloats({2, 3}, {3, 1, 2, 0, 0, 5});
  EXPECT_DOUBLE_EQ(top1Agreement(ref, swapped), 0.5);
}

// Two classes, p = (1/2, 1/2), q = softmax(0, 1) = (1/(1+e), e/(1+e)):
// KL(p || q) = 1/2 ln(1/2 / q0) + 1/2 ln(1/2 / q1).
TEST(ExecutorMetrics, KlMatchesClosedForm) {
  const Tensor p = Tensor::fromFloats({1, 2}, {0, 0});
  const Tensor q = Tensor::fromFloats({1, 2}, {0, 1});
  const double e = std::exp(1.0), q0 = 1 / (1 + e), q1 = e / (1 + e);
  EXPECT_NEAR(meanKlDivergence(p, q), 0.5 * std::log(0.5 / q0) + 0.5 * std::log(0.5 / q1), 1e-12);
}

}  // namespace
}  // namespace tessel::kernels
