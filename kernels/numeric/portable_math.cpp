#include "kernels/numeric/portable_math.h"

#include <cmath>
#include <limits>

namespace tessel::kernels::portable {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// ln 2 in two parts: the high part has 11 trailing zero bits, so n * kLn2Hi is exact for |n| <
// 2^11.
constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLog2e = 1.44269504088896338700e+00;
// pi/2 in three parts (33 bits each): k * part is exact for |k| < 2^20.
constexpr double kPio2A = 1.57079632673412561417e+00, kPio2B = 6.07710050630396597660e-11,
                 kPio2C = 2.02226624871116645580e-21;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;

// Round to the nearest integer (ties to even) for |x| < 2^51 with one add and one subtract.
double rintSmall(double x) {
  const double magic = 6755399441055744.0;  // 1.5 * 2^52
  return (x + magic) - magic;
}

// e^r for |r| <= ln2 / 2: Taylor series to r^13 (remainder < 2^-60).
// p x^N + c[0] x^(N-1) + ... + c[N-1], by Horner's rule.
template <size_t N>
double horner(double x, double p, const double (&c)[N]) {
  for (double v : c) p = p * x + v;
  return p;
}

// 1/12!, 1/11!, ..., 1/2!, 1/1!.
constexpr double kInvFactorials12To1[] = {1.0 / 479001600.0,
                                          1.0 / 39916800.0,
                                          1.0 / 3628800.0,
                                          1.0 / 362880.0,
                                          1.0 / 40320.0,
                                          1.0 / 5040.0,
                                          1.0 / 720.0,
                                          1.0 / 120.0,
                                          1.0 / 24.0,
                                          1.0 / 6.0,
                                          0.5,
                                          1.0};

double expReduced(double r) {
  return horner(r, 1.0 / 6227020800.0, kInvFactorials12To1) * r + 1.0;  // from 1/13!
}

// sin and cos of |r| <= pi/4 (Taylor to r^17 and r^18).
double sinReduced(double r) {
  const double r2 = r * r;
  const double c[] = {-1.0 / 1307674368000.0, 1.0 / 6227020800.0, -1.0 / 39916800.0, 1.0 / 362880.0,
                      -1.0 / 5040.0,          1.0 / 120.0,        -1.0 / 6.0};
  return r + r * r2 * horner(r2, 1.0 / 355687428096000.0, c);  // from 1/17!
}

double cosReduced(double r) {
  const double r2 = r * r;
  const double c[] = {
      -1.0 / 20922789888000.0, 1.0 / 87178291200.0, -1.0 / 479001600.0, 1.0 / 3628800.0,
      -1.0 / 40320.0,          1.0 / 720.0,         -1.0 / 24.0,        0.5};
  return 1.0 - r2 * horner(r2, 1.0 / 6402373705728000.0, c);  // from 1/18!
}

// x = k * pi/2 + r, |r| <= pi/4 (k modulo 4 returned).
int reduceQuarter(double x, double& r) {
  // Beyond 2^30 the three-part pi/2 loses its exactness: fold by a double 2 pi first (exact fmod:
  // deterministic and bounded, though no longer accurate to the last bit).
  if (std::fabs(x) > 1073741824.0) x = std::fmod(x, 6.28318530717958647693);
  const double k = rintSmall(x * kTwoOverPi);
  r = ((x - k * kPio2A) - k * kPio2B) - k * kPio2C;
  const double q = std::fmod(k, 4.0);  // exact, and no integer overflow for any finite k
  return static_cast<int>(q < 0 ? q + 4.0 : q);
}

}  // namespace

double exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return kInf;
  if (x < -745.1332191019412) return 0.0;
  const double n = rintSmall(x * kLog2e);
  const double r = (x - n * kLn2Hi) - n * kLn2Lo;
  return std::ldexp(expReduced(r), static_cast<int>(n));  // exact scaling
}

double log(double x) {
  if (x != x || x == kInf) return x;
  if (x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  int e = 0;
  double m = std::frexp(x, &e);  // exact: x = m * 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --e;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: the odd series to s^23.
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double p = 1.0 / 23.0;
  for (int k = 21; k >= 1; k -= 2) p = p * s2 + 1.0 / k;
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (de * kLn2Lo + 2.0 * s * p);
}

double log10(double x) { return log(x) * 0.43429448190325182765; }

double pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return kNaN;
  const bool integer_y = std::floor(y) == y;
  if (x < 0.0) {
    if (!integer_y) return kNaN;
    const bool odd = std::fabs(y) < 9007199254740992.0 && std::fmod(y, 2.0) != 0.0;
    const double v = pow(-x, y);
    return odd ? -v : v;
  }
  if (x == 0.0) return y > 0.0 ? 0.0 : kInf;
  if (integer_y && std::fabs(y) <= 64.0) {  // exact-ish repeated squaring for small integers
    double base = y > 0.0 ? x : 1.0 / x, result = 1.0;
    for (auto n = static_cast<long long>(std::fabs(y)); n; n >>= 1, base *= base)
      if (n & 1) result *= base;
    return result;
  }
  return exp(y * log(x));
}

// sin(x + shift * pi/2): cos is sin a quarter turn on.
double sinShifted(double x, int shift) {
  if (x != x || std::fabs(x) == kInf) return kNaN;
  double r = 0.0;
  const int q = (reduceQuarter(x, r) + shift) & 3;
  const double v = q & 1 ? cosReduced(r) : sinReduced(r);
  return q & 2 ? -v : v;
}

double sin(double x) { return sinShifted(x, 0); }

double cos(double x) { return sinShifted(x, 1); }

// e^x - 1 without cancellation near 0: x (1 + x/2! + ... + x^12/13!) for |x| <= ln2/2.
double expm1(double x) {
  if (std::fabs(x) > 0.34657359027997264) return exp(x) - 1.0;
  return x * horner(x, 1.0 / 6227020800.0, kInvFactorials12To1);  // from 1/13!
}

double tanh(double x) {
  if (x != x) return x;
  const double ax = std::fabs(x);
  double t = 1.0;
  if (ax < 22.0) {  // beyond, tanh rounds to 1
    const double em = expm1(2.0 * ax);
    t = em / (em + 2.0);
  }
  return x < 0.0 ? -t : t;
}

double erf(double x) {
  if (x != x) return x;
  const double ax = std::fabs(x);
  double v = 1.0;
  if (ax < 6.0) {
    // erf x = 2/sqrt(pi) e^{-x^2} sum_n 2^n x^{2n+1} / (1*3*...*(2n+1)): all terms positive.
    double term = ax, sum = ax;
    const double x2 = ax * ax;
    for (int n = 1; n < 400 && term > sum * 1e-18; ++n) {
      term *= 2.0 * x2 / (2.0 * n + 1.0);
      sum += term;
    }
    v = 1.12837916709551257390 * exp(-x2) * sum;
    if (v > 1.0) v = 1.0;
  }
  return x < 0.0 ? -v : v;
}

}  // namespace tessel::kernels::portable
