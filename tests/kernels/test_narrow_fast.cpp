// The fast rounding paths against the reference codecs, bit for bit: roundTo/roundInPlace
// against decode(encode(x)) over every top-16-bit float pattern, every format value, midpoint
// and neighbour; roundRowMx against decodeBlock(encodeBlock(x)) on random blocks with zeros,
// subnormals, huge values, exact ties, NaN and inf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/numeric/mx_block.h"
#include "kernels/numeric/narrow_format.h"
#include "kernels/numeric/float_bits.h"

namespace tessel::kernels {
namespace {

constexpr NarrowFloat kFormats[] = {NarrowFloat::E4M3, NarrowFloat::E5M2, NarrowFloat::E3M2,
                                    NarrowFloat::E2M3, NarrowFloat::E2M1};
constexpr Overflow kModes[] = {Overflow::Saturate, Overflow::Infinity};
constexpr MxElement kElements[] = {MxElement::FP8_E4M3, MxElement::FP8_E5M2, MxElement::FP6_E3M2,
                                   MxElement::FP6_E2M3, MxElement::FP4_E2M1, MxElement::INT8};

// roundTo and roundInPlace give decode(encode(x)) bits for each x (NaN payloads included).
void expectFastMatchesReference(NarrowFloat f, Overflow mode, const std::vector<float>& xs) {
  std::vector<float> y = xs;
  roundInPlace(y.data(), static_cast<int64_t>(y.size()), f, mode);
  for (size_t i = 0; i < xs.size(); ++i) {
    const uint32_t want = bitsOf(decode(f, encode(f, xs[i], mode)));
    ASSERT_EQ(bitsOf(y[i]), want) << "format " << static_cast<int>(f) << " mode "
                                  << static_cast<int>(mode) << " x=" << std::hexfloat << xs[i]
                                  << " bits " << std::hex << bitsOf(xs[i]);
    ASSERT_EQ(bitsOf(roundTo(xs[i], f, mode)), want) << std::hexfloat << xs[i];
  }
}

TEST(NarrowFast, MatchesReferenceOnEveryTop16BitPattern) {
  std::vector<float> xs;
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (const uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu})
      xs.push_back(floatOf(hi << 16 | lo));
  xs.push_back(1.0f);  // an odd length: the vector loop's tail
  for (const NarrowFloat f : kFormats)
    for (const Overflow mode : kModes) expectFastMatchesReference(f, mode, xs);
}

// Every finite value of the format, the midpoints between neighbours and the floats either side,
// the overflow midpoint (max + half a step), specials, both signs.
std::vector<float> valuesAndMidpoints(NarrowFloat f) {
  std::vector<float> mags;
  for (int c = 0; c < (1 << (specOf(f).bits - 1)); ++c) {
    const float v = decode(f, static_cast<uint8_t>(c));
    if (std::isfinite(v)) mags.push_back(v);
  }
  std::sort(mags.begin(), mags.end());
  mags.push_back(2 * mags.back() - mags[mags.size() - 2]);  // the virtual value past the max
  std::vector<float> xs;
  for (size_t i = 0; i + 1 < mags.size(); ++i) {
    const float mid = (mags[i] + mags[i + 1]) / 2;  // exact: a few significant bits
    xs.insert(xs.end(), {mags[i], mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY),
                         std::nextafter(mags[i], 0.0f), std::nextafter(mags[i], INFINITY)});
  }
  xs.insert(xs.end(), {mags.back(), INFINITY, NAN, floatOf(0x7f800001u), floatOf(0x7fffffffu),
                       std::numeric_limits<float>::denorm_min(),
                       std::numeric_limits<float>::min(), std::numeric_limits<float>::max()});
  const size_t n = xs.size();
  for (size_t i = 0; i < n; ++i) xs.push_back(-xs[i]);
  return xs;
}

TEST(NarrowFast, MatchesReferenceOnValuesMidpointsAndSpecials) {
  for (const NarrowFloat f : kFormats)
    for (const Overflow mode : kModes) expectFastMatchesReference(f, mode, valuesAndMidpoints(f));
}

TEST(NarrowFast, KeepsTheReferenceSpecialRules) {
  EXPECT_EQ(bitsOf(roundTo(-0.0f, NarrowFloat::E4M3)), 0x80000000u);
  EXPECT_EQ(bitsOf(roundTo(-1e-30f, NarrowFloat::E2M1)), 0x80000000u);  // signed zero
  EXPECT_EQ(bitsOf(roundTo(-NAN, NarrowFloat::E2M1)), 0u);              // no NaN: +0
  EXPECT_EQ(bitsOf(roundTo(-NAN, NarrowFloat::E5M2)), 0xffc00000u);     // quiet, sign kept
  EXPECT_EQ(roundTo(-INFINITY, NarrowFloat::E5M2, Overflow::Infinity), -INFINITY);
  EXPECT_EQ(roundTo(-INFINITY, NarrowFloat::E5M2), -57344.0f);
  EXPECT_EQ(bitsOf(roundTo(-500.0f, NarrowFloat::E4M3, Overflow::Infinity)), 0xffc00000u);
  EXPECT_EQ(roundTo(464.0f, NarrowFloat::E4M3, Overflow::Infinity), 448.0f);  // tie down
  EXPECT_EQ(roundTo(61440.0f, NarrowFloat::E5M2, Overflow::Infinity), INFINITY);  // tie up
}

// An element of a random block: mostly N(0, 1) in the block's binade, with exact ties (short
// binary fractions), zeros, FP32 subnormals, values far below or above the rest, and rarely
// NaN or inf.
float randomElement(std::mt19937& rng, int binade) {
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> pick(0, 999), offset(-40, 3), small(-255, 255);
  std::uniform_int_distribution<uint32_t> any_bits;
  const int p = pick(rng);
  if (p < 3) return p == 0 ? NAN : p == 1 ? INFINITY : -INFINITY;  // ~9% of blocks
  if (p < 250) return std::ldexp(static_cast<float>(small(rng)), std::clamp(binade - 7, -149, 120));
  if (p < 300) return p % 2 ? 0.0f : -0.0f;
  if (p < 350) return floatOf(any_bits(rng) & 0x807fffffu);  // subnormal, either sign
  if (p < 380) return std::ldexp(normal(rng), std::min(binade + 20, 120));
  if (p < 390) return p % 2 ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::min();
  return std::ldexp(normal(rng), std::clamp(binade + offset(rng), -160, 120));
}

TEST(MxFast, RoundRowMatchesDecodeOfEncodeOnRandomBlocks) {
  std::mt19937 rng(20240612);
  std::uniform_int_distribution<int> binade(-170, 130);
  for (const MxElement e : kElements) {
    for (int row = 0; row < 100; ++row) {
      // 30 blocks and a short one; each block its own binade, a few all tiny or all zero.
      const int n = 30 * kMxBlock + 1 + row % (kMxBlock - 1);
      std::vector<float> x(static_cast<size_t>(n));
      for (int start = 0; start < n; start += kMxBlock) {
        const int b = binade(rng);
        for (int i = start; i < std::min(n, start + kMxBlock); ++i)
          x[static_cast<size_t>(i)] = row % 10 == 9 && start == 0 ? 0.0f : randomElement(rng, b);
      }
      std::vector<float> want(x.size());
      for (int start = 0; start < n; start += kMxBlock) {
        const int len = std::min(kMxBlock, n - start);
        decodeBlock(e, encodeBlock(e, x.data() + start, len), want.data() + start);
      }
      std::vector<float> got = x;
      roundRowMx(got.data(), n, e);
      for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(bitsOf(got[i]), bitsOf(want[i]))
            << "element " << static_cast<int>(e) << " index " << i << " x=" << std::hexfloat
            << x[i] << " got " << got[i] << " want " << want[i];
    }
  }
}

TEST(MxFast, TinyElementsUnderAHugeMaxFlushToSignedZero) {
  // Max 2^100: shared exponent 98 for E2M1, so 2^-100 x 2^-98 is an FP32 subnormal product.
  for (const MxElement e : kElements) {
    std::vector<float> x = {0x1p100f, -0x1p-100f, 0x1.8p-120f, -0x1p-149f, 0x1p-126f};
    std::vector<float> want(x.size());
    decodeBlock(e, encodeBlock(e, x.data(), static_cast<int>(x.size())), want.data());
    roundRowMx(x.data(), static_cast<int64_t>(x.size()), e);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(bitsOf(x[i]), bitsOf(want[i])) << i;
    EXPECT_EQ(std::signbit(x[1]), e != MxElement::INT8);
  }
}

}  // namespace
}  // namespace tessel::kernels
