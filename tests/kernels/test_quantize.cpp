// Quantization parameters, quantize/dequantize against a double reference, saturation
// counting, per-channel params, and calibration.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/numeric/calibrate.h"
#include "kernels/numeric/quantize.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

TEST(KernelsQuantize, SymmetricParams) {
  const QuantParams q = paramsForRange(-2.0f, 1.0f, QuantScheme::Symmetric);
  EXPECT_FLOAT_EQ(q.scale[0], 2.0f / 127.0f);
  EXPECT_EQ(q.zero_point[0], 0);
  EXPECT_EQ(q.qmin, -127);  // narrow range keeps the grid symmetric
  EXPECT_EQ(q.qmax, 127);
  EXPECT_FLOAT_EQ(paramsForRange(0.0f, 0.0f, QuantScheme::Symmetric).scale[0], 1.0f);
  EXPECT_EQ(paramsForRange(-1.0f, 1.0f, QuantScheme::Symmetric, 4).qmax, 7);
}

TEST(KernelsQuantize, AsymmetricParamsKeepZeroExact) {
  const QuantParams q = paramsForRange(0.5f, 6.0f, QuantScheme::Asymmetric);  // widened to 0
  EXPECT_FLOAT_EQ(q.scale[0], 6.0f / 255.0f);
  EXPECT_EQ(q.zero_point[0], -128);
  const QuantParams r = paramsForRange(-1.0f, 3.0f, QuantScheme::Asymmetric);
  const Tensor zero = Tensor::fromFloats({1}, {0.0f});
  EXPECT_EQ(dequantize(quantize(zero, r)).f32()[0], 0.0f);
  EXPECT_THROW(paramsForRange(1.0f, 0.0f, QuantScheme::Asymmetric), Error);
  EXPECT_THROW(paramsForRange(0.0f, 1.0f, QuantScheme::Asymmetric, 9), Error);
}

// q = clamp(round_half_even(x / s) + zp); compared with the same formula in double. Division
// in float vs double can only differ when x/s lands within float rounding of a .5 tie, which
// the check tolerates by requiring |x/s - (q - zp)| <= 0.5 + 1e-5.
TEST(KernelsQuantize, QuantizeMatchesReferenceAndRoundTrips) {
  const QuantParams q = QuantParams::perTensor(0.05f, 3);
  const Tensor x = ref::floatTensor({64, 33}, -6.0f, 6.0f, 11);
  const Tensor qx = quantize(x, q);
  const Tensor back = dequantize(qx);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double v = static_cast<double>(x.f32()[i]) / 0.05;
    const int expect = static_cast<int>(std::clamp(std::nearbyint(v) + 3, -128.0, 127.0));
    if (expect != qx.i8()[i]) {
      EXPECT_LE(std::fabs(v - (qx.i8()[i] - 3)), 0.5 + 1e-5);
    }
    if (expect > -128 && expect < 127) {  // unclipped: round trip within half a step
      EXPECT_LE(std::fabs(back.f32()[i] - x.f32()[i]), 0.025f + 1e-6f);
    }
  }
}

TEST(KernelsQuantize, SaturationIsCounted) {
  const Tensor x = Tensor::fromFloats({6}, {-100.0f, -1.0f, 0.0f, 1.0f, 100.0f, NAN});
  const Tensor q = quantize(x, QuantParams::perTensor(0.1f, 0, -127, 127));
  EXPECT_EQ(q.saturation.total, 6);
  EXPECT_EQ(q.saturation.low, 2);  // -100 and NaN
  EXPECT_EQ(q.saturation.high, 1);
  EXPECT_EQ(q.i8()[0], -127);
  EXPECT_EQ(q.i8()[1], -10);
  EXPECT_EQ(q.i8()[4], 127);
  // Exactly at the edge after rounding is not a clip.
  const Tensor edge = quantize(Tensor::fromFloats({2}, {12.74f, -12.74f}),
                               QuantParams::perTensor(0.1f, 0, -127, 127));
  EXPECT_EQ(edge.saturation.clipped(), 0);
}

TEST(KernelsQuantize, PerChannelLastAxisAndFirstAxis) {
  QuantParams q;
  q.scale = {0.1f, 1.0f, 0.01f};
  q.zero_point = {0, 5, -3};
  q.axis = -1;
  const Tensor x = Tensor::fromFloats({2, 3}, {0.5f, 2.0f, 0.02f, -0.5f, -2.0f, 5.0f});
  const Tensor qx = quantize(x, q);
  const int8_t want[] = {5, 7, -1, -5, 3, 127};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(qx.i8()[i], want[i]) << i;
  EXPECT_EQ(qx.saturation.high, 1);  // 5.0 / 0.01 - 3
  const Tensor back = dequantize(qx);
  EXPECT_FLOAT_EQ(back.f32()[1], 2.0f);
  q.axis = 0;  // now channels are rows: only 2 of them
  EXPECT_THROW(quantize(x, q), Error);
  q.scale = {0.1f, 1.0f};
  q.zero_point = {0, 0};
  EXPECT_EQ(quantize(x, q).i8()[3], 0);  // -0.5 / 1.0: the tie rounds to even, 0
  EXPECT_EQ(quantize(x, q).i8()[0], 5);
}

TEST(KernelsCalibrate, MinMaxAndPercentile) {
  std::vector<float> v(10000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) / 1000.0f;  // [0, 10)
  v[17] = 1000.0f;                                                               // one outlier
  const Range mm = minMaxRange(v.data(), 10000);
  EXPECT_EQ(mm.lo, 0.0f);
  EXPECT_EQ(mm.hi, 1000.0f);
  const Range p = percentileRange(v.data(), 10000, 99.9, QuantScheme::Asymmetric);
  EXPECT_LT(p.hi, 10.0f);  // the outlier is clipped away
  EXPECT_GT(p.hi, 9.9f);
  const Range s = percentileRange(v.data(), 10000, 99.99, QuantScheme::Symmetric);
  EXPECT_EQ(s.lo, -s.hi);
  EXPECT_THROW(percentileRange(v.data(), 10, 40.0, QuantScheme::Symmetric), Error);

  Calibration c;
  c.method = CalibrationMethod::Percentile;
  c.percentile = 99.9;
  const Tensor x = Tensor::fromFloats({10000}, v);
  const QuantParams q = calibrate(x, c);
  const Tensor qx = quantize(x, q);
  EXPECT_GT(qx.saturation.high, 0);  // percentile calibration clips, and says so
  c.method = CalibrationMethod::MinMax;
  EXPECT_EQ(quantize(x, calibrate(x, c)).saturation.clipped(), 0);
}

TEST(KernelsCalibrate, PerChannelWeights) {
  // [K=3, N=2]: column 0 spans +-1, column 1 spans +-10.
  const Tensor w = Tensor::fromFloats({3, 2}, {1.0f, 10.0f, -0.5f, -10.0f, 0.25f, 5.0f});
  Calibration c;
  c.per_channel = true;
  c.axis = -1;
  const QuantParams q = calibrate(w, c);
  ASSERT_EQ(q.scale.size(), 2u);
  EXPECT_FLOAT_EQ(q.scale[0], 1.0f / 127.0f);
  EXPECT_FLOAT_EQ(q.scale[1], 10.0f / 127.0f);
  const Tensor qw = quantize(w, q);
  EXPECT_EQ(qw.i8()[0], 127);
  EXPECT_EQ(qw.i8()[1], 127);
  EXPECT_EQ(qw.i8()[3], -127);
}

}  // namespace
}  // namespace tessel::kernels
