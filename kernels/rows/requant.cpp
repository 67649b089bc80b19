// Requantization row kernels: int32 -> int8 with fixed-point multipliers. An AVX2 path (picked at
// run time, under the ISA ceiling) computes exactly what the scalar gemmlowp arithmetic computes, 8 lanes at a time.
#include <cstring>

#include "kernels/gemm/isa/ceiling.h"
#include "kernels/numeric/fixed_point.h"
#include "kernels/rows/rows.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TESSEL_REQUANT_AVX2 1
#endif

namespace tessel::kernels::detail {

namespace {

struct Counts {
  int64_t low = 0, high = 0;
};

inline int8_t saturate(int64_t v, int32_t qmin, int32_t qmax, Counts& n) {
  n.low += v < qmin;
  n.high += v > qmax;
  return static_cast<int8_t>(v < qmin ? qmin : (v > qmax ? qmax : v));
}

void scalarRange(const int32_t* acc, int8_t* q, int64_t from, int64_t to,
                 const FixedPointMultiplier* m, bool per_col, int32_t zp, int32_t qmin,
                 int32_t qmax, Counts& n) {
  for (int64_t i = from; i < to; ++i) {
    // Adding the zero point in 64 bits: a huge accumulator must saturate, not wrap.
    const int64_t v = static_cast<int64_t>(mulFixed(acc[i], m[per_col ? i : 0])) + zp;
    q[i] = saturate(v, qmin, qmax, n);
  }
}

#ifdef TESSEL_REQUANT_AVX2

// Even 64-bit lanes: x * y / 2^31 rounded as srdhm does (ties toward +inf), in bits 0..31.
__attribute__((target("avx2"))) inline __m256i highMulEven(__m256i x, __m256i y) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i p = _mm256_mul_epi32(x, y);
  const __m256i nudge =
      _mm256_blendv_epi8(_mm256_set1_epi64x(int64_t{1} << 30),
                         _mm256_set1_epi64x(1 - (int64_t{1} << 30)), _mm256_cmpgt_epi64(zero, p));
  p = _mm256_add_epi64(p, nudge);
  // Divide by 2^31 truncating toward zero: bits 31..62 then hold the int32 result.
  const __m256i fix =
      _mm256_and_si256(_mm256_cmpgt_epi64(zero, p), _mm256_set1_epi64x((int64_t{1} << 31) - 1));
  return _mm256_srli_epi64(_mm256_add_epi64(p, fix), 31);
}

// srdhm then rdbpot on 8 lanes (multipliers in [0, 2^31), shifts in [0, 31]).
__attribute__((target("avx2"))) inline __m256i mulFixed8(__m256i a, __m256i mult, __m256i shift) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i even = highMulEven(a, mult);
  const __m256i odd = highMulEven(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(mult, 32));
  const __m256i x = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  const __m256i mask =
      _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), shift), _mm256_set1_epi32(1));
  const __m256i rem = _mm256_and_si256(x, mask);
  const __m256i thr = _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_cmpgt_epi32(zero, x));
  return _mm256_sub_epi32(_mm256_srav_epi32(x, shift), _mm256_cmpgt_epi32(rem, thr));
}

// Adds the zero point, clamps to [qmin, qmax] counting clips, stores 8 int8.
__attribute__((target("avx2"))) inline void store8(__m256i r, int8_t* q, int32_t zp, int32_t qmin,
                                                   int32_t qmax, __m256i& low, __m256i& high) {
  const __m256i lo = _mm256_set1_epi32(qmin - zp), hi = _mm256_set1_epi32(qmax - zp);
  low = _mm256_sub_epi32(low, _mm256_cmpgt_epi32(lo, r));
  high = _mm256_sub_epi32(high, _mm256_cmpgt_epi32(r, hi));
  r = _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(r, lo), hi), _mm256_set1_epi32(zp));
  const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(r, r), r);
  const int32_t w0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(p));
  const int32_t w1 = _mm_cvtsi128_si32(_mm256_extracti128_si256(p, 1));
  std::memcpy(q, &w0, 4);
  std::memcpy(q + 4, &w1, 4);
}

__attribute__((target("avx2"))) int64_t sum8(__m256i v) {
  alignas(32) int32_t t[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(t), v);
  int64_t s = 0;
  for (int32_t x : t) s += x;
  return s;
}

// Processes whole groups of 8 (skipping groups with a left-shift multiplier); returns how far
// it got. Per column: m[i]; per tensor: m[0].
__attribute__((target("avx2"))) int64_t avx2Range(const int32_t* acc, int8_t* q, int64_t n,
                                                  const FixedPointMultiplier* m, bool per_col,
                                                  int32_t zp, int32_t qmin, int32_t qmax,
                                                  Counts& c) {
  __m256i low = _mm256_setzero_si256(), high = _mm256_setzero_si256();
  const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i mult = _mm256_set1_epi32(m[0].multiplier), shift = _mm256_set1_epi32(m[0].shift);
    if (per_col) {  // 8 {multiplier, shift} pairs -> one vector of each
      const __m256i a0 = _mm256_permutevar8x32_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + i)), split);
      const __m256i a1 = _mm256_permutevar8x32_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + i + 4)), split);
      mult = _mm256_permute2x128_si256(a0, a1, 0x20);
      shift = _mm256_permute2x128_si256(a0, a1, 0x31);
    }
    if (_mm256_movemask_ps(_mm256_castsi256_ps(shift))) {  // a left shift: scalar for this group
      scalarRange(acc, q, i, i + 8, m, per_col, zp, qmin, qmax, c);
      continue;
    }
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
    store8(mulFixed8(a, mult, shift), q + i, zp, qmin, qmax, low, high);
  }
  c.low += sum8(low);
  c.high += sum8(high);
  return i;
}

#endif

void requantize(const int32_t* acc, int8_t* q, int64_t n, const FixedPointMultiplier* m,
                bool per_col, int32_t zp, int32_t qmin, int32_t qmax, SaturationStats& sat) {
  static_assert(sizeof(FixedPointMultiplier) == 8, "AVX2 path loads {multiplier, shift} pairs");
  Counts c;
  int64_t done = 0;
#ifdef TESSEL_REQUANT_AVX2
  if (useAvx2()) done = avx2Range(acc, q, n, m, per_col, zp, qmin, qmax, c);
#endif
  scalarRange(acc, q, done, n, m, per_col, zp, qmin, qmax, c);
  sat.total += n;
  sat.low += c.low;
  sat.high += c.high;
}

}  // namespace

void requantizeRow(const int32_t* acc, int8_t* q, int64_t n, FixedPointMultiplier m, int32_t zp,
                   int32_t qmin, int32_t qmax, SaturationStats& sat) {
  requantize(acc, q, n, &m, false, zp, qmin, qmax, sat);
}

void requantizeRowPerCol(const int32_t* acc, int8_t* q, int64_t n, const FixedPointMultiplier* m,
                         int32_t zp, int32_t qmin, int32_t qmax, SaturationStats& sat) {
  requantize(acc, q, n, m, true, zp, qmin, qmax, sat);
}

}  // namespace tessel::kernels::detail
