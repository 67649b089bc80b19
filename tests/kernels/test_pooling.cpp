// Pooling (NHWC) and the embedding gather.
#include <gtest/gtest.h>

#include "kernels/ops/pooling.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

TEST(KernelsPooling, MaxPoolFloatAndInt8WithPadding) {
  // 1x4x4x1 ramp; 3x3 window, stride 2, pad 1 (ResNet's stem pool) -> 2x2.
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i) - 8.0f;
  const Tensor x = Tensor::fromFloats({1, 4, 4, 1}, v);
  const Tensor y = maxPool(x, {3, 2, 1});
  ASSERT_EQ(y.shape(), (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(y.f32()[0], -3.0f);  // rows 0-1, cols 0-1: max is x[1][1] = 5 - 8; padding never wins
  EXPECT_EQ(y.f32()[3], 7.0f);
  std::vector<int8_t> q(16);
  for (int i = 0; i < 16; ++i) q[static_cast<size_t>(i)] = static_cast<int8_t>(-100 + i);
  const Tensor y8 =
      maxPool(Tensor::fromInt8({1, 4, 4, 1}, q, QuantParams::perTensor(0.5f, 2)), {3, 2, 1});
  EXPECT_EQ(y8.i8()[0], -95);
  EXPECT_EQ(y8.quant.zero_point[0], 2);
}

TEST(KernelsPooling, AvgPoolCountsPadOrNot) {
  const Tensor x = Tensor::fromFloats({1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40});
  PoolParams p{2, 1, 1, true};
  const Tensor with_pad = avgPool(x, p);  // 3x3 outputs; the corner sees only x[0][0]
  EXPECT_FLOAT_EQ(with_pad.f32()[0], 1.0f / 4);
  EXPECT_FLOAT_EQ(with_pad.f32()[1], 10.0f / 4);
  p.count_pad = false;
  EXPECT_FLOAT_EQ(avgPool(x, p).f32()[0], 1.0f);
  EXPECT_FLOAT_EQ(avgPool(x, p).f32()[2 * 4 + 1], (10 + 20 + 30 + 40) / 4.0f);  // center
}

TEST(KernelsPooling, GlobalAvgPool) {
  const Tensor x = ref::floatTensor({2, 7, 7, 5}, -1.0f, 1.0f, 1);
  const Tensor y = globalAvgPool(x);
  ASSERT_EQ(y.shape(), (std::vector<int64_t>{2, 5}));
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t c = 0; c < 5; ++c) {
      double s = 0.0;
      for (int64_t i = 0; i < 49; ++i) s += x.f32()[(n * 49 + i) * 5 + c];
      ASSERT_NEAR(y.f32()[n * 5 + c], s / 49, 49 * 0x1p-24);  // 49 float adds of values <= 1
    }
  EXPECT_THROW(globalAvgPool(Tensor::fromFloats({2, 2}, {1, 2, 3, 4})), Error);
}

TEST(KernelsPooling, EmbeddingGather) {
  const Tensor table = ref::floatTensor({10, 4}, -1.0f, 1.0f, 2);
  const Tensor ids = Tensor::fromInt32({2, 3}, {0, 9, 3, 3, 1, 0});
  const Tensor e = embedding(ids, table);
  ASSERT_EQ(e.shape(), (std::vector<int64_t>{2, 3, 4}));
  for (int i = 0; i < 6; ++i)
    for (int d = 0; d < 4; ++d) ASSERT_EQ(e.f32()[i * 4 + d], table.f32()[ids.i32()[i] * 4 + d]);
  const Tensor t8 = ref::int8Tensor({10, 4}, 3, QuantParams::perTensor(0.02f));
  const Tensor e8 = embedding(ids, t8);
  EXPECT_EQ(e8.i8()[4], t8.i8()[9 * 4]);
  EXPECT_FLOAT_EQ(e8.quant.scale[0], 0.02f);
  EXPECT_THROW(embedding(Tensor::fromInt32({1}, {10}), table), Error);
  EXPECT_THROW(embedding(Tensor::fromInt32({1}, {-1}), table), Error);
}

}  // namespace
}  // namespace tessel::kernels
