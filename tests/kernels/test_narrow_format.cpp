// Narrow floats (OFP8 E4M3/E5M2, MX FP6/FP4) and 4-bit integers: every code decoded against a
// bit-field formula, and the encoder against a brute-force nearest-code search over every
// finite code, both written here independently of the codec.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/numeric/narrow_format.h"
#include "kernels/numeric/float_bits.h"

namespace tessel::kernels {
namespace {

enum class Specials { OnlyNaN, IEEE, None };  // E4M3, E5M2, FP6/FP4

struct RefFormat {
  NarrowFloat f;
  int E, M, bias, bits;
  Specials specials;
};

// From OFP8 v1.0 table 1 and MX v1.0 section 5.3.
const RefFormat kFormats[] = {
    {NarrowFloat::E4M3, 4, 3, 7, 8, Specials::OnlyNaN},
    {NarrowFloat::E5M2, 5, 2, 15, 8, Specials::IEEE},
    {NarrowFloat::E3M2, 3, 2, 3, 6, Specials::None},
    {NarrowFloat::E2M3, 2, 3, 1, 6, Specials::None},
    {NarrowFloat::E2M1, 2, 1, 1, 4, Specials::None},
};

constexpr Overflow kModes[] = {Overflow::Saturate, Overflow::Infinity};

// (-1)^s 2^(e-bias) (1 + m/2^M); subnormals 2^(1-bias) (m/2^M); specials per table 1.
double refDecode(const RefFormat& r, int code) {
  const int s = (code >> (r.bits - 1)) & 1;
  const int e = (code >> r.M) & ((1 << r.E) - 1);
  const int m = code & ((1 << r.M) - 1);
  const double sign = s ? -1.0 : 1.0;
  const int all_ones = (1 << r.E) - 1;
  if (r.specials == Specials::IEEE && e == all_ones)
    return m == 0 ? sign * INFINITY : std::numeric_limits<double>::quiet_NaN();
  if (r.specials == Specials::OnlyNaN && e == all_ones && m == (1 << r.M) - 1) return NAN;
  const double frac = m / std::pow(2.0, r.M);
  if (e == 0) return sign * std::pow(2.0, 1 - r.bias) * frac;
  return sign * std::pow(2.0, e - r.bias) * (1.0 + frac);
}

// Non-negative finite values indexed by magnitude code (increasing), computed once per format.
const std::vector<double>& finiteMagnitudes(const RefFormat& r) {
  static std::vector<double> cache[5];
  std::vector<double>& v = cache[static_cast<int>(r.f)];
  if (v.empty())
    for (int c = 0; c < (1 << (r.bits - 1)) && std::isfinite(refDecode(r, c)); ++c)
      v.push_back(refDecode(r, c));
  return v;
}

int maxMagnitudeCode(const RefFormat& r) {
  return static_cast<int>(finiteMagnitudes(r).size()) - 1;
}

// Brute force: the finite code nearest to |x| by exact double distance, ties to the even code
// (mantissa lsb 0); beyond the max, Infinity mode overflows when |x| rounds (unbounded
// exponent) to the virtual code past the max: above the midpoint, or on it if that code is even.
uint8_t refEncode(const RefFormat& r, float x, Overflow mode) {
  const int sign = std::signbit(x) ? 1 << (r.bits - 1) : 0;
  if (std::isnan(x)) return r.specials == Specials::None ? 0 : static_cast<uint8_t>(sign | 0x7f);
  const double a = std::fabs(static_cast<double>(x));
  const std::vector<double>& mags = finiteMagnitudes(r);
  const int maxc = maxMagnitudeCode(r);
  const double maxv = mags.back();
  if (a > maxv) {
    const double ulp = maxv - mags[mags.size() - 2];
    const double mid = maxv + ulp / 2;
    const bool rounds_up = a > mid || (a == mid && ((maxc + 1) & 1) == 0);
    if (mode == Overflow::Saturate || r.specials == Specials::None || !rounds_up)
      return static_cast<uint8_t>(sign | maxc);
    if (r.specials == Specials::IEEE) return static_cast<uint8_t>(sign | (((1 << r.E) - 1) << r.M));
    return static_cast<uint8_t>(sign | 0x7f);
  }
  int best = 0;
  double best_d = INFINITY;
  for (int c = 0; c <= maxc; ++c) {
    const double d = std::fabs(mags[static_cast<size_t>(c)] - a);
    if (d < best_d || (d == best_d && (c & 1) == 0)) {
      best = c;
      best_d = d;
    }
  }
  return static_cast<uint8_t>(sign | best);
}

void expectEncodes(const RefFormat& r, float x) {
  for (const Overflow mode : kModes)
    ASSERT_EQ(encode(r.f, x, mode), refEncode(r, x, mode))
        << "format " << static_cast<int>(r.f) << " x=" << x << " (" << std::hexfloat << x
        << std::defaultfloat << ") mode " << static_cast<int>(mode);
}

TEST(NarrowFormat, SpecMatchesTheTables) {
  const NarrowFloatSpec e4m3 = specOf(NarrowFloat::E4M3);
  EXPECT_EQ(e4m3.max_finite, 448.0f);
  EXPECT_EQ(e4m3.min_subnormal, 0x1p-9f);
  EXPECT_EQ(e4m3.emax, 8);
  EXPECT_FALSE(e4m3.has_inf);
  EXPECT_TRUE(e4m3.has_nan);
  EXPECT_EQ(specOf(NarrowFloat::E5M2).max_finite, 57344.0f);
  EXPECT_EQ(specOf(NarrowFloat::E5M2).min_subnormal, 0x1p-16f);
  EXPECT_EQ(specOf(NarrowFloat::E3M2).max_finite, 28.0f);
  EXPECT_EQ(specOf(NarrowFloat::E2M3).max_finite, 7.5f);
  EXPECT_EQ(specOf(NarrowFloat::E2M1).max_finite, 6.0f);
  for (const RefFormat& r : kFormats) {
    const NarrowFloatSpec s = specOf(r.f);
    EXPECT_EQ(s.exponent_bits, r.E);
    EXPECT_EQ(s.mantissa_bits, r.M);
    EXPECT_EQ(s.bias, r.bias);
    EXPECT_EQ(s.bits, r.bits);
    EXPECT_EQ(s.has_inf, r.specials == Specials::IEEE);
    EXPECT_EQ(s.has_nan, r.specials != Specials::None);
    EXPECT_EQ(s.max_finite, refDecode(r, maxMagnitudeCode(r)));
    EXPECT_EQ(s.min_subnormal, refDecode(r, 1));
    EXPECT_EQ(s.emax, std::ilogb(s.max_finite));
  }
}

TEST(NarrowFormat, DecodesEveryCodeAsTheBitFieldFormula) {
  for (const RefFormat& r : kFormats) {
    for (int c = 0; c < (1 << r.bits); ++c) {
      const double want = refDecode(r, c);
      const float got = decode(r.f, static_cast<uint8_t>(c));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << "code " << c;
      } else {
        EXPECT_EQ(bitsOf(got), bitsOf(static_cast<float>(want))) << "code " << c << " " << got;
      }
      // Bits above the format's width are ignored.
      const int high = (0xff << r.bits) & 0xff;
      EXPECT_EQ(bitsOf(decode(r.f, static_cast<uint8_t>(c | high))), bitsOf(got));
    }
  }
}

TEST(NarrowFormat, RoundTripsEveryNonNaNCode) {
  for (const RefFormat& r : kFormats) {
    for (int c = 0; c < (1 << r.bits); ++c) {
      const float v = decode(r.f, static_cast<uint8_t>(c));
      if (std::isnan(v)) continue;
      EXPECT_EQ(encode(r.f, v, Overflow::Infinity), c) << "code " << c;  // -0 -> sign | 0 too
      if (!std::isinf(v)) {
        EXPECT_EQ(encode(r.f, v), c) << "code " << c;
      }
    }
  }
}

TEST(NarrowFormat, EncodesValuesMidpointsAndNeighboursAsBruteForce) {
  for (const RefFormat& r : kFormats) {
    const std::vector<double>& v = finiteMagnitudes(r);
    std::vector<float> xs;
    for (size_t i = 0; i < v.size(); ++i) {
      xs.push_back(static_cast<float>(v[i]));
      if (i + 1 == v.size()) break;
      const float mid = static_cast<float>((v[i] + v[i + 1]) / 2);  // exact: a few bits
      ASSERT_EQ(static_cast<double>(mid), (v[i] + v[i + 1]) / 2);
      xs.insert(xs.end(), {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)});
    }
    // Beyond the max: the overflow midpoint and its neighbours, far beyond, infinity.
    const double maxv = v.back(), ulp = v.back() - v[v.size() - 2];
    const float over_mid = static_cast<float>(maxv + ulp / 2);
    xs.insert(xs.end(),
              {over_mid, std::nextafter(over_mid, 0.0f), std::nextafter(over_mid, INFINITY),
               static_cast<float>(maxv * 1.5), static_cast<float>(maxv * 64),
               std::numeric_limits<float>::max(), INFINITY});
    // Below the smallest subnormal: its half (a tie to 0), around it, float subnormals.
    const float half_min = static_cast<float>(v[1] / 2);
    xs.insert(xs.end(),
              {half_min, std::nextafter(half_min, 0.0f), std::nextafter(half_min, 1.0f),
               half_min / 2, 1e-30f, std::numeric_limits<float>::denorm_min(), 0.0f, NAN});
    for (const float x : xs) {
      expectEncodes(r, x);
      expectEncodes(r, -x);
    }
  }
}

TEST(NarrowFormat, EncodesRandomFloatsAsBruteForce) {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<uint32_t> any_bits;
  for (const RefFormat& r : kFormats) {
    // Exponents from below the smallest subnormal's half to past the max.
    const int lo = 1 - r.bias - r.M - 3, hi = specOf(r.f).emax + 3;
    std::uniform_int_distribution<int> exponent(lo, hi);
    for (int i = 0; i < 40000; ++i) {
      const uint32_t mantissa = any_bits(rng) & 0x807fffffu;  // sign and mantissa
      float in_range;
      const uint32_t u = mantissa | static_cast<uint32_t>(exponent(rng) + 127) << 23;
      std::memcpy(&in_range, &u, 4);
      expectEncodes(r, in_range);
      const uint32_t w = any_bits(rng);  // anything: huge, tiny, subnormal, inf, NaN
      float any;
      std::memcpy(&any, &w, 4);
      expectEncodes(r, any);
    }
  }
}

TEST(NarrowFormat, E4M3SpotValues) {
  const auto f = NarrowFloat::E4M3;
  EXPECT_EQ(encode(f, 1.0f), 0x38);    // 0.0111.000: exponent 7 = bias
  EXPECT_EQ(encode(f, -2.0f), 0xc0);   // 1.1000.000
  EXPECT_EQ(encode(f, 448.0f), 0x7e);  // max normal 0.1111.110 = 1.75 x 2^8
  EXPECT_EQ(encode(f, 464.0f), 0x7e);  // tie 448 / 480: 448's mantissa 110 is even
  EXPECT_EQ(encode(f, 464.0f, Overflow::Infinity), 0x7e);
  EXPECT_EQ(encode(f, 465.0f), 0x7e);                      // saturates
  EXPECT_EQ(encode(f, 465.0f, Overflow::Infinity), 0x7f);  // rounds to 480: NaN (no inf)
  EXPECT_EQ(encode(f, -1e9f, Overflow::Infinity), 0xff);
  EXPECT_EQ(encode(f, INFINITY), 0x7e);  // saturating conversion: inf -> max
  EXPECT_EQ(encode(f, -INFINITY), 0xfe);
  EXPECT_EQ(encode(f, INFINITY, Overflow::Infinity), 0x7f);
  EXPECT_EQ(encode(f, NAN), 0x7f);
  EXPECT_EQ(encode(f, -NAN), 0xff);
  EXPECT_EQ(encode(f, 0x1p-9f), 0x01);        // min subnormal 0.0000.001
  EXPECT_EQ(encode(f, 0x1p-10f), 0x00);       // half of it: tie to even 0
  EXPECT_EQ(encode(f, 0x1.8p-9f), 0x02);      // 1.5 steps: tie to even 2 steps
  EXPECT_EQ(encode(f, 0.013671875f), 0x07);   // max subnormal 0.875 x 2^-6
  EXPECT_EQ(encode(f, 0.0146484375f), 0x08);  // tie max subnormal / min normal: 0.0001.000
  EXPECT_EQ(encode(f, -0.0f), 0x80);
  EXPECT_TRUE(std::isnan(decode(f, 0x7f)));
  EXPECT_TRUE(std::isnan(decode(f, 0xff)));
  EXPECT_EQ(decode(f, 0x78), 256.0f);  // 0.1111.000: exponent 15 is a normal binade
}

TEST(NarrowFormat, E5M2SpotValues) {
  const auto f = NarrowFloat::E5M2;
  EXPECT_EQ(encode(f, 1.0f), 0x3c);
  EXPECT_EQ(encode(f, 57344.0f), 0x7b);  // max 0.11110.11 = 1.75 x 2^15
  // 61440 is the tie 57344 / 65536; 2^16 (mantissa 00) is even, so it overflows.
  EXPECT_EQ(encode(f, 61440.0f), 0x7b);
  EXPECT_EQ(encode(f, 61440.0f, Overflow::Infinity), 0x7c);
  EXPECT_EQ(encode(f, 61439.996f, Overflow::Infinity), 0x7b);
  EXPECT_EQ(encode(f, -INFINITY, Overflow::Infinity), 0xfc);
  EXPECT_EQ(encode(f, -INFINITY), 0xfb);
  EXPECT_EQ(encode(f, NAN), 0x7f);
  EXPECT_EQ(encode(f, 0x1p-16f), 0x01);
  EXPECT_EQ(decode(f, 0x7c), INFINITY);
  EXPECT_EQ(decode(f, 0xfc), -INFINITY);
  for (const int c : {0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff}) {
    EXPECT_TRUE(std::isnan(decode(f, static_cast<uint8_t>(c))));
  }
}

TEST(NarrowFormat, Fp6AndFp4SpotValues) {
  EXPECT_EQ(encode(NarrowFloat::E3M2, 28.0f), 0x1f);                      // 0.111.11 = 1.75 x 2^4
  EXPECT_EQ(encode(NarrowFloat::E3M2, 1.0f), 0x0c);                       // exponent 3 = bias
  EXPECT_EQ(encode(NarrowFloat::E3M2, -1e6f, Overflow::Infinity), 0x3f);  // always saturates
  EXPECT_EQ(encode(NarrowFloat::E3M2, INFINITY, Overflow::Infinity), 0x1f);
  EXPECT_EQ(encode(NarrowFloat::E3M2, NAN), 0x00);   // no NaN: +0
  EXPECT_EQ(encode(NarrowFloat::E2M3, 7.5f), 0x1f);  // 0.11.111 = 1.875 x 2^2
  EXPECT_EQ(encode(NarrowFloat::E2M3, 0.125f), 0x01);
  EXPECT_EQ(encode(NarrowFloat::E2M3, -NAN), 0x00);
  const float e2m1[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(decode(NarrowFloat::E2M1, static_cast<uint8_t>(c)), e2m1[c]);
    EXPECT_EQ(decode(NarrowFloat::E2M1, static_cast<uint8_t>(c | 8)), -e2m1[c]);
  }
  EXPECT_EQ(encode(NarrowFloat::E2M1, 5.0f), 0x6);   // tie 4 (110) / 6 (111): 4
  EXPECT_EQ(encode(NarrowFloat::E2M1, 2.5f), 0x4);   // tie 2 / 3: 2
  EXPECT_EQ(encode(NarrowFloat::E2M1, 3.5f), 0x6);   // tie 3 / 4: 4
  EXPECT_EQ(encode(NarrowFloat::E2M1, 0.75f), 0x2);  // tie 0.5 / 1: 1
  EXPECT_EQ(encode(NarrowFloat::E2M1, 0.25f), 0x0);  // tie 0 / 0.5: 0
  EXPECT_EQ(encode(NarrowFloat::E2M1, -7.0f), 0xf);  // saturates to -6
  EXPECT_EQ(encode(NarrowFloat::E2M1, -0.0f), 0x8);
}

TEST(NarrowFormat, RoundToAndRoundInPlaceAreDecodeOfEncode) {
  std::vector<float> x;
  for (int i = -2000; i <= 2000; ++i) x.push_back(static_cast<float>(i) * 0.0371f);
  x.insert(x.end(), {INFINITY, -INFINITY, NAN, 1e30f, -0.0f});
  for (const RefFormat& r : kFormats) {
    for (const Overflow mode : kModes) {
      std::vector<float> y = x;
      roundInPlace(y.data(), static_cast<int64_t>(y.size()), r.f, mode);
      for (size_t i = 0; i < x.size(); ++i) {
        const float want = decode(r.f, encode(r.f, x[i], mode));
        const float got = roundTo(x[i], r.f, mode);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got) && std::isnan(y[i]));
        } else {
          EXPECT_EQ(bitsOf(got), bitsOf(want));
          EXPECT_EQ(bitsOf(y[i]), bitsOf(want));
        }
      }
    }
  }
}

// Round half to even by hand, then saturate.
int refInt(double x, int lo, int hi) {
  if (std::isnan(x)) return 0;
  if (x <= lo) return lo;
  if (x >= hi) return hi;
  const double fl = std::floor(x), frac = x - fl;
  const int n = static_cast<int>(fl);
  if (frac > 0.5 || (frac == 0.5 && n % 2 != 0)) return n + 1;
  return n;
}

TEST(NarrowFormat, Int4AndUint4RoundHalfToEvenAndSaturate) {
  for (int k = -60; k <= 60; ++k) {
    for (const float d : {0.0f, -0.001f, 0.001f}) {
      const float x = static_cast<float>(k) / 4 + d;  // every quarter: halves are ties
      EXPECT_EQ(encodeInt4(x), refInt(x, -8, 7)) << x;
      EXPECT_EQ(encodeUint4(x), refInt(x, 0, 15)) << x;
    }
  }
  EXPECT_EQ(encodeInt4(2.5f), 2);
  EXPECT_EQ(encodeInt4(-2.5f), -2);
  EXPECT_EQ(encodeInt4(-7.5f), -8);
  EXPECT_EQ(encodeInt4(6.5f), 6);
  EXPECT_EQ(encodeInt4(7.5f), 7);  // 8 saturates to 7
  EXPECT_EQ(encodeUint4(14.5f), 14);
  EXPECT_EQ(encodeUint4(15.5f), 15);
  EXPECT_EQ(encodeUint4(-0.5f), 0);
  EXPECT_EQ(encodeInt4(INFINITY), 7);
  EXPECT_EQ(encodeInt4(-INFINITY), -8);
  EXPECT_EQ(encodeUint4(-INFINITY), 0);
  EXPECT_EQ(encodeInt4(NAN), 0);
  EXPECT_EQ(encodeUint4(NAN), 0);
}

}  // namespace
}  // namespace tessel::kernels
