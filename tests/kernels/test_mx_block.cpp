// OCP MX v1.0 blocks: the shared scale for known maxima, NaN/inf and zero blocks, saturation
// and flushing inside a block, MXINT8, short blocks, and decodeBlock(encodeBlock(x)) against a
// reference written here (scale from the section 6.3 formula, elements by brute-force nearest).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/numeric/mx_block.h"
#include "util/error.h"
#include "kernels/numeric/float_bits.h"

namespace tessel::kernels {
namespace {

constexpr MxElement kElements[] = {MxElement::FP8_E4M3, MxElement::FP8_E5M2, MxElement::FP6_E3M2,
                                   MxElement::FP6_E2M3, MxElement::FP4_E2M1, MxElement::INT8};

struct RefElement {
  int E, M, bias;
  double max;  // largest finite magnitude
  int emax;    // its exponent
};

// MX v1.0 section 5.3; INT8 is handled apart (E = 0 marks it).
RefElement refElement(MxElement e) {
  switch (e) {
    case MxElement::FP8_E4M3:
      return {4, 3, 7, 448, 8};
    case MxElement::FP8_E5M2:
      return {5, 2, 15, 57344, 15};
    case MxElement::FP6_E3M2:
      return {3, 2, 3, 28, 4};
    case MxElement::FP6_E2M3:
      return {2, 3, 1, 7.5, 2};
    case MxElement::FP4_E2M1:
      return {2, 1, 1, 6, 2};
    case MxElement::INT8:
      break;
  }
  return {0, 0, 0, 127.0 / 64, 0};
}

// Non-negative element values, increasing, indexed by a code whose parity is the mantissa lsb.
std::vector<double> elementMagnitudes(MxElement e) {
  const RefElement r = refElement(e);
  std::vector<double> v;
  if (r.E == 0) {
    for (int k = 0; k <= 128; ++k) v.push_back(k / 64.0);  // 128/64 = -(-2): the negative end
    return v;
  }
  for (int c = 0;; ++c) {
    const int exp = c >> r.M, man = c & ((1 << r.M) - 1);
    const double x = exp == 0 ? std::ldexp(man, 1 - r.bias - r.M)
                              : std::ldexp(1.0 + std::ldexp(man, -r.M), exp - r.bias);
    if (x > r.max) break;
    v.push_back(x);
  }
  return v;
}

// Nearest element to v, normals beyond the max clamped to it, ties to the even index.
double refQuantize(MxElement e, double v) {
  static std::vector<double> mags[6];
  std::vector<double>& m = mags[static_cast<int>(e)];
  if (m.empty()) m = elementMagnitudes(e);
  const bool negative = std::signbit(v);
  // INT8's positive side stops at 127/64; its negative side reaches -2 (index 128).
  const size_t last = refElement(e).E == 0 && !negative ? m.size() - 2 : m.size() - 1;
  const double a = std::min(std::fabs(v), m[last]);
  size_t best = 0;
  for (size_t i = 1; i <= last; ++i) {
    const double d = std::fabs(m[i] - a), bd = std::fabs(m[best] - a);
    if (d < bd || (d == bd && i % 2 == 0)) best = i;
  }
  if (refElement(e).E == 0 && best == 0) return 0.0;  // two's complement: one zero, +0
  return negative ? -m[best] : m[best];
}

// floor(log2(max |x|)) by frexp (max = f 2^k, f in [0.5, 1)), minus emax, clamped.
int refSharedExp(MxElement e, const float* x, int n) {
  double max_abs = 0;
  for (int i = 0; i < n; ++i) max_abs = std::max(max_abs, std::fabs(static_cast<double>(x[i])));
  if (max_abs == 0) return -127;
  int k = 0;
  std::frexp(max_abs, &k);
  return std::clamp(k - 1 - refElement(e).emax, -127, 127);
}

std::vector<float> refRoundBlock(MxElement e, const float* x, int n) {
  const int s = refSharedExp(e, x, n);
  std::vector<float> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double q = refQuantize(e, static_cast<double>(x[i]) / std::ldexp(1.0, s));
    out[static_cast<size_t>(i)] = static_cast<float>(q * std::ldexp(1.0, s));
  }
  return out;
}

std::vector<float> roundTrip(MxElement e, const std::vector<float>& x) {
  std::vector<float> out(x.size(), 12345.0f);
  decodeBlock(e, encodeBlock(e, x.data(), static_cast<int>(x.size())), out.data());
  return out;
}

void expectBitsEqual(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(bitsOf(got[i]), bitsOf(want[i]))
        << "element " << i << ": " << got[i] << " vs " << want[i];
}

uint8_t scaleFor(MxElement e, float max_abs) {
  std::vector<float> x(kMxBlock, 0.0f);
  x[7] = -max_abs;
  return encodeBlock(e, x.data(), kMxBlock).scale;
}

TEST(MxBlock, ElementBitsAndEmax) {
  const int bits[] = {8, 8, 6, 6, 4, 8}, emax[] = {8, 15, 4, 2, 2, 0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(elementBits(kElements[i]), bits[i]);
    EXPECT_EQ(elementEmax(kElements[i]), emax[i]);
  }
}

TEST(MxBlock, DecodesE8M0Scales) {
  EXPECT_EQ(decodeScale(127), 1.0f);
  EXPECT_EQ(decodeScale(119), 0x1p-8f);
  EXPECT_EQ(decodeScale(0), 0x1p-127f);  // an FP32 subnormal
  EXPECT_EQ(decodeScale(254), 0x1p127f);
  EXPECT_TRUE(std::isnan(decodeScale(255)));
}

TEST(MxBlock, SharedScaleFollowsTheFormula) {
  EXPECT_EQ(scaleFor(MxElement::FP8_E4M3, 1.0f), 119);     // 0 - 8 = -8
  EXPECT_EQ(scaleFor(MxElement::FP8_E4M3, 1.99f), 119);    // floor(log2) is still 0
  EXPECT_EQ(scaleFor(MxElement::FP8_E5M2, 1.0f), 112);     // 0 - 15
  EXPECT_EQ(scaleFor(MxElement::FP6_E3M2, 0.3f), 121);     // -2 - 4
  EXPECT_EQ(scaleFor(MxElement::FP4_E2M1, 6.0f), 127);     // 2 - 2
  EXPECT_EQ(scaleFor(MxElement::INT8, 1.0f), 127);         // 0 - 0
  EXPECT_EQ(scaleFor(MxElement::INT8, 0.5f), 126);         // -1 - 0
  EXPECT_EQ(scaleFor(MxElement::FP8_E4M3, 0x1p-140f), 0);  // -148 clamps to -127
  EXPECT_EQ(scaleFor(MxElement::INT8, std::numeric_limits<float>::max()), 254);      // 127
  EXPECT_EQ(scaleFor(MxElement::FP8_E5M2, std::numeric_limits<float>::max()), 239);  // 112
}

TEST(MxBlock, NaNOrInfinityMakesTheWholeBlockNaN) {
  for (const MxElement e : kElements) {
    for (const float special : {NAN, INFINITY, -INFINITY}) {
      std::vector<float> x(kMxBlock, 1.5f);
      x[3] = special;
      const MxBlock b = encodeBlock(e, x.data(), kMxBlock);
      EXPECT_EQ(b.scale, 0xff);
      for (const float y : roundTrip(e, x)) EXPECT_TRUE(std::isnan(y));
    }
  }
}

TEST(MxBlock, ZeroBlockTakesTheSmallestScaleAndKeepsSigns) {
  for (const MxElement e : kElements) {
    std::vector<float> x(kMxBlock, 0.0f);
    x[1] = -0.0f;
    EXPECT_EQ(encodeBlock(e, x.data(), kMxBlock).scale, 0);
    const std::vector<float> y = roundTrip(e, x);
    for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], 0.0f);
    // INT8 has a single zero; the float elements keep -0.
    EXPECT_EQ(std::signbit(y[1]), e != MxElement::INT8);
  }
}

TEST(MxBlock, HugeValueSaturatesAndTinyOnesFlush) {
  std::vector<float> x(kMxBlock, 1e-3f);
  x[0] = 1000.0f;
  x[1] = -3.0f;
  // E4M3: shared = floor(log2 1000) - 8 = 1. 1000 / 2 = 500 clamps to 448 (-> 896); -3 / 2 is
  // exact; 1e-3 / 2 is below 2^-10, half the smallest subnormal: flushes to 0.
  std::vector<float> y = roundTrip(MxElement::FP8_E4M3, x);
  EXPECT_EQ(y[0], 896.0f);
  EXPECT_EQ(y[1], -3.0f);
  EXPECT_EQ(y[2], 0.0f);
  // E2M1: shared = 9 - 2 = 7. 1000 / 128 = 7.8 clamps to 6 (-> 768); -3 / 128 and 1e-3 / 128
  // are below 0.25 (half of 0.5): both flush to zero, keeping the sign.
  y = roundTrip(MxElement::FP4_E2M1, x);
  EXPECT_EQ(y[0], 768.0f);
  EXPECT_EQ(bitsOf(y[1]), bitsOf(-0.0f));
  EXPECT_EQ(y[2], 0.0f);
}

TEST(MxBlock, Int8ElementsAreSixtyFourthsRoundedHalfToEven) {
  // Max 1.999 -> shared exp 0, scale 1: each element is round(x * 64) / 64, saturated.
  const std::vector<float> x = {1.999f,      -1.999f,    0.5f,  1.0f / 128, 3.0f / 128,
                                -5.0f / 128, 1.0f / 256, -1.0f, 0.0f};
  const MxBlock b = encodeBlock(MxElement::INT8, x.data(), static_cast<int>(x.size()));
  EXPECT_EQ(b.scale, 127);
  const uint8_t want[] = {0x7f,  // 127.94 -> 128 saturates to 127
                          0x80,  // -127.94 -> -128: the spec's range reaches -2
                          0x20,  // 32
                          0x00,  // 0.5 -> tie to even 0
                          0x02,  // 1.5 -> 2
                          0xfe,  // -2.5 -> -2
                          0x00,  // 0.25 -> 0
                          0xc0,  // -64
                          0x00};
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(b.codes[i], want[i]) << "element " << i;
  const std::vector<float> y = roundTrip(MxElement::INT8, x);
  EXPECT_EQ(y[0], 127.0f / 64);
  EXPECT_EQ(y[1], -2.0f);
  EXPECT_EQ(y[5], -2.0f / 64);
}

// Blocks of N(0, 1) times a random power of two, some with outliers, zeros and subnormals.
std::vector<float> randomBlock(std::mt19937& rng, int n) {
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> binade(-40, 40), pick(0, 9);
  const float scale = std::ldexp(1.0f, binade(rng));
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) {
    v = normal(rng) * scale;
    const int p = pick(rng);
    if (p == 0) v *= 1000.0f;
    if (p == 1) v = 0.0f;
    if (p == 2) v = std::ldexp(normal(rng), -135);  // FP32 subnormal
  }
  return x;
}

TEST(MxBlock, RoundTripMatchesTheReference) {
  std::mt19937 rng(7);
  for (const MxElement e : kElements) {
    for (int i = 0; i < 3000; ++i) {
      const int n = i % 10 == 0 ? 1 + i % kMxBlock : kMxBlock;
      const std::vector<float> x = randomBlock(rng, n);
      const MxBlock b = encodeBlock(e, x.data(), n);
      ASSERT_EQ(b.scale, refSharedExp(e, x.data(), n) + 127);
      expectBitsEqual(roundTrip(e, x), refRoundBlock(e, x.data(), n));
    }
  }
}

TEST(MxBlock, ShortBlockUsesOnlyItsElements) {
  const std::vector<float> x = {0.1f, -0.2f, 0.3f, 4.0f, -0.05f};
  const MxBlock b = encodeBlock(MxElement::FP8_E4M3, x.data(), 5);
  EXPECT_EQ(b.n, 5);
  for (int i = 5; i < kMxBlock; ++i) EXPECT_EQ(b.codes[static_cast<size_t>(i)], 0);
  std::vector<float> out(kMxBlock, 99.0f);
  decodeBlock(MxElement::FP8_E4M3, b, out.data());
  EXPECT_EQ(out[5], 99.0f);  // untouched past n
  out.resize(5);
  expectBitsEqual(out, refRoundBlock(MxElement::FP8_E4M3, x.data(), 5));
}

TEST(MxBlock, RejectsBlocksOfMoreThan32) {
  std::vector<float> x(40, 1.0f);
  EXPECT_THROW(encodeBlock(MxElement::FP4_E2M1, x.data(), 33), Error);
  EXPECT_THROW(encodeBlock(MxElement::FP4_E2M1, x.data(), -1), Error);
  MxBlock b;
  b.n = 33;
  EXPECT_THROW(decodeBlock(MxElement::FP4_E2M1, b, x.data()), Error);
}

TEST(MxRow, RoundRowIsBlockwise) {
  std::mt19937 rng(11);
  for (const MxElement e : kElements) {
    std::vector<float> row;
    for (const int n : {32, 32, 32, 4}) {
      const std::vector<float> x = randomBlock(rng, n);
      row.insert(row.end(), x.begin(), x.end());
    }
    std::vector<float> want;
    for (size_t start = 0; start < row.size(); start += kMxBlock) {
      const int n = static_cast<int>(std::min<size_t>(kMxBlock, row.size() - start));
      const std::vector<float> r = refRoundBlock(e, row.data() + start, n);
      want.insert(want.end(), r.begin(), r.end());
    }
    roundRowMx(row.data(), static_cast<int64_t>(row.size()), e);
    expectBitsEqual(row, want);
  }
}

}  // namespace
}  // namespace tessel::kernels
