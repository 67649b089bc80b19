// Float GEMM: FP32 against a double reference, FP16/BF16 operand rounding, and FP16/BF16
// accumulation rounded after every add.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/gemm/float.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

// Deterministic bound for a float dot product of length k: |err| <= k * 2^-24 * sum |a_i b_i|
// (Higham, Accuracy and Stability, 3.1), whatever order Eigen sums in.
void expectNearRef(const Tensor& c, const Tensor& a, const std::vector<float>& b, int64_t m,
                   int64_t n, int64_t k) {
  const std::vector<double> want = ref::gemm(a.f32(), b.data(), m, n, k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double mag = 0.0;
      for (int64_t p = 0; p < k; ++p)
        mag += std::fabs(a.f32()[i * k + p] * b[static_cast<size_t>(p * n + j)]);
      ASSERT_NEAR(c.f32()[i * n + j], want[static_cast<size_t>(i * n + j)],
                  static_cast<double>(k) * 0x1p-24 * mag + 1e-30);
    }
}

TEST(KernelsFloatGemm, Fp32MatchesDoubleReference) {
  for (auto [m, n, k] : {std::tuple{1, 1, 1}, {7, 33, 13}, {70, 300, 257}, {3, 600, 1030}}) {
    const Tensor a = ref::floatTensor({m, k}, -1.0f, 1.0f, 1);
    const Tensor b = ref::floatTensor({k, n}, -1.0f, 1.0f, 2);
    const Tensor c = matmul(a, FloatWeights(b));
    EXPECT_EQ(c.dtype(), DType::FP32);
    expectNearRef(c, a, std::vector<float>(b.f32(), b.f32() + b.numel()), m, n, k);
  }
}

TEST(KernelsFloatGemm, TransposedWeightsAndLeadingDims) {
  const Tensor a = ref::floatTensor({2, 5, 40}, -1.0f, 1.0f, 3);
  const Tensor bt = ref::floatTensor({30, 40}, -1.0f, 1.0f, 4);  // [N, K]
  std::vector<float> b(40 * 30);
  for (int k = 0; k < 40; ++k)
    for (int n = 0; n < 30; ++n) b[static_cast<size_t>(k * 30 + n)] = bt.f32()[n * 40 + k];
  const Tensor c = matmul(a, FloatWeights(bt, {}, true));
  EXPECT_EQ(c.shape(), (std::vector<int64_t>{2, 5, 30}));
  expectNearRef(c, a, b, 10, 30, 40);
}

// FP16/BF16 operands with FP32 accumulation: the same bound holds against a double product of
// the rounded operands.
TEST(KernelsFloatGemm, LowPrecisionOperands) {
  for (FloatFormat f : {FloatFormat::FP16, FloatFormat::BF16}) {
    const Tensor a = ref::floatTensor({9, 77}, -2.0f, 2.0f, 5);
    const Tensor b = ref::floatTensor({77, 21}, -2.0f, 2.0f, 6);
    const Tensor c = matmul(a, FloatWeights(b, {f, FloatFormat::FP32}));
    std::vector<float> ar(a.f32(), a.f32() + a.numel()), br(b.f32(), b.f32() + b.numel());
    for (float& v : ar) v = roundTo(v, f);
    for (float& v : br) v = roundTo(v, f);
    expectNearRef(c, Tensor::fromFloats({9, 77}, ar), br, 9, 21, 77);
  }
}

TEST(KernelsFloatGemm, LowPrecisionAccumulationRoundsEveryAdd) {
  // Summing ones: FP16 stalls at 2048 (2048 + 1 ties to even), BF16 at 256.
  const Tensor ones = Tensor::fromFloats({1, 4096}, std::vector<float>(4096, 1.0f));
  const Tensor col = Tensor::fromFloats({4096, 1}, std::vector<float>(4096, 1.0f));
  EXPECT_EQ(matmul(ones, FloatWeights(col)).f32()[0], 4096.0f);
  EXPECT_EQ(matmul(ones, FloatWeights(col, {FloatFormat::FP16, FloatFormat::FP16})).f32()[0],
            2048.0f);
  EXPECT_EQ(matmul(ones, FloatWeights(col, {FloatFormat::BF16, FloatFormat::BF16})).f32()[0],
            256.0f);
  // Random data: equal to a scalar loop that rounds after each add, k ascending.
  const Tensor a = ref::floatTensor({4, 300}, -1.0f, 1.0f, 7);
  const Tensor b = ref::floatTensor({300, 5}, -1.0f, 1.0f, 8);
  const FloatGemmConfig cfg{FloatFormat::FP16, FloatFormat::FP16};
  const Tensor c = matmul(a, FloatWeights(b, cfg));
  EXPECT_EQ(c.dtype(), DType::FP16);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      double acc = 0.0;
      for (int p = 0; p < 300; ++p)
        acc = ref::roundHalf(acc + ref::roundHalf(a.f32()[i * 300 + p]) *
                                       ref::roundHalf(b.f32()[p * 5 + j]));
      ASSERT_EQ(c.f32()[i * 5 + j], static_cast<float>(acc));
    }
}

TEST(KernelsFloatGemm, Misuse) {
  const FloatWeights w(Tensor::fromFloats({3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_THROW(matmul(Tensor::fromFloats({1, 2}, {1, 2}), w), Error);
  EXPECT_THROW(FloatWeights(Tensor::fromFloats({6}, {1, 2, 3, 4, 5, 6})), Error);
  EXPECT_THROW(matmul(Tensor::fromFloats({1, 3}, {1, 2, 3}), w, OpChain(Domain::Int32)), Error);
}

}  // namespace
}  // namespace tessel::kernels
