// Convolution (NHWC, [R,S,C,K] weights, im2col + GEMM) against a naive direct convolution.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/ops/conv.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

struct Case {
  int64_t n, h, w, c, k, r, s, stride, pad;
};

// Direct convolution in double (float inputs) or exact int64 (int8 inputs, zero points).
template <class T>
std::vector<double> directConv(const T* x, const T* wt, const Case& g, int64_t p, int64_t q,
                               int32_t zx = 0) {
  std::vector<double> out(static_cast<size_t>(g.n * p * q * g.k), 0.0);
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t i = 0; i < p; ++i)
      for (int64_t j = 0; j < q; ++j)
        for (int64_t r = 0; r < g.r; ++r)
          for (int64_t s = 0; s < g.s; ++s) {
            const int64_t ih = i * g.stride - g.pad + r, iw = j * g.stride - g.pad + s;
            if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;  // padding is real 0
            for (int64_t c = 0; c < g.c; ++c) {
              const double xv = static_cast<double>(x[((n * g.h + ih) * g.w + iw) * g.c + c]) - zx;
              for (int64_t k = 0; k < g.k; ++k)
                out[static_cast<size_t>(((n * p + i) * q + j) * g.k + k)] +=
                    xv * static_cast<double>(wt[((r * g.s + s) * g.c + c) * g.k + k]);
            }
          }
  return out;
}

const Case kCases[] = {{1, 7, 7, 3, 8, 3, 3, 1, 1},    {2, 9, 8, 5, 17, 3, 3, 2, 1},
                       {1, 11, 11, 3, 16, 7, 7, 2, 3}, {2, 6, 6, 20, 33, 1, 1, 1, 0},
                       {1, 8, 8, 4, 6, 1, 1, 2, 0},    {1, 5, 5, 2, 3, 5, 5, 1, 0}};

TEST(KernelsConv, FloatMatchesDirectConvolution) {
  uint32_t seed = 1;
  for (const Case& g : kCases) {
    const Tensor x = ref::floatTensor({g.n, g.h, g.w, g.c}, -1.0f, 1.0f, seed++);
    const Tensor w = ref::floatTensor({g.r, g.s, g.c, g.k}, -1.0f, 1.0f, seed++);
    const Tensor y = conv2d(x, convWeights(w), {g.r, g.s, g.stride, g.pad});
    const int64_t p = (g.h + 2 * g.pad - g.r) / g.stride + 1,
                  q = (g.w + 2 * g.pad - g.s) / g.stride + 1;
    ASSERT_EQ(y.shape(), (std::vector<int64_t>{g.n, p, q, g.k}));
    const std::vector<double> want = directConv(x.f32(), w.f32(), g, p, q);
    // Dot products of R*S*C terms bounded by 1: (R*S*C) * 2^-24 * (R*S*C).
    const double tol = static_cast<double>(g.r * g.s * g.c) * (g.r * g.s * g.c) * 0x1p-24;
    for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(y.f32()[i], want[i], tol) << i;
  }
}

TEST(KernelsConv, Int8IsExactWithZeroPointPadding) {
  uint32_t seed = 20;
  for (const Case& g : kCases) {
    const Tensor x = ref::int8Tensor({g.n, g.h, g.w, g.c}, seed++, QuantParams::perTensor(0.1f, 7));
    const Tensor w = ref::int8Tensor({g.r, g.s, g.c, g.k}, seed++, QuantParams::perTensor(0.01f));
    const Tensor y = conv2d(x, packConvWeights(w), {g.r, g.s, g.stride, g.pad});
    const int64_t p = y.dim(1), q = y.dim(2);
    const std::vector<double> want = directConv(x.i8(), w.i8(), g, p, q, 7);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(y.i32()[i], static_cast<int32_t>(want[i])) << i;
    EXPECT_FLOAT_EQ(y.quant.scale[0], 0.1f * 0.01f);
  }
}

TEST(KernelsConv, FusedEpilogueAndMisuse) {
  const Tensor x = ref::floatTensor({1, 6, 6, 4}, -1.0f, 1.0f, 40);
  const Tensor w = ref::floatTensor({3, 3, 4, 5}, -1.0f, 1.0f, 41);
  OpChain relu(Domain::Float);
  relu.relu();
  const Tensor fused = conv2d(x, convWeights(w), {3, 3, 1, 1}, relu);
  const Tensor plain = conv2d(x, convWeights(w), {3, 3, 1, 1});
  for (int64_t i = 0; i < plain.numel(); ++i)
    ASSERT_EQ(fused.f32()[i], std::max(plain.f32()[i], 0.0f));
  EXPECT_THROW(conv2d(x, convWeights(w), {5, 5, 1, 1}), Error);  // R*S*C mismatch
  EXPECT_THROW(conv2d(x, convWeights(w), {3, 3, 0, 1}), Error);
  EXPECT_THROW(conv2d(ref::floatTensor({6, 6, 4}, 0, 1, 42), convWeights(w), {3, 3, 1, 1}), Error);
}

}  // namespace
}  // namespace tessel::kernels
