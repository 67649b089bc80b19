// FP16 / BF16 conversions: known bit patterns, ties to even, overflow, subnormals, NaN, and a
// dense cross-check against an independent frexp/nearbyint reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/numeric/float_format.h"
#include "reference.h"
#include "kernels/numeric/float_bits.h"

namespace tessel::kernels {
namespace {

TEST(KernelsFloatFormat, HalfKnownBitPatterns) {
  EXPECT_EQ(floatToHalfBits(0.0f), 0x0000);
  EXPECT_EQ(floatToHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);  // largest finite
  EXPECT_EQ(floatToHalfBits(0x1p-14f), 0x0400);  // smallest normal
  EXPECT_EQ(floatToHalfBits(0x1p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalfBits(0.333333343f), 0x3555);
  EXPECT_EQ(halfBitsToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfBitsToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfBitsToFloat(0x03ff), 1023 * 0x1p-24f);  // largest subnormal
  EXPECT_EQ(halfBitsToFloat(0x7c00), INFINITY);
  EXPECT_EQ(halfBitsToFloat(0xfc00), -INFINITY);
}

TEST(KernelsFloatFormat, HalfTiesToEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even mantissa (1.0) wins.
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * 0x1p-11f), 0x3c02);
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);  // just above the tie
  EXPECT_EQ(floatToHalfBits(0x1p-25f), 0x0000);                    // subnormal tie -> 0
  EXPECT_EQ(floatToHalfBits(3 * 0x1p-25f), 0x0002);                // 1.5 ulp -> 2
}

TEST(KernelsFloatFormat, HalfOverflowAndNaN) {
  EXPECT_EQ(floatToHalfBits(65519.0f), 0x7bff);  // below the 65520 tie
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00);  // the tie rounds to even = inf
  EXPECT_EQ(floatToHalfBits(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalfBits(-1e10f), 0xfc00);
  EXPECT_EQ(floatToHalfBits(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(NAN))));
  EXPECT_TRUE(std::isnan(roundTo(NAN, FloatFormat::BF16)));
}

TEST(KernelsFloatFormat, HalfRoundTripsAllValues) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const auto bits = static_cast<uint16_t>(h);
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff)) continue;  // NaN payloads
    ASSERT_EQ(floatToHalfBits(halfBitsToFloat(bits)), bits) << std::hex << h;
  }
}

// For every finite half h: h, the midpoint to its successor, and one float ulp either side of
// that midpoint must round as the reference says. Covers every tie and near-tie.
TEST(KernelsFloatFormat, HalfMatchesReferenceAroundEveryTie) {
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const double lo = halfBitsToFloat(static_cast<uint16_t>(h));
    const double hi = halfBitsToFloat(static_cast<uint16_t>(h + 1));
    const auto mid = static_cast<float>((lo + hi) / 2);  // exact in float
    for (float x :
         {static_cast<float>(lo), mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f)})
      for (float s : {x, -x}) {
        ASSERT_EQ(roundTo(s, FloatFormat::FP16), static_cast<float>(ref::roundHalf(s))) << s;
        ASSERT_EQ(roundTo(static_cast<double>(s), FloatFormat::FP16),
                  roundTo(s, FloatFormat::FP16));
      }
  }
}

TEST(KernelsFloatFormat, Bf16KnownBitPatternsAndTies) {
  EXPECT_EQ(floatToBf16Bits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16Bits(-2.0f), 0xc000);
  EXPECT_EQ(floatToBf16Bits(floatOf(0x3f808000)), 0x3f80);  // tie, even stays
  EXPECT_EQ(floatToBf16Bits(floatOf(0x3f818000)), 0x3f82);  // tie, odd rounds up
  EXPECT_EQ(floatToBf16Bits(floatOf(0x3f808001)), 0x3f81);
  EXPECT_EQ(floatToBf16Bits(floatOf(0x7f7fffff)), 0x7f80);  // FLT_MAX overflows to inf
  EXPECT_EQ(floatToBf16Bits(floatOf(0x00000001)), 0x0000);  // float denormal below half ulp
  EXPECT_EQ(bf16BitsToFloat(0x4049), 3.140625f);
}

TEST(KernelsFloatFormat, RandomBitPatternsMatchReference) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2000000; ++i) {
    const float f = floatOf(static_cast<uint32_t>(rng()));
    if (std::isnan(f)) continue;
    ASSERT_EQ(roundTo(f, FloatFormat::FP16), static_cast<float>(ref::roundHalf(f))) << f;
    ASSERT_EQ(roundTo(f, FloatFormat::BF16), static_cast<float>(ref::roundBf16(f))) << f;
    ASSERT_EQ(roundTo(static_cast<double>(f), FloatFormat::BF16), roundTo(f, FloatFormat::BF16));
  }
}

// roundInPlace (branch-free, vectorized) must agree with roundTo on every tie neighbourhood and
// on random bit patterns.
TEST(KernelsFloatFormat, ArrayRoundingMatchesScalar) {
  std::vector<float> v;
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const float lo = halfBitsToFloat(static_cast<uint16_t>(h));
    const float mid = (lo + halfBitsToFloat(static_cast<uint16_t>(h + 1))) / 2;
    for (float x : {lo, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f)})
      v.insert(v.end(), {x, -x});
  }
  std::mt19937 rng(9);
  for (int i = 0; i < 500000; ++i) {
    const float f = floatOf(static_cast<uint32_t>(rng()));
    if (!std::isnan(f)) v.push_back(f);
  }
  v.insert(v.end(), {INFINITY, -INFINITY, 65520.0f, -65520.0f, 0x1p-25f, 3e38f, -3.4e38f});
  for (FloatFormat fmt : {FloatFormat::FP16, FloatFormat::BF16}) {
    std::vector<float> r = v;
    roundInPlace(r.data(), static_cast<int64_t>(r.size()), fmt);
    for (size_t i = 0; i < v.size(); ++i)
      ASSERT_EQ(bitsOf(r[i]), bitsOf(roundTo(v[i], fmt))) << v[i];
  }
  std::vector<float> nan{NAN};
  roundInPlace(nan.data(), 1, FloatFormat::FP16);
  EXPECT_TRUE(std::isnan(nan[0]));
}

TEST(KernelsFloatFormat, DoubleInputRoundsOnce) {
  // 1 + 2^-11 + 2^-40 is above the FP16 tie; rounding via float first would land on the tie and
  // go to even. A single rounding from double must go up.
  EXPECT_EQ(roundTo(1.0 + 0x1p-11 + 0x1p-40, FloatFormat::FP16), 1.0f + 0x1p-10f);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> d(-70000.0, 70000.0);
  for (int i = 0; i < 200000; ++i) {
    const double x = d(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 30);
    ASSERT_EQ(roundTo(x, FloatFormat::FP16), static_cast<float>(ref::roundHalf(x))) << x;
    ASSERT_EQ(roundTo(x, FloatFormat::BF16), static_cast<float>(ref::roundBf16(x))) << x;
  }
}

}  // namespace
}  // namespace tessel::kernels
