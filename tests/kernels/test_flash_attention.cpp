// FlashAttention (kernels/ops/flash_attention.h) against the unfused kernels and a naive FP64
// loop: FP32 over many shapes and block sizes, the online softmax one key block at a time by
// hand, the skipped causal blocks, the same bits on every ISA, and the low-precision dtypes
// within the error their rounding allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "kernels/gemm/isa/ceiling.h"
#include "kernels/numeric/quantize.h"
#include "kernels/ops/flash_attention.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Shape {
  int64_t batch, s, t, heads, kv, dk, dv;
  bool causal;
  int64_t br, bc;
};

AttentionParams scoreOf(const Shape& x) {
  AttentionParams p;
  p.heads = x.heads;
  p.kv_heads = x.kv;
  p.head_dim = x.dk;
  p.transpose_b = true;
  p.causal = x.causal;
  p.scale = 1.0f / std::sqrt(static_cast<float>(x.dk));
  return p;
}

AttentionParams contextOf(const Shape& x) {
  AttentionParams p;
  p.heads = x.heads;
  p.kv_heads = x.kv;
  p.head_dim = x.dv;
  return p;
}

std::vector<double> realValues(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i)
    v[static_cast<size_t>(i)] = t.dtype() == DType::Int8 ? static_cast<double>(t.quant.scale[0]) *
                                                               (t.i8()[i] - t.quant.zero_point[0])
                                                         : t.f32()[i];
  return v;
}

// One row of the naive attention in double: the output, and the row's l = sum exp(s - max s)
// and count of visible keys (what the error bounds below need).
struct NaiveRow {
  std::vector<double> out;
  double l = 0.0, max_dot = 0.0;
  int64_t visible = 0;
};

// Attention straight from the definition, in double, on the operands' real values.
std::vector<NaiveRow> naive(const Tensor& q, const Tensor& k, const Tensor& v, const Shape& x) {
  const std::vector<double> qv = realValues(q), kv = realValues(k), vv = realValues(v);
  const double scale = 1.0 / std::sqrt(static_cast<double>(x.dk));
  std::vector<NaiveRow> rows;
  for (int64_t n = 0; n < x.batch; ++n)
    for (int64_t i = 0; i < x.s; ++i)
      for (int64_t h = 0; h < x.heads; ++h) {
        const int64_t g = h / (x.heads / x.kv);
        NaiveRow row;
        row.visible = x.causal ? std::clamp<int64_t>(i + (x.t - x.s) + 1, 0, x.t) : x.t;
        std::vector<double> sc(static_cast<size_t>(row.visible));
        double mx = -kInf;
        for (int64_t j = 0; j < row.visible; ++j) {
          double dot = 0.0, abs_dot = 0.0;
          for (int64_t d = 0; d < x.dk; ++d) {
            const double a = qv[static_cast<size_t>((n * x.s + i) * x.heads * x.dk + h * x.dk + d)];
            const double b = kv[static_cast<size_t>((n * x.t + j) * x.kv * x.dk + g * x.dk + d)];
            dot += a * b;
            abs_dot += std::fabs(a * b);
          }
          sc[static_cast<size_t>(j)] = scale * dot;
          mx = std::max(mx, scale * dot);
          row.max_dot = std::max(row.max_dot, scale * abs_dot);
        }
        row.out.assign(static_cast<size_t>(x.dv), 0.0);
        for (int64_t j = 0; j < row.visible; ++j) {
          const double w = std::exp(sc[static_cast<size_t>(j)] - mx);
          row.l += w;
          for (int64_t d = 0; d < x.dv; ++d)
            row.out[static_cast<size_t>(d)] +=
                w * vv[static_cast<size_t>((n * x.t + j) * x.kv * x.dv + g * x.dv + d)];
        }
        for (double& o : row.out) o /= row.l;
        rows.push_back(std::move(row));
      }
  return rows;
}

double relL2(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

std::vector<double> flatten(const std::vector<NaiveRow>& rows) {
  std::vector<double> y;
  for (const NaiveRow& r : rows) y.insert(y.end(), r.out.begin(), r.out.end());
  return y;
}

// What the executor's unfused path computes: the score GEMM with softmax in its epilogue, then
// the context GEMM (FloatGemmConfig{fmt}: operands rounded to fmt; each output rounded to fmt).
Tensor unfused(const Tensor& q, const Tensor& k, const Tensor& v, const Shape& x, FloatFormat fmt) {
  OpChain round(Domain::Float);
  round.roundTo(fmt);
  OpChain sm(Domain::Float);
  sm.roundTo(fmt).softmax().roundTo(fmt);
  const Tensor p = batchMatMul(q, k, scoreOf(x), {fmt, FloatFormat::FP32}, sm);
  return batchMatMul(p, v, contextOf(x), {fmt, FloatFormat::FP32}, round);
}

struct Operands {
  Tensor q, k, v;
};

Operands randomOperands(const Shape& x, DType d, uint32_t seed) {
  auto make = [&](std::vector<int64_t> shape, uint32_t s) {
    return Tensor::fromFloats(
        shape, ref::randomFloats(static_cast<size_t>(numelOf(shape)), -1.0f, 1.0f, s), d);
  };
  return {make({x.batch, x.s, x.heads * x.dk}, seed), make({x.batch, x.t, x.kv * x.dk}, seed + 1),
          make({x.batch, x.t, x.kv * x.dv}, seed + 2)};
}

std::vector<double> values(const Tensor& t) { return realValues(t); }

// (a) FP32: fused and the unfused kernels compute the same function; they differ by the order
// of FP32 sums (dot products, the sum l), the exp (portable_math's vs the row kernels' fast one,
// both within 2^-23 relative) and one FP32 rescale by exp(m_old - m_new) per key block: with at
// most ceil(200 / 16) = 13 blocks here, each output is within ~20 * 2^-24 = 1.2e-6 relative of
// the other in the worst case and far less in the RMS, so rel L2 <= 1e-6. A wrong head, block
// edge or mask moves outputs by O(0.1).
TEST(KernelsFlashAttention, Fp32MatchesTheUnfusedKernelsOverShapesAndBlocks) {
  const Shape shapes[] = {
      {2, 64, 64, 4, 4, 16, 16, true, 64, 64},   // causal prefill, one block
      {2, 70, 70, 4, 4, 16, 16, true, 16, 16},   // S, T not multiples of the block
      {1, 45, 45, 4, 4, 32, 32, false, 32, 16},  // not causal
      {2, 50, 50, 8, 2, 16, 16, true, 32, 32},   // GQA: 8 query heads on 2 K/V heads
      {1, 1, 37, 8, 2, 16, 16, true, 64, 16},    // decode: one query reading 37 keys (offset 36)
      {3, 1, 37, 4, 4, 8, 8, true, 16, 64},      // decode, one block wider than the cache
      {1, 20, 200, 4, 4, 16, 24, true, 16, 16},  // a chunk of 20 queries after 180 cached keys
  };
  double worst = 0.0;
  for (const Shape& x : shapes) {
    const Operands o = randomOperands(x, DType::FP32, static_cast<uint32_t>(x.t * 7 + x.bc));
    FlashConfig cfg;
    cfg.block_q = x.br;
    cfg.block_kv = x.bc;
    const Tensor fused = flashAttention(o.q, o.k, o.v, scoreOf(x), contextOf(x), cfg);
    ASSERT_EQ(fused.shape(), (std::vector<int64_t>{x.batch, x.s, x.heads * x.dv}));
    const double e = relL2(values(fused), values(unfused(o.q, o.k, o.v, x, FloatFormat::FP32)));
    EXPECT_LE(e, 1e-6) << "S=" << x.s << " T=" << x.t << " Br=" << x.br << " Bc=" << x.bc;
    // And both against the definition in double, the naive rows in [B, S, heads, dv] order.
    EXPECT_LE(relL2(values(fused), flatten(naive(o.q, o.k, o.v, x))), 1e-6);
    worst = std::max(worst, e);
  }
  std::printf("FP32 fused vs unfused: worst rel L2 %.3g\n", worst);
}

// Every block size from 1 up gives the same function: Br = Bc = 1 is the fully online form.
TEST(KernelsFlashAttention, BlockSizesOneToWiderThanTheTensor) {
  const Shape x{1, 9, 13, 2, 1, 8, 8, true, 0, 0};
  const Operands o = randomOperands(x, DType::FP32, 11);
  const std::vector<double> want = flatten(naive(o.q, o.k, o.v, x));
  for (int64_t b : {1, 2, 3, 5, 16, 128}) {
    FlashConfig cfg;
    cfg.block_q = b;
    cfg.block_kv = b;
    const Tensor y = flashAttention(o.q, o.k, o.v, scoreOf(x), contextOf(x), cfg);
    EXPECT_LE(relL2(values(y), want), 1e-6) << "block " << b;  // as above: <= 13 rescales
  }
  FlashConfig bad;
  bad.block_kv = 0;
  EXPECT_THROW(flashAttention(o.q, o.k, o.v, scoreOf(x), contextOf(x), bad), Error);
}

// (b) The online softmax by hand: S = 3 queries, T = 5 keys, d = 2, scale 1, causal (offset
// T - S = 2: query r sees keys c <= r + 2), key blocks of Bc = 2: {0, 1}, {2, 3}, {4}.
//   K: k0 = (1,0) k1 = (0,1) k2 = (2,0) k3 = (1,1) k4 = (0,0);  Q: q0 = (1,0) q1 = (0,1) q2 = (1,1)
//   V: v0 = (1,0) v1 = (0,1) v2 = (1,1) v3 = (2,-1) v4 = (0,3)
//   scores (- masked): row 0 = [1, 0, 2, -, -], row 1 = [0, 1, 0, 1, -], row 2 = [1, 1, 2, 2, 0]
// With E = 1/e, after each block (m: running max, l: running sum, O: unnormalized output):
//   block {0,1}: row 0 m 1, P [1, E], l 1 + E,        O v0 + E v1 = (1, E)
//                row 1 m 1, P [E, 1], l 1 + E,        O E v0 + v1 = (E, 1)
//                row 2 m 1, P [1, 1], l 2,            O v0 + v1 = (1, 1)
//   block {2,3}: row 0 max 2 > 1: O and l rescaled by e^(1-2) = E, P [1, 0 (masked)]:
//                      m 2, l (1 + E) E + 1 = 1 + E + E^2, O (1, E) E + v2 = (1 + E, 1 + E^2)
//                row 1 max stays 1, P [E, 1]: l 2 + 2E, O (E, 1) + E v2 + v3 = (2 + 2E, E)
//                row 2 max 2, rescale by E, P [1, 1]: l 2E + 2, O (1,1) E + v2 + v3 = (3 + E, E)
//   block {4}:   rows 0, 1 masked: unchanged. row 2 P [e^-2]: l 2 + 2E + E^2, O + E^2 v4 =
//                (3 + E, E + 3E^2).
// The last state over l is softmax(scores) V: row 0 = (v0 E + v1 E^2 + v2) / (1 + E + E^2).
TEST(KernelsFlashAttention, OnlineSoftmaxStepByStepByHand) {
  const double E = std::exp(-1.0);
  const float ninf = -std::numeric_limits<float>::infinity();
  const float scores[3][5] = {{1, 0, 2, ninf, ninf}, {0, 1, 0, 1, ninf}, {1, 1, 2, 2, 0}};
  const float v[5 * 2] = {1, 0, 0, 1, 1, 1, 2, -1, 0, 3};
  struct State {
    double m[3], l[3], o[3][2];
  };
  const State want[3] = {
      {{1, 1, 1}, {1 + E, 1 + E, 2}, {{1, E}, {E, 1}, {1, 1}}},
      {{2, 1, 2},
       {1 + E + E * E, 2 + 2 * E, 2 * E + 2},
       {{1 + E, 1 + E * E}, {2 + 2 * E, E}, {3 + E, E}}},
      {{2, 1, 2},
       {1 + E + E * E, 2 + 2 * E, 2 + 2 * E + E * E},
       {{1 + E, 1 + E * E}, {2 + 2 * E, E}, {3 + E, E + 3 * E * E}}},
  };
  OnlineSoftmax st(3, 2);
  for (int blk = 0; blk < 3; ++blk) {
    const int c0 = 2 * blk, cols = std::min(2, 5 - c0);
    float s[3 * 2];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < cols; ++c) s[r * 2 + c] = scores[r][c0 + c];
    flashStep(st, s, cols, 2, v + c0 * 2, 2);
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(st.max()[static_cast<size_t>(r)], want[blk].m[r]) << blk << " " << r;
      // FP32 values of O(1) after <= 3 exp/rescale roundings: within 1e-6.
      EXPECT_NEAR(st.sum()[static_cast<size_t>(r)], want[blk].l[r], 1e-6) << blk << " " << r;
      for (int d = 0; d < 2; ++d)
        EXPECT_NEAR(st.output()[r * 2 + d], want[blk].o[r][d], 1e-6) << blk << " " << r << " " << d;
    }
  }
  float out[3 * 2];
  st.finish(out, 2);
  const double row0[2] = {(E + 1) / (1 + E + E * E), (E * E + 1) / (1 + E + E * E)};
  EXPECT_NEAR(out[0], row0[0], 1e-6);
  EXPECT_NEAR(out[1], row0[1], 1e-6);
  // The kernel on the same Q, K, V with Bc = 2 takes exactly these steps.
  const Tensor q = Tensor::fromFloats({1, 3, 2}, {1, 0, 0, 1, 1, 1});
  const Tensor k = Tensor::fromFloats({1, 5, 2}, {1, 0, 0, 1, 2, 0, 1, 1, 0, 0});
  const Tensor vt = Tensor::fromFloats({1, 5, 2}, std::vector<float>(v, v + 10));
  AttentionParams sp, cp;
  sp.head_dim = cp.head_dim = 2;
  sp.transpose_b = sp.causal = true;
  FlashConfig cfg;
  cfg.block_kv = 2;
  const Tensor y = flashAttention(q, k, vt, sp, cp, cfg);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y.f32()[i], out[i]) << i;
}

// Key blocks wholly above the causal diagonal are never read: V rows of keys no query of a block
// sees are NaN, and the block's outputs stay finite (a computed block would add 0 * NaN).
TEST(KernelsFlashAttention, SkipsKeyBlocksAboveTheDiagonal) {
  const Shape x{1, 64, 64, 1, 1, 8, 8, true, 16, 16};
  Operands o = randomOperands(x, DType::FP32, 21);
  for (int64_t j = 16; j < 64; ++j)
    for (int64_t d = 0; d < 8; ++d) o.v.f32()[j * 8 + d] = std::numeric_limits<float>::quiet_NaN();
  FlashConfig cfg;
  cfg.block_q = cfg.block_kv = 16;
  const Tensor y = flashAttention(o.q, o.k, o.v, scoreOf(x), contextOf(x), cfg);
  for (int64_t i = 0; i < 64 * 8; ++i)
    EXPECT_EQ(std::isfinite(y.f32()[i]), i < 16 * 8) << i;  // rows >= 16 do read key 16's NaN
}

// The same bits under the portable and the AVX2 builds of the tile products, float and INT8.
TEST(KernelsFlashAttention, SameBitsOnEveryIsa) {
  const Shape x{2, 33, 50, 4, 2, 32, 32, true, 16, 32};
  const Operands o = randomOperands(x, DType::FP32, 31);
  const Tensor q8 = quantize(o.q, QuantParams::perTensor(1.0f / 127));
  const Tensor k8 = quantize(o.k, QuantParams::perTensor(1.0f / 127));
  const Tensor v8 = quantize(o.v, QuantParams::perTensor(1.0f / 127));
  FlashConfig cfg;
  cfg.block_q = x.br;
  cfg.block_kv = x.bc;
  FlashConfig icfg = cfg;
  icfg.out = DType::Int8;
  icfg.out_quant = QuantParams::perTensor(1.0f / 127);
  std::vector<Tensor> runs;
  const IsaLevel before = isaCeiling();
  for (IsaLevel level : {IsaLevel::Portable, IsaLevel::Avx2}) {
    setIsaCeiling(level);
    runs.push_back(flashAttention(o.q, o.k, o.v, scoreOf(x), contextOf(x), cfg));
    runs.push_back(flashAttention(q8, k8, v8, scoreOf(x), contextOf(x), icfg));
  }
  setIsaCeiling(before);
  EXPECT_EQ(std::memcmp(runs[0].f32(), runs[2].f32(), static_cast<size_t>(runs[0].numel()) * 4), 0);
  EXPECT_EQ(std::memcmp(runs[1].i8(), runs[3].i8(), static_cast<size_t>(runs[1].numel())), 0);
}

struct Format {
  const char* name;
  DType dtype;
  double u;      // unit roundoff: 2^-p for p significand bits
  double sigma;  // spacing of the subnormals
};

// (c) FP16, BF16 and FP8 (e4m3) operands, held in their format as the executor holds them,
// against attention in FP64 on the same values. Inside the kernel only P (rounded to the format
// before P·V) and the output (rounded once) lose precision beyond FP32. Per output:
//   |O - O_ref| <= max|V| (u + T sigma / (2 l)) + u |O_ref| + sigma / 2 + fp32
// P's rounding errs <= u p + sigma/2 per key, over l = sum exp(s - max s) >= 1 (l sums the FP32
// P); the output's rounding <= u |O| + sigma/2; fp32 = max|V| (4 d 2^-24 max_j sum|q k| scale +
// 4 T 2^-24) bounds the FP32 dot products, exp and sums. Measured errors are far inside.
TEST(KernelsFlashAttention, LowPrecisionFloatsWithinTheirRounding) {
  const Format formats[] = {{"fp16", DType::FP16, 0x1p-11, 0x1p-24},
                            {"bf16", DType::BF16, 0x1p-8, 0x1p-133},
                            {"fp8_e4m3", DType::FP8_E4M3, 0x1p-4, 0x1p-9}};
  const Shape x{2, 40, 72, 8, 2, 32, 32, true, 32, 32};
  for (const Format& f : formats) {
    const Operands o = randomOperands(x, f.dtype, 41);
    const FloatFormat fmt = formatOf(f.dtype);
    FlashConfig cfg;
    cfg.block_q = x.br;
    cfg.block_kv = x.bc;
    cfg.qk = cfg.v = fmt;
    cfg.p_rounding = {fmt};
    cfg.out = f.dtype;
    const Tensor y = flashAttention(o.q, o.k, o.v, scoreOf(x), contextOf(x), cfg);
    ASSERT_EQ(y.dtype(), f.dtype);
    const std::vector<NaiveRow> want = naive(o.q, o.k, o.v, x);
    double max_v = 0.0;
    for (double a : values(o.v)) max_v = std::max(max_v, std::fabs(a));
    const std::vector<double> got = values(y);
    for (size_t r = 0; r < want.size(); ++r) {
      const NaiveRow& w = want[r];
      const double fp32 = max_v * (4 * x.dk * 0x1p-24 * w.max_dot + 4 * x.t * 0x1p-24);
      for (int64_t d = 0; d < x.dv; ++d) {
        const double ref = w.out[static_cast<size_t>(d)];
        const double bound =
            max_v * (f.u + x.t * f.sigma / (2 * w.l)) + f.u * std::fabs(ref) + f.sigma / 2 + fp32;
        ASSERT_LE(std::fabs(got[r * static_cast<size_t>(x.dv) + static_cast<size_t>(d)] - ref),
                  bound)
            << f.name << " row " << r << " col " << d;
      }
    }
    const std::vector<double> ref = flatten(want), un = values(unfused(o.q, o.k, o.v, x, fmt));
    std::printf("%-9s rel L2 vs FP64: fused %.3g, unfused %.3g; fused vs unfused %.3g\n", f.name,
                relL2(got, ref), relL2(un, ref), relL2(got, un));
  }
}

// INT8 Q, K, V (zero points honoured) against FP64 on their real values. Scores are exact int32
// times a float scale; each P block is quantized with max(P_blk) / 127 <= 1/127, so a key's P
// errs <= 1/254 before the later rescales (factors <= 1); the output is quantized once. Per
// output: |O - O_ref| <= max|V| visible / (254 l) + scale_out / 2 + fp32 (as above).
TEST(KernelsFlashAttention, Int8WithPerBlockProbabilityScales) {
  // The second shape's 300-wide heads take two exact chunks of score sums (258 terms each).
  for (const Shape& x :
       {Shape{2, 40, 72, 8, 2, 32, 32, true, 32, 32}, Shape{1, 9, 21, 2, 1, 300, 16, true, 8, 8}}) {
    const Operands f = randomOperands(x, DType::FP32, 51);
    const Tensor q = quantize(f.q, QuantParams::perTensor(1.0f / 127, 2));
    const Tensor k = quantize(f.k, QuantParams::perTensor(1.0f / 127, -1));
    const Tensor v = quantize(f.v, QuantParams::perTensor(1.0f / 120, 3));
    const std::vector<NaiveRow> want = naive(q, k, v, x);
    double max_o = 0.0, max_v = 0.0;
    for (const NaiveRow& r : want)
      for (double o : r.out) max_o = std::max(max_o, std::fabs(o));
    for (double a : values(v)) max_v = std::max(max_v, std::fabs(a));
    FlashConfig cfg;
    cfg.block_q = x.br;
    cfg.block_kv = x.bc;
    cfg.out = DType::Int8;
    cfg.out_quant = QuantParams::perTensor(static_cast<float>(max_o / 127));
    const Tensor y = flashAttention(q, k, v, scoreOf(x), contextOf(x), cfg);
    ASSERT_EQ(y.dtype(), DType::Int8);
    EXPECT_EQ(y.saturation.clipped(), 0);  // the scale covers the largest output
    const std::vector<double> got = values(y);
    for (size_t r = 0; r < want.size(); ++r) {
      const NaiveRow& w = want[r];
      const double fp32 = max_v * (4 * x.dk * 0x1p-24 * w.max_dot + 4 * x.t * 0x1p-24);
      const double bound =
          max_v * static_cast<double>(w.visible) / (254 * w.l) + max_o / 254 + fp32;
      for (int64_t d = 0; d < x.dv; ++d)
        ASSERT_LE(std::fabs(got[r * static_cast<size_t>(x.dv) + static_cast<size_t>(d)] -
                            w.out[static_cast<size_t>(d)]),
                  bound)
            << "dk " << x.dk << " row " << r << " col " << d;
    }
    std::printf("int8 dk %-4lld rel L2 vs FP64: fused %.3g\n", static_cast<long long>(x.dk),
                relL2(got, flatten(want)));
  }
}

TEST(KernelsFlashAttention, RejectsMismatchedOperands) {
  const Shape x{1, 4, 4, 2, 2, 4, 4, false, 64, 64};
  const Operands o = randomOperands(x, DType::FP32, 61);
  const Tensor q8 = quantize(o.q, QuantParams::perTensor(0.01f));
  EXPECT_THROW(flashAttention(q8, o.k, o.v, scoreOf(x), contextOf(x)), Error);  // Q int8, K float
  AttentionParams wide = scoreOf(x);
  wide.head_dim = 8;  // K's columns end before 2 heads of 8
  EXPECT_THROW(flashAttention(o.q, o.k, o.v, wide, contextOf(x)), Error);
  AttentionParams three = contextOf(x);
  three.heads = 3;
  EXPECT_THROW(flashAttention(o.q, o.k, o.v, scoreOf(x), three), Error);
}

}  // namespace
}  // namespace tessel::kernels
