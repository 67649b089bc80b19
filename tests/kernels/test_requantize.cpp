// Fixed-point requantization: gemmlowp primitives on known values, multiplier encoding, and the
// integer path against a double reference (at most 1 LSB off; exact when no rounding happens in
// the high multiply).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "kernels/numeric/requantize.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

TEST(KernelsRequantize, HighMulKnownValues) {
  EXPECT_EQ(roundingDoublingHighMul(kMin, kMin), kMax);  // the one overflow saturates
  EXPECT_EQ(roundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
  EXPECT_EQ(roundingDoublingHighMul(1, 1 << 30), 1);    // 0.5 -> 1
  EXPECT_EQ(roundingDoublingHighMul(-1, 1 << 30), 0);   // -0.5 -> 0: ties go up
  EXPECT_EQ(roundingDoublingHighMul(-3, 1 << 30), -1);  // -1.5 -> -1
  EXPECT_EQ(roundingDoublingHighMul(kMax, kMax), kMax - 1);
  EXPECT_EQ(roundingDoublingHighMul(kMin, kMax), kMin + 1);
}

TEST(KernelsRequantize, DivideByPowerOfTwoTiesAwayFromZero) {
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3);
  EXPECT_EQ(roundingDivideByPOT(6, 2), 2);    // 1.5 -> 2
  EXPECT_EQ(roundingDivideByPOT(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(roundingDivideByPOT(-5, 2), -1);  // -1.25 -> -1
  EXPECT_EQ(roundingDivideByPOT(kMin, 31), -1);
  EXPECT_EQ(roundingDivideByPOT(kMax, 31), 1);
  EXPECT_EQ(roundingDivideByPOT(7, 0), 7);
  EXPECT_THROW(roundingDivideByPOT(1, 32), Error);
}

TEST(KernelsRequantize, MultiplierEncoding) {
  const FixedPointMultiplier half = toFixedPoint(0.5);
  EXPECT_EQ(half.multiplier, 1 << 30);
  EXPECT_EQ(half.shift, 0);
  const FixedPointMultiplier m = toFixedPoint(0.375);  // 0.75 * 2^-1
  EXPECT_EQ(m.multiplier, 3 << 29);
  EXPECT_EQ(m.shift, 1);
  const FixedPointMultiplier big = toFixedPoint(3.0);  // 0.75 * 2^2: a left shift
  EXPECT_EQ(big.shift, -2);
  const FixedPointMultiplier up = toFixedPoint(1.0 - 1e-12);  // rounds to 2^31: renormalized
  EXPECT_EQ(up.multiplier, 1 << 30);
  EXPECT_EQ(up.shift, -1);
  for (double r : {1e-7, 0.1, 0.999, 1.5, 1000.0}) {
    const FixedPointMultiplier f = toFixedPoint(r);
    EXPECT_GE(f.multiplier, 1 << 30);
    EXPECT_NEAR(std::ldexp(f.multiplier, -31 - f.shift), r, r * 1e-9);
  }
  EXPECT_EQ(toFixedPoint(1e-12).multiplier, 0);
  EXPECT_THROW(toFixedPoint(0.0), Error);
  EXPECT_THROW(toFixedPoint(-1.0), Error);
  EXPECT_THROW(toFixedPoint(NAN), Error);
}

// Two roundings (high mul, then shift) and a 31-bit multiplier: at most 1 LSB from
// round(x * real). The second rounding only flips a result when the first one moved x * real
// onto the other side of a .5 boundary, which happens for ~1.3% of these random cases.
TEST(KernelsRequantize, WithinOneLsbOfDoubleReference) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int32_t> xs(-(1 << 24), 1 << 24);
  std::uniform_real_distribution<double> exps(-20.0, 3.0);
  int64_t off = 0, total = 0;
  for (int t = 0; t < 200; ++t) {
    const double real = std::pow(2.0, exps(rng));
    const FixedPointMultiplier m = toFixedPoint(real);
    for (int i = 0; i < 2000; ++i) {
      const int32_t x = xs(rng);
      const double want = std::round(static_cast<double>(x) * real);
      if (std::fabs(want) > 2e9) continue;
      const int32_t got = multiplyByFixedPoint(x, m);
      ASSERT_LE(std::fabs(got - want), 1.0) << x << " * " << real;
      off += got != want;
      ++total;
    }
  }
  EXPECT_LT(static_cast<double>(off) / static_cast<double>(total), 0.03);
}

// When x * multiplier is a multiple of 2^31 the high multiply is exact and the only rounding is
// the final shift (ties away from zero), which is what std::round does.
TEST(KernelsRequantize, ExactForRepresentableCases) {
  const FixedPointMultiplier m = toFixedPoint(0.375);  // multiplier 3 * 2^29, shift 1
  for (int32_t x = -100000; x <= 100000; x += 4)
    ASSERT_EQ(multiplyByFixedPoint(x, m), static_cast<int32_t>(std::round(x * 0.375))) << x;
  const FixedPointMultiplier p = toFixedPoint(1.0 / 64);  // 2^30, shift 5
  for (int32_t x = -100000; x <= 100000; x += 2)
    ASSERT_EQ(multiplyByFixedPoint(x, p), static_cast<int32_t>(std::round(x / 64.0))) << x;
  const FixedPointMultiplier g = toFixedPoint(4.0);  // left shift, exact
  EXPECT_EQ(multiplyByFixedPoint(1000, g), 4000);
  EXPECT_EQ(multiplyByFixedPoint(1 << 30, g), kMax);  // saturates
}

TEST(KernelsRequantize, TensorRequantizePerChannelAndSaturation) {
  const Tensor acc = Tensor::fromInt32({2, 3}, {100, -100, 4000, 7, 1 << 20, -(1 << 20)});
  QuantParams out = QuantParams::perTensor(0.5f, 10);
  const Requant r = makeRequant({0.01f, 0.02f, 0.03f}, out);  // per-column accumulator scales
  const Tensor q = requantize(acc, r);
  // 100 * 0.01 / 0.5 = 2 (+10); -100 * 0.04 = -4 (+10); 4000 * 0.06 = 240 -> clip 127.
  EXPECT_EQ(q.i8()[0], 12);
  EXPECT_EQ(q.i8()[1], 6);
  EXPECT_EQ(q.i8()[2], 127);
  EXPECT_EQ(q.i8()[3], 10);  // 7 * 0.02 = 0.14 -> 0
  EXPECT_EQ(q.saturation.total, 6);
  EXPECT_EQ(q.saturation.high, 2);
  EXPECT_EQ(q.saturation.low, 1);
  EXPECT_EQ(q.quant.zero_point[0], 10);
  EXPECT_THROW(requantize(acc, makeRequant({0.1f, 0.2f}, out)), Error);
}

// The vectorized row path must equal the scalar primitives exactly: random accumulators with
// extremes, ragged lengths, per-tensor and per-column multipliers (some >= 1, i.e. left shifts).
TEST(KernelsRequantize, VectorPathEqualsScalarPrimitives) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> exps(-24.0, 2.0);
  for (int64_t cols : {1, 7, 8, 13, 64, 257}) {
    std::vector<int32_t> acc(static_cast<size_t>(3 * cols));
    for (int32_t& v : acc) v = static_cast<int32_t>(rng());
    acc[0] = kMin;
    acc.back() = kMax;
    std::vector<float> scales(static_cast<size_t>(cols));
    for (float& sc : scales) sc = static_cast<float>(std::pow(2.0, exps(rng)));
    const QuantParams out = QuantParams::perTensor(1.0f, -3, -100, 110);
    for (bool per_col : {false, true}) {
      const Requant r = makeRequant(per_col ? scales : std::vector<float>{scales[0]}, out);
      const Tensor q = requantize(Tensor::fromInt32({3, cols}, acc), r);
      int64_t low = 0, high = 0;
      for (int64_t i = 0; i < 3 * cols; ++i) {
        const FixedPointMultiplier m = r.multipliers[per_col ? static_cast<size_t>(i % cols) : 0];
        const int64_t v = int64_t{multiplyByFixedPoint(acc[static_cast<size_t>(i)], m)} - 3;
        low += v < -100;
        high += v > 110;
        ASSERT_EQ(q.i8()[i], std::clamp<int64_t>(v, -100, 110)) << cols << " " << i;
      }
      EXPECT_EQ(q.saturation.low, low);
      EXPECT_EQ(q.saturation.high, high);
    }
  }
}

}  // namespace
}  // namespace tessel::kernels
