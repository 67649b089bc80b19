// I-BERT integer-only kernels: i-sqrt exactness, and the measured error of i-GELU, i-softmax and
// i-LayerNorm against the float functions evaluated on the same (dequantized) inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/ibert/ibert.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

constexpr int32_t kI32Min = INT32_MIN, kI32Max = INT32_MAX;

TEST(KernelsIBert, ISqrtIsFloorSqrtWithFewNewtonSteps) {
  std::mt19937_64 rng(1);
  int max_steps = 0;
  for (int i = 0; i < 300000; ++i) {
    const uint64_t n = i < 100000 ? static_cast<uint64_t>(i) : rng() >> 32;  // INT32 range
    int steps = 0;
    const uint64_t r = iSqrt(n, &steps);
    ASSERT_LE(r * r, n);
    ASSERT_GT((r + 1) * (r + 1), n);
    max_steps = std::max(max_steps, steps);
  }
  // x0 = 2^ceil(bits/2) is within 2x of sqrt(n), so Newton needs at most 5 updates plus the
  // step that detects convergence (measured: 6 steps in total).
  EXPECT_LE(max_steps, 6);
  EXPECT_EQ(iSqrt(uint64_t{1} << 62), uint64_t{1} << 31);
  EXPECT_EQ(iSqrt(0), 0u);
}

// I-BERT reports a max i-GELU error of 0.018 on [-4, 4]. Measured here on a grid with one
// point per integer step (up to 800,001 points): 0.0184 (S = 4/127) to 0.0198 (S = 0.01);
// the error is the polynomial's, nearly independent of the scale.
TEST(KernelsIBert, IGeluMaxErrorOnMinus4To4) {
  for (float s : {1e-3f, 1e-4f, 1e-5f, 0.01f, 4.0f / 127}) {
    const IGelu g(s);
    const auto lim = static_cast<int32_t>(std::floor(4.0 / s));
    std::vector<int32_t> q;
    for (int32_t i = -lim; i <= lim; ++i) q.push_back(i);
    std::vector<int32_t> y = q;
    SaturationStats sat;
    g.run(y.data(), static_cast<int64_t>(y.size()), sat);
    double max_err = 0.0;
    for (size_t i = 0; i < q.size(); ++i)
      max_err = std::max(max_err, std::fabs(y[i] * static_cast<double>(g.outputScale()) -
                                            ref::geluErf(q[i] * static_cast<double>(s))));
    EXPECT_LE(max_err, 0.02) << "S = " << s;
    EXPECT_EQ(sat.clipped(), 0);
  }
}

TEST(KernelsIBert, IGeluTensorEntryPoint) {
  const Tensor x = Tensor::fromInt32({1, 3}, {-2000, 0, 3000}, QuantParams::perTensor(1e-3f));
  const Tensor y = iGelu(x);
  ASSERT_EQ(y.dtype(), DType::Int32);
  EXPECT_NEAR(y.i32()[2] * y.quant.scale[0], ref::geluErf(3.0), 0.02);
  EXPECT_NEAR(y.i32()[0] * y.quant.scale[0], ref::geluErf(-2.0), 0.02);
  EXPECT_EQ(y.i32()[1], 0);
  EXPECT_THROW(iGelu(Tensor::fromFloats({1}, {1.0f})), Error);
}

// i-softmax error: the 8-bit output floors to 1/256 (0.0039), plus the i-exp error, mostly
// from x0 = floor(-ln2 / S) misplacing ln 2 by up to S (1.4% at S = 0.01, compounding with z),
// and the 0.15% polynomial error. Measured max 0.0060 at S = 0.01, 0.0041 at S = 1e-4.
TEST(KernelsIBert, ISoftmaxErrorBound) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> logits(-10.0, 10.0);
  for (float s : {0.05f, 0.01f, 1e-3f, 1e-4f}) {
    double max_err = 0.0;
    for (int len : {7, 64, 128, 512, 1024})
      for (int rep = 0; rep < 10; ++rep) {
        std::vector<int32_t> q(static_cast<size_t>(len));
        for (int32_t& v : q) v = static_cast<int32_t>(std::lround(logits(rng) / s));
        const Tensor t =
            Tensor::fromInt32({1, len}, q, QuantParams::perTensor(s, 0, kI32Min, kI32Max));
        const Tensor p = iSoftmax(t);
        std::vector<double> x(q.size());
        for (size_t i = 0; i < q.size(); ++i) x[i] = q[i] * static_cast<double>(s);
        const std::vector<double> want = ref::softmax(x);
        for (size_t i = 0; i < q.size(); ++i)
          max_err = std::max(max_err, std::fabs((p.i8()[i] + 128) / 256.0 - want[i]));
      }
    EXPECT_LE(max_err, 0.008) << "S = " << s;
  }
  // One dominant logit: exp * floor(2^32 / exp) < 2^32, so u = 255 (probability 255/256); a
  // u of 256 (only when the sum is a power of two) would be clipped to 255 and counted.
  const Tensor t = Tensor::fromInt32({1, 3}, {0, -100000, -100000}, QuantParams::perTensor(0.01f));
  const Tensor p = iSoftmax(t);
  EXPECT_EQ(p.i8()[0], 127);
  EXPECT_EQ(p.i8()[1], -128);
  EXPECT_EQ(p.saturation.total, 3);
  EXPECT_FLOAT_EQ(p.quant.scale[0], 1.0f / 256);
}

// i-LayerNorm error: the integer mean is rounded to a whole step (<= S/2), shifting every
// normalized value by up to S / (2 sigma) * |gamma|; the 32-bit variance datapath and the
// floors add < 1e-3 (measured 2e-4). Measured totals: 0.040 (S = 0.1), 0.0038 (S = 0.01),
// 0.0006 (S = 0.001) with sigma = 2, |gamma| <= 1.5.
TEST(KernelsIBert, ILayerNormErrorBound) {
  const int n = 768;
  const std::vector<float> g = ref::randomFloats(n, 0.5f, 1.5f, 4);
  std::vector<float> b = ref::randomFloats(n, -1.0f, 1.0f, 5);
  std::vector<float> gs = g;
  gs[3] = -0.7f;  // a negative gamma
  gs[4] = 0.0f;   // and a zero one: the output is beta alone
  std::mt19937 rng(3);
  std::normal_distribution<double> nd(0.5, 2.0);
  for (float s : {0.1f, 0.01f, 1e-3f}) {
    double max_err = 0.0;
    for (int rep = 0; rep < 10; ++rep) {
      std::vector<int32_t> q(n);
      for (int32_t& v : q) v = static_cast<int32_t>(std::lround(nd(rng) / s));
      const Tensor t = Tensor::fromInt32({1, n}, q, QuantParams::perTensor(s, 0, kI32Min, kI32Max));
      const Tensor y = iLayerNorm(t, gs, b);
      std::vector<double> x(n);
      for (int i = 0; i < n; ++i)
        x[static_cast<size_t>(i)] = q[static_cast<size_t>(i)] * static_cast<double>(s);
      const std::vector<double> want = ref::layerNorm(x, gs.data(), b.data(), 0.0);
      for (int i = 0; i < n; ++i)
        max_err = std::max(
            max_err,
            std::fabs(y.i32()[i] * static_cast<double>(y.quant.scale[static_cast<size_t>(i)]) -
                      want[static_cast<size_t>(i)]));
    }
    EXPECT_LE(max_err, 0.6 * s / 2.0 * 1.5 + 1e-3) << "S = " << s;
  }
  EXPECT_THROW(ILayerNorm({1.0f}, {}), Error);
}

// Integer RMSNorm (the i-LayerNorm datapath without the mean): no rounded mean, so the only
// errors are floor(sqrt(sum q^2)) (relative <= 1 / std_int), the floor of 2^31 / std_int
// (relative <= std_int / 2^31) and the final shift (one output step, sqrt(n) / 2^30 |gamma|).
// The bound is computed per row from those terms.
TEST(KernelsIBert, IRmsNormErrorBound) {
  const int n = 64;
  std::vector<float> g = ref::randomFloats(n, 0.5f, 1.5f, 6);
  g[2] = -0.8f;
  std::mt19937 rng(7);
  std::normal_distribution<double> nd(0.0, 1.0);
  const ILayerNorm rms = ILayerNorm::rms(g);
  for (int rep = 0; rep < 20; ++rep) {
    std::vector<int32_t> q(n);
    for (int32_t& v : q) v = static_cast<int32_t>(std::lround(nd(rng) * 40.0));
    std::vector<int32_t> y(n);
    rms.run(q.data(), y.data(), n);
    double ss = 0.0;
    for (int32_t v : q) ss += static_cast<double>(v) * v;
    const double rms_q = std::sqrt(ss / n), std_int = std::floor(std::sqrt(ss));
    const QuantParams out = rms.outputQuant();
    for (int i = 0; i < n; ++i) {
      const double want = q[static_cast<size_t>(i)] / rms_q * g[static_cast<size_t>(i)];
      const double got =
          y[static_cast<size_t>(i)] * static_cast<double>(out.scale[static_cast<size_t>(i)]);
      const double bound = std::fabs(want) * (1.0 / std_int + std_int / 0x1p31) +
                           2.0 * out.scale[static_cast<size_t>(i)];
      EXPECT_LE(std::fabs(got - want), bound) << "row " << rep << " col " << i;
    }
  }
}

TEST(KernelsIBert, IExpShape) {
  const IExp e(0.01f);
  // exp(0) = 1 and halves every ln 2; floor(b / S) costs 0.27% at S = 0.01.
  EXPECT_NEAR(e(0) * e.outputScale(), 1.0, 0.004);
  EXPECT_NEAR(e(-69) * e.outputScale(), 0.5, 0.01);
  EXPECT_EQ(e(-100000), 0);         // z clamps at 30: far below, nothing is left
  EXPECT_THROW(IExp(1.0f), Error);  // fewer than two integer steps per halving
  EXPECT_THROW(IExp(0.5f), Error);
  EXPECT_NO_THROW(IExp(0.3f));
}

}  // namespace
}  // namespace tessel::kernels
