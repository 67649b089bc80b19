#include "kernels/numeric/narrow_format.h"
#include "kernels/numeric/float_bits.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace tessel::kernels {

namespace {

// Indexed by NarrowFloat. min_subnormal = 2^(1 - bias - M); max = (2 - 2^-M) 2^emax except
// E4M3 (S.1111.111 is NaN: 1.75 x 2^8).
constexpr std::array<NarrowFloatSpec, 5> kSpecs = {{
    {4, 3, 7, false, true, 448.0f, 0x1p-9f, 8, 8},
    {5, 2, 15, true, true, 57344.0f, 0x1p-16f, 15, 8},
    {3, 2, 3, false, false, 28.0f, 0x1p-4f, 4, 6},
    {2, 3, 1, false, false, 7.5f, 0x1p-3f, 2, 6},
    {2, 1, 1, false, false, 6.0f, 0x1p-1f, 2, 4},
}};

const NarrowFloatSpec& spec(NarrowFloat f) { return kSpecs[static_cast<size_t>(f)]; }

int magnitudeMask(const NarrowFloatSpec& s) { return (1 << (s.bits - 1)) - 1; }

// Magnitude code of the largest finite value: below E5M2's inf exponent, below E4M3's NaN.
int maxCode(const NarrowFloatSpec& s) {
  if (s.has_inf)
    return (((1 << s.exponent_bits) - 2) << s.mantissa_bits) | ((1 << s.mantissa_bits) - 1);
  return s.has_nan ? magnitudeMask(s) - 1 : magnitudeMask(s);
}

// Round a (> 0, finite) to nearest even on the format's grid with an unbounded exponent range;
// returns the magnitude code, which exceeds maxCode() when the result overflows. Integer
// arithmetic on the double's significand: exact for every double.
int roundMagnitude(double a, const NarrowFloatSpec& s) {
  uint64_t u;
  std::memcpy(&u, &a, 8);
  const int biased = static_cast<int>(u >> 52);
  if (biased == 0) return 0;  // double subnormals: far below any format's smallest step
  const int e = biased - 1023;
  const int m_bits = s.mantissa_bits, emin = 1 - s.bias;
  const uint64_t sig = (uint64_t{1} << 52) | (u & ((uint64_t{1} << 52) - 1));
  int q = std::max(e, emin) - m_bits;  // exponent of the format's step at a
  const int drop = q - (e - 52);       // significand bits below that step
  if (drop > 60) return 0;             // below a quarter of the smallest subnormal
  uint64_t n = sig >> drop;
  const uint64_t rem = sig & ((uint64_t{1} << drop) - 1), half = uint64_t{1} << (drop - 1);
  if (rem > half || (rem == half && (n & 1))) ++n;
  if (n == 0) return 0;
  if (n == (uint64_t{2} << m_bits)) {  // the carry reached the next binade
    n >>= 1;
    ++q;
  }
  if (n < (uint64_t{1} << m_bits)) return static_cast<int>(n);  // subnormal: exponent field 0
  const int field = q + m_bits + s.bias;
  if (field >= (1 << s.exponent_bits)) return maxCode(s) + 1;  // certainly beyond max
  return (field << m_bits) | static_cast<int>(n - (uint64_t{1} << m_bits));
}

// Code for +-inf and for values whose rounded magnitude exceeds the max.
uint8_t overflowCode(const NarrowFloatSpec& s, Overflow mode, int sign) {
  if (mode == Overflow::Infinity && s.has_inf)
    return static_cast<uint8_t>(sign | (((1 << s.exponent_bits) - 1) << s.mantissa_bits));
  if (mode == Overflow::Infinity && s.has_nan) return static_cast<uint8_t>(sign | 0x7f);
  return static_cast<uint8_t>(sign | maxCode(s));
}

float decodeFields(const NarrowFloatSpec& s, int code) {
  const bool negative = (code >> (s.bits - 1)) & 1;
  const int exp = (code >> s.mantissa_bits) & ((1 << s.exponent_bits) - 1);
  const int man = code & ((1 << s.mantissa_bits) - 1);
  const bool special = s.has_inf ? exp == (1 << s.exponent_bits) - 1
                                 : s.has_nan && (code & magnitudeMask(s)) == magnitudeMask(s);
  float v;
  if (special && s.has_inf && man == 0) {
    v = std::numeric_limits<float>::infinity();
  } else if (special) {
    v = std::numeric_limits<float>::quiet_NaN();
  } else if (exp == 0) {
    v = std::ldexp(static_cast<float>(man), 1 - s.bias - s.mantissa_bits);
  } else {
    v = std::ldexp(static_cast<float>(man + (1 << s.mantissa_bits)),
                   exp - s.bias - s.mantissa_bits);
  }
  return negative ? -v : v;
}

using DecodeTable = std::array<float, 256>;

const DecodeTable& decodeTable(NarrowFloat f) {
  static const std::array<DecodeTable, 5> tables = [] {
    std::array<DecodeTable, 5> t{};
    for (size_t i = 0; i < t.size(); ++i)
      for (int c = 0; c < (1 << kSpecs[i].bits); ++c)
        t[i][static_cast<size_t>(c)] = decodeFields(kSpecs[i], c);
    return t;
  }();
  return tables[static_cast<size_t>(f)];
}

// The specials and the overflow result come from the reference decoder, so they match it.
NarrowRounder makeRounder(const NarrowFloatSpec& s, Overflow mode) {
  const int m = s.mantissa_bits, emin = 1 - s.bias;
  NarrowRounder r{};
  r.drop = static_cast<uint32_t>(23 - m);
  r.half_minus_1 = (1u << (r.drop - 1)) - 1;
  r.keep = ~((1u << r.drop) - 1);
  r.min_normal = static_cast<uint32_t>(emin + 127) << 23;
  r.magic = floatOf(static_cast<uint32_t>(emin - m + 23 + 127) << 23);
  r.max_bits = bitsOf(s.max_finite);
  r.overflow_bits = bitsOf(decodeFields(s, overflowCode(s, mode, 0)));
  r.nan_bits = s.has_nan ? bitsOf(decodeFields(s, 0x7f)) : 0;
  r.nan_sign = s.has_nan ? 0x80000000u : 0;
  return r;
}

}  // namespace

NarrowFloatSpec specOf(NarrowFloat f) { return spec(f); }

uint8_t encodeExact(NarrowFloat f, double x, Overflow mode) {
  const NarrowFloatSpec& s = spec(f);
  const int sign = std::signbit(x) ? 1 << (s.bits - 1) : 0;
  if (std::isnan(x)) return s.has_nan ? static_cast<uint8_t>(sign | 0x7f) : 0;
  if (std::isinf(x)) return overflowCode(s, mode, sign);
  if (x == 0) return static_cast<uint8_t>(sign);
  const int code = roundMagnitude(std::fabs(x), s);
  if (code > maxCode(s)) return overflowCode(s, mode, sign);
  return static_cast<uint8_t>(sign | code);
}

uint8_t encode(NarrowFloat f, float x, Overflow mode) {
  return encodeExact(f, static_cast<double>(x), mode);
}

float decode(NarrowFloat f, uint8_t code) {
  const int mask = (1 << spec(f).bits) - 1;
  return decodeTable(f)[static_cast<size_t>(code & mask)];
}

const NarrowRounder& rounderOf(NarrowFloat f, Overflow mode) {
  static const std::array<NarrowRounder, 10> rounders = [] {
    std::array<NarrowRounder, 10> r{};
    for (size_t i = 0; i < kSpecs.size(); ++i) {
      r[2 * i] = makeRounder(kSpecs[i], Overflow::Saturate);
      r[2 * i + 1] = makeRounder(kSpecs[i], Overflow::Infinity);
    }
    return r;
  }();
  return rounders[2 * static_cast<size_t>(f) + (mode == Overflow::Infinity ? 1 : 0)];
}

float roundTo(float x, NarrowFloat f, Overflow mode) { return rounderOf(f, mode).round(x); }

void roundInPlace(float* x, int64_t n, NarrowFloat f, Overflow mode) {
  const NarrowRounder r = rounderOf(f, mode);  // a local copy: x cannot alias it
  for (int64_t i = 0; i < n; ++i) x[i] = r.round(x[i]);
}

int8_t encodeInt4(float x) {
  if (std::isnan(x)) return 0;
  return static_cast<int8_t>(std::clamp(std::nearbyint(x), -8.0f, 7.0f));
}

uint8_t encodeUint4(float x) {
  if (std::isnan(x)) return 0;
  return static_cast<uint8_t>(std::clamp(std::nearbyint(x), 0.0f, 15.0f));
}

}  // namespace tessel::kernels
