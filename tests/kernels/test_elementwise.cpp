// Elementwise and row-wise float ops against double references, with stated error bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kernels/numeric/vec_math.h"
#include "kernels/ops/elementwise.h"
#include "kernels/ops/normalization.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

TEST(KernelsElementwise, ExpTanhErfApproximations) {
  double exp_rel = 0.0, tanh_abs = 0.0, erf_abs = 0.0;
  for (double x = -87.0; x <= 88.0; x += 0.0007) {
    const auto f = static_cast<float>(x);
    exp_rel = std::max(exp_rel, std::fabs(detail::expFast(f) / std::exp(double{f}) - 1.0));
  }
  for (double x = -12.0; x <= 12.0; x += 0.0001) {
    const auto f = static_cast<float>(x);
    tanh_abs = std::max(tanh_abs, std::fabs(detail::tanhFast(f) - std::tanh(double{f})));
    erf_abs = std::max(erf_abs, std::fabs(detail::erfFast(f) - std::erf(double{f})));
  }
  // Measured: exp 8e-8 relative (Cephes polynomial, ~1 ulp); tanh 1.8e-7 absolute (the exp
  // error through 1 - 2/(e+1)); erf 4.6e-7 absolute (A&S 7.1.26's 1.5e-7 plus cancellation in
  // 1 - p t e^{-x^2} near 0). The bounds are the documented ones in vec_math.h.
  EXPECT_LT(exp_rel, 2e-7);
  EXPECT_LT(tanh_abs, 3e-7);
  EXPECT_LT(erf_abs, 6e-7);
  EXPECT_EQ(detail::expFast(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(detail::expFast(-100.0f), 0.0f);
  EXPECT_TRUE(std::isfinite(detail::expFast(1000.0f)));
  EXPECT_EQ(detail::tanhFast(50.0f), 1.0f);
  EXPECT_EQ(detail::tanhFast(-50.0f), -1.0f);
}

// GELU = x/2 (1 + f): an absolute error e in f (<= 6e-7) becomes |x|/2 * e, plus a few float
// roundings of the result: bound 3e-7 * (1 + |x|); measured 7.9e-8 (tanh), 1.1e-7 (erf).
TEST(KernelsElementwise, GeluBothForms) {
  std::vector<float> grid;
  for (double x = -10.0; x <= 10.0; x += 0.001) grid.push_back(static_cast<float>(x));
  const Tensor x = Tensor::fromFloats({static_cast<int64_t>(grid.size())}, grid);
  const Tensor gt = gelu(x, true), ge = gelu(x, false);
  for (size_t i = 0; i < grid.size(); ++i) {
    const double v = grid[i];
    ASSERT_NEAR(gt.f32()[i], ref::geluTanh(v), 3e-7 * (1.0 + std::fabs(v))) << v;
    ASSERT_NEAR(ge.f32()[i], ref::geluErf(v), 3e-7 * (1.0 + std::fabs(v))) << v;
  }
}

TEST(KernelsElementwise, BiasAddReluMulAndFormats) {
  const Tensor x = Tensor::fromFloats({2, 3}, {1.0f, -2.0f, 3.0f, -4.0f, 5.0f, -6.0f});
  const Tensor b = Tensor::fromFloats({3}, {0.5f, 0.25f, -1.0f});
  const Tensor y = biasAdd(x, b);
  EXPECT_EQ(y.f32()[1], -1.75f);
  EXPECT_EQ(y.f32()[5], -7.0f);
  EXPECT_EQ(relu(x).f32()[1], 0.0f);
  EXPECT_EQ(relu(x).f32()[2], 3.0f);
  EXPECT_EQ(add(x, x).f32()[4], 10.0f);
  EXPECT_EQ(mul(x, 0.5f).f32()[0], 0.5f);
  // Int8 relu clamps at the zero point (the integer "0").
  const Tensor q = Tensor::fromInt8({3}, {-5, 3, 10}, QuantParams::perTensor(0.1f, 3));
  EXPECT_EQ(relu(q).i8()[0], 3);
  EXPECT_EQ(relu(q).i8()[2], 10);
  // An FP16 tensor's results are rounded back to FP16.
  const Tensor h = castTo(Tensor::fromFloats({1}, {1.0f}), FloatFormat::FP16);
  EXPECT_EQ(h.dtype(), DType::FP16);
  EXPECT_EQ(add(h, castTo(Tensor::fromFloats({1}, {0x1p-11f}), FloatFormat::FP16)).f32()[0], 1.0f);
  EXPECT_THROW(biasAdd(x, Tensor::fromFloats({2}, {1, 2})), Error);
  EXPECT_THROW(add(x, b), Error);
  EXPECT_THROW(gelu(q, true), Error);
}

// Softmax: each probability carries the exp error (2e-7) and a few float roundings (sum, 1/sum,
// product): relative error <= ~5e-7, so abs error <= 5e-7 on values <= 1 (measured 1.7e-8).
TEST(KernelsElementwise, SoftmaxMatchesReference) {
  const Tensor x = ref::floatTensor({16, 333}, -20.0f, 20.0f, 1);
  const Tensor y = softmax(x);
  for (int64_t r = 0; r < 16; ++r) {
    std::vector<double> row(x.f32() + r * 333, x.f32() + (r + 1) * 333);
    const std::vector<double> want = ref::softmax(row);
    double sum = 0.0;
    for (int64_t c = 0; c < 333; ++c) {
      ASSERT_NEAR(y.f32()[r * 333 + c], want[static_cast<size_t>(c)], 5e-7);
      sum += y.f32()[r * 333 + c];
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor m = softmax(Tensor::fromFloats({1, 3}, {1.0f, -inf, 1.0f}));
  EXPECT_EQ(m.f32()[1], 0.0f);
  EXPECT_FLOAT_EQ(m.f32()[0], 0.5f);
  const Tensor big = softmax(Tensor::fromFloats({1, 2}, {1e30f, 0.0f}));  // stable: no overflow
  EXPECT_EQ(big.f32()[0], 1.0f);
}

// Layer norm over 768 values in float: the mean/variance sums are good to n * 2^-24 = 4.6e-5
// relative in the worst case, ~sqrt(n) * 2^-24 typically; outputs are O(3). Measured 5.4e-7;
// the 5e-6 bound is 10x that and well inside the worst case.
TEST(KernelsElementwise, LayerNormMatchesReference) {
  const int64_t n = 768;
  const Tensor x = ref::floatTensor({8, n}, -3.0f, 5.0f, 2);
  const Tensor g = ref::floatTensor({n}, 0.5f, 1.5f, 3), b = ref::floatTensor({n}, -1.0f, 1.0f, 4);
  const Tensor y = layerNorm(x, g, b, 1e-5f);
  for (int64_t r = 0; r < 8; ++r) {
    std::vector<double> row(x.f32() + r * n, x.f32() + (r + 1) * n);
    const std::vector<double> want = ref::layerNorm(row, g.f32(), b.f32(), 1e-5);
    for (int64_t c = 0; c < n; ++c)
      ASSERT_NEAR(y.f32()[r * n + c], want[static_cast<size_t>(c)], 5e-6);
  }
  EXPECT_THROW(layerNorm(x, b, Tensor::fromFloats({1}, {1.0f}), 1e-5f), Error);
}

TEST(KernelsElementwise, BatchNormFoldedPerChannel) {
  const Tensor x = ref::floatTensor({2, 3, 3, 4}, -1.0f, 1.0f, 5);
  const Tensor sc = Tensor::fromFloats({4}, {1.0f, 2.0f, -1.0f, 0.5f});
  const Tensor sh = Tensor::fromFloats({4}, {0.0f, 1.0f, 2.0f, -3.0f});
  const Tensor y = batchNorm(x, sc, sh);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t c = i % 4;
    ASSERT_EQ(y.f32()[i], x.f32()[i] * sc.f32()[c] + sh.f32()[c]);
  }
}

}  // namespace
}  // namespace tessel::kernels
