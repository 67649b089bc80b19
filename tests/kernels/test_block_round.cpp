// Rounding to narrow and block-scaled dtypes (block_round.h, the narrow FloatFormats) against
// references written here from the formats' definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/numeric/block_round.h"
#include "kernels/numeric/float_format.h"
#include "kernels/numeric/mx_block.h"
#include "kernels/numeric/narrow_format.h"
#include "kernels/numeric/tensor.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

std::vector<float> gaussian(size_t n, unsigned seed, float sigma = 1.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, sigma);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

float fp16(double x) { return halfBitsToFloat(floatToHalfBits(static_cast<float>(x))); }

// FP4 E2M1 by its value table (codes 0..7 in order), round to nearest, ties to the even code,
// saturating at 6.
double e2m1(double x) {
  static const std::array<double, 8> kValues{0, 0.5, 1, 1.5, 2, 3, 4, 6};
  const double a = std::min(std::fabs(x), 6.0);
  size_t best = 0;
  for (size_t i = 1; i < kValues.size(); ++i) {
    const double d = std::fabs(a - kValues[i]), db = std::fabs(a - kValues[best]);
    if (d < db || (d == db && i % 2 == 0)) best = i;
  }
  return std::copysign(kValues[best], x);
}

// int4 in groups along a row with an fp16 scale: scale = fp16(amax / 7), q = rne(x / scale)
// saturated to [-8, 7].
std::vector<float> int4GroupsFp16(std::vector<float> x, size_t group) {
  for (size_t g0 = 0; g0 < x.size(); g0 += group) {
    const size_t g1 = std::min(x.size(), g0 + group);
    double amax = 0;
    for (size_t i = g0; i < g1; ++i) amax = std::max(amax, std::fabs(double{x[i]}));
    const double s = fp16(amax / 7.0);
    for (size_t i = g0; i < g1; ++i)
      x[i] = static_cast<float>(std::clamp(std::nearbyint(x[i] / s), -8.0, 7.0) * s);
  }
  return x;
}

TEST(BlockRound, Int4GroupsWithFp16ScaleMatchTheFormula) {
  std::vector<float> x = gaussian(300, 1);  // two full groups of 128 and a short one of 44
  x[5] = 9.0f;                              // a group with an outlier
  const std::vector<float> want = int4GroupsFp16(x, 128);
  roundRows(x.data(), 1, static_cast<int64_t>(x.size()), *parseDType("int4_g128_fp16"));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i], want[i]) << i;
}

TEST(BlockRound, Mxfp4MatchesTheSpecClosedForm) {
  std::vector<float> x = gaussian(96, 2, 3.0f);
  std::vector<float> want = x;
  for (size_t b = 0; b < want.size(); b += 32) {  // shared_exp = floor(log2 amax) - emax(2)
    double amax = 0;
    for (size_t i = b; i < b + 32; ++i) amax = std::max(amax, std::fabs(double{want[i]}));
    const double scale = std::ldexp(1.0, std::ilogb(amax) - 2);
    for (size_t i = b; i < b + 32; ++i) want[i] = static_cast<float>(e2m1(want[i] / scale) * scale);
  }
  roundRows(x.data(), 3, 32, DType::MXFP4);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i], want[i]) << i;
}

// The generic E8M0 path (any block size) agrees with the MX codec on blocks it can encode.
TEST(BlockRound, GenericE8m0BlocksAgreeWithTheMxCodec) {
  for (const char* name : {"fp4_e2m1_g16_e8m0", "fp8_e4m3_g16_e8m0", "int8_g16_e8m0"}) {
    std::vector<float> x = gaussian(64, 3, 10.0f), y = x;
    roundRows(x.data(), 1, 64, *parseDType(name));
    const MxElement e = name[0] == 'i'   ? MxElement::INT8
                        : name[2] == '4' ? MxElement::FP4_E2M1
                                         : MxElement::FP8_E4M3;
    for (int b = 0; b < 64; b += 16) roundRowMx(y.data() + b, 16, e);
    EXPECT_EQ(x, y) << name;
  }
}

TEST(BlockRound, Nvfp4ScalesInE4m3) {
  std::vector<float> x = gaussian(32, 4, 0.01f), want = x;
  for (size_t b = 0; b < 32; b += 16) {  // scale = e4m3(amax / 6), elements e2m1(x / scale)
    double amax = 0;
    for (size_t i = b; i < b + 16; ++i) amax = std::max(amax, std::fabs(double{want[i]}));
    const double s = roundTo(static_cast<float>(amax / 6.0), NarrowFloat::E4M3);
    for (size_t i = b; i < b + 16; ++i) want[i] = static_cast<float>(e2m1(want[i] / s) * s);
  }
  roundRows(x.data(), 1, 32, *parseDType("nvfp4"));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_FLOAT_EQ(x[i], want[i]) << i;
}

TEST(BlockRound, SpecialBlocks) {
  const DType t = *parseDType("int4_g4_bf16");
  std::vector<float> x{0.0f, -0.0f, 0.0f, 0.0f, 1.0f, std::numeric_limits<float>::infinity(),
                       2.0f, 3.0f};
  roundRows(x.data(), 1, 8, t);
  EXPECT_EQ(x[0], 0.0f);
  EXPECT_TRUE(std::signbit(x[1]));                                 // zeros keep their sign
  for (int i = 4; i < 8; ++i) EXPECT_TRUE(std::isnan(x[i])) << i;  // an inf poisons its block
  EXPECT_THROW(roundRows(x.data(), 1, 8, DType::Int8), Error);
}

TEST(NarrowFormats, FloatFormatsRoundAndSaturate) {
  EXPECT_EQ(formatOf(DType::FP8_E4M3), FloatFormat::FP8_E4M3);
  EXPECT_EQ(dtypeOf(FloatFormat::FP4_E2M1), DType::FP4_E2M1);
  EXPECT_EQ(formatOf(DType::MXFP4), FloatFormat::FP32);  // blocks are rounded by row
  EXPECT_EQ(roundTo(1000.0f, FloatFormat::FP8_E4M3), 448.0f);
  EXPECT_EQ(roundTo(-1e6f, FloatFormat::FP8_E5M2), -57344.0f);
  EXPECT_EQ(roundTo(1.0625f, FloatFormat::FP8_E4M3), 1.0f);  // a tie: to the even code
  EXPECT_EQ(roundTo(2.6, FloatFormat::FP4_E2M1), 3.0f);
  EXPECT_EQ(maxFinite(FloatFormat::FP6_E2M3), 7.5f);
  std::vector<float> v = gaussian(100, 5, 50.0f);
  roundInPlace(v.data(), 100, FloatFormat::FP6_E3M2);
  for (float f : v) EXPECT_EQ(f, roundTo(f, NarrowFloat::E3M2));
  const Tensor t = Tensor::fromFloats({2, 32}, gaussian(64, 6), DType::MXFP8_E4M3);
  EXPECT_EQ(t.dtype(), DType::MXFP8_E4M3);
  EXPECT_THROW(Tensor({2}, DType::Int4), Error);
}

}  // namespace
}  // namespace tessel::kernels
