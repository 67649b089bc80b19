// Batched attention GEMMs against naive loops: head column offsets, scale, causal mask (with
// the decode offset T - S), float and exact INT8 paths, and a fused softmax epilogue.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/ops/attention.h"
#include "kernels/ops/normalization.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

constexpr int64_t kHeads = 3, kHd = 4, kD = kHeads * kHd;

// score[b][h][s][t] = scale * sum_d A[b][s][ao + h*hd + d] * B[b][t][bo + h*hd + d], in double.
template <class T>
double scoreRef(const T* a, const T* b, int64_t s_len, int64_t t_len, int64_t da, int64_t db,
                int64_t ao, int64_t bo, int64_t bi, int64_t h, int64_t s, int64_t t) {
  double acc = 0.0;
  for (int64_t d = 0; d < kHd; ++d)
    acc += static_cast<double>(a[(bi * s_len + s) * da + ao + h * kHd + d]) *
           static_cast<double>(b[(bi * t_len + t) * db + bo + h * kHd + d]);
  return acc;
}

AttentionParams scoreParams(int64_t a_off, int64_t b_off, bool causal) {
  AttentionParams p;
  p.heads = kHeads;
  p.head_dim = kHd;
  p.a_col_offset = a_off;
  p.b_col_offset = b_off;
  p.transpose_b = true;
  p.causal = causal;
  p.scale = 0.5f;
  return p;
}

TEST(KernelsAttention, FloatScoresPrefillFromPackedQkv) {
  const int64_t batch = 2, s_len = 6;
  const Tensor qkv = ref::floatTensor({batch, s_len, 3 * kD}, -1.0f, 1.0f, 1);
  const Tensor sc = batchMatMul(qkv, qkv, scoreParams(0, kD, true));
  ASSERT_EQ(sc.shape(), (std::vector<int64_t>{batch, kHeads, s_len, s_len}));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t s = 0; s < s_len; ++s)
        for (int64_t t = 0; t < s_len; ++t) {
          const float got = sc.f32()[((b * kHeads + h) * s_len + s) * s_len + t];
          if (t > s) {
            ASSERT_EQ(got, -std::numeric_limits<float>::infinity());
            continue;
          }
          // 4-term float dot product: 4 * 2^-24 relative to sum |q k| <= 4.
          ASSERT_NEAR(
              got,
              0.5 * scoreRef(qkv.f32(), qkv.f32(), s_len, s_len, 3 * kD, 3 * kD, 0, kD, b, h, s, t),
              4 * 4 * 0x1p-24);
        }
}

TEST(KernelsAttention, DecodeQuerySeesWholeCache) {
  const int64_t batch = 1, s_len = 2, t_len = 9;
  const Tensor q = ref::floatTensor({batch, s_len, kD}, -1.0f, 1.0f, 2);
  const Tensor k = ref::floatTensor({batch, t_len, kD}, -1.0f, 1.0f, 3);
  const Tensor sc = batchMatMul(q, k, scoreParams(0, 0, true));
  for (int64_t s = 0; s < s_len; ++s)
    for (int64_t t = 0; t < t_len; ++t) {
      const bool masked = t > s + (t_len - s_len);
      EXPECT_EQ(std::isinf(sc.f32()[s * t_len + t]), masked) << s << "," << t;
    }
}

TEST(KernelsAttention, FusedSoftmaxEqualsSeparateSoftmax) {
  const Tensor qkv = ref::floatTensor({2, 7, 3 * kD}, -2.0f, 2.0f, 4);
  const AttentionParams p = scoreParams(0, kD, true);
  OpChain sm(Domain::Float);
  sm.softmax();
  const Tensor fused = batchMatMul(qkv, qkv, p, {}, sm);
  const Tensor unfused = softmax(batchMatMul(qkv, qkv, p));
  ASSERT_EQ(std::memcmp(fused.f32(), unfused.f32(), static_cast<size_t>(fused.numel()) * 4), 0);
  EXPECT_EQ(fused.f32()[1], 0.0f);  // masked entries get probability 0
}

TEST(KernelsAttention, FloatContextMergesHeads) {
  const int64_t batch = 2, s_len = 5, t_len = 5;
  const Tensor probs = ref::floatTensor({batch, kHeads, s_len, t_len}, 0.0f, 0.4f, 5);
  const Tensor qkv = ref::floatTensor({batch, t_len, 3 * kD}, -1.0f, 1.0f, 6);
  AttentionParams p = scoreParams(0, 2 * kD, false);
  p.transpose_b = false;
  const Tensor ctx = batchMatMul(probs, qkv, p);
  ASSERT_EQ(ctx.shape(), (std::vector<int64_t>{batch, s_len, kD}));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t s = 0; s < s_len; ++s)
        for (int64_t d = 0; d < kHd; ++d) {
          double want = 0.0;
          for (int64_t t = 0; t < t_len; ++t)
            want += static_cast<double>(probs.f32()[((b * kHeads + h) * s_len + s) * t_len + t]) *
                    qkv.f32()[(b * t_len + t) * 3 * kD + 2 * kD + h * kHd + d];
          // 5-term dot product, terms <= 0.4: 5 * 2^-24 * 2.
          ASSERT_NEAR(ctx.f32()[(b * s_len + s) * kD + h * kHd + d], want, 10 * 0x1p-24);
        }
}

TEST(KernelsAttention, Int8ScoresAndContextAreExact) {
  const int64_t batch = 2, s_len = 6;
  const Tensor qkv = ref::int8Tensor({batch, s_len, 3 * kD}, 7, QuantParams::perTensor(0.1f));
  const Tensor sc = batchMatMul(qkv, qkv, scoreParams(0, kD, true));
  ASSERT_EQ(sc.dtype(), DType::Int32);
  EXPECT_FLOAT_EQ(sc.quant.scale[0], 0.1f * 0.1f * 0.5f);  // the scale is folded, not applied
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t s = 0; s < s_len; ++s)
        for (int64_t t = 0; t < s_len; ++t) {
          const int32_t got = sc.i32()[((b * kHeads + h) * s_len + s) * s_len + t];
          const auto want = static_cast<int32_t>(
              scoreRef(qkv.i8(), qkv.i8(), s_len, s_len, 3 * kD, 3 * kD, 0, kD, b, h, s, t));
          ASSERT_EQ(got, t > s ? std::numeric_limits<int32_t>::min() : want);
        }
  // Context: probabilities as uint8 stored with zero point -128, V from the packed tensor.
  const Tensor probs =
      ref::int8Tensor({batch, kHeads, s_len, s_len}, 8, QuantParams::perTensor(1.0f / 256, -128));
  AttentionParams p = scoreParams(0, 2 * kD, false);
  p.transpose_b = false;
  const Tensor ctx = batchMatMul(probs, qkv, p);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t s = 0; s < s_len; ++s)
        for (int64_t d = 0; d < kHd; ++d) {
          int64_t want = 0;
          for (int64_t t = 0; t < s_len; ++t)
            want += (probs.i8()[((b * kHeads + h) * s_len + s) * s_len + t] + 128) *
                    qkv.i8()[(b * s_len + t) * 3 * kD + 2 * kD + h * kHd + d];
          ASSERT_EQ(ctx.i32()[(b * s_len + s) * kD + h * kHd + d], want);
        }
}

TEST(KernelsAttention, Fp16OperandsAndMisuse) {
  const Tensor qkv = ref::floatTensor({1, 5, 3 * kD}, -1.0f, 1.0f, 9);
  const Tensor sc =
      batchMatMul(qkv, qkv, scoreParams(0, kD, false), {FloatFormat::FP16, FloatFormat::FP32});
  for (int64_t s = 0; s < 5; ++s)
    for (int64_t t = 0; t < 5; ++t) {
      double want = 0.0;
      for (int64_t d = 0; d < kHd; ++d)
        want += ref::roundHalf(qkv.f32()[s * 3 * kD + d]) *
                ref::roundHalf(qkv.f32()[t * 3 * kD + kD + d]);
      ASSERT_NEAR(sc.f32()[s * 5 + t], 0.5 * want, 16 * 0x1p-24);
    }
  AttentionParams bad = scoreParams(0, 3 * kD, false);  // K columns past the row
  EXPECT_THROW(batchMatMul(qkv, qkv, bad), Error);
  const Tensor q8 = ref::int8Tensor({1, 5, 3 * kD}, 10);
  EXPECT_THROW(batchMatMul(q8, qkv, scoreParams(0, kD, false)), Error);  // mixed dtypes
}

}  // namespace
}  // namespace tessel::kernels
