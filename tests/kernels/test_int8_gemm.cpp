// INT8 GEMM exactness: every available micro-kernel against a naive int64 triple loop, on random
// data, extreme values (-128 * -128 everywhere), odd shapes, K up to 4096, zero points and
// transposed weights.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "kernels/gemm/int8.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

std::vector<Int8Isa> availableIsas() {
  std::vector<Int8Isa> v;
  for (Int8Isa isa : {Int8Isa::Portable, Int8Isa::Avx2, Int8Isa::Avx512Vnni})
    if (isAvailable(isa)) v.push_back(isa);
  return v;
}

// Runs a [m, k] x [k, n] product with every kernel and compares with the int64 reference.
void expectExact(const std::vector<int8_t>& a, const std::vector<int8_t>& b, int64_t m, int64_t n,
                 int64_t k, int32_t za = 0, int32_t zb = 0) {
  const std::vector<int64_t> want = ref::gemmInt(a.data(), b.data(), m, n, k, za, zb);
  for (Int8Isa isa : availableIsas()) {
    const Tensor ta = Tensor::fromInt8({m, k}, a, QuantParams::perTensor(0.5f, za));
    const Tensor tb = Tensor::fromInt8({k, n}, b, QuantParams::perTensor(0.25f, zb));
    const Tensor c = matmul(ta, PackedWeights(tb, false, isa));
    ASSERT_EQ(c.dtype(), DType::Int32);
    for (int64_t i = 0; i < m * n; ++i)
      ASSERT_EQ(c.i32()[i], want[static_cast<size_t>(i)])
          << nameOf(isa) << " m=" << m << " n=" << n << " k=" << k << " at " << i;
  }
}

TEST(KernelsInt8Gemm, ExactOnRandomOddShapes) {
  const std::vector<std::tuple<int, int, int>> shapes = {
      {1, 1, 1},     {3, 17, 5},      {7, 33, 13},    {8, 16, 4},    {9, 15, 3},
      {65, 47, 129}, {130, 300, 257}, {20, 40, 4096}, {5, 260, 1000}};
  uint32_t seed = 1;
  for (auto [m, n, k] : shapes) {
    const auto a = ref::randomInt8(static_cast<size_t>(m * k), seed++);
    const auto b = ref::randomInt8(static_cast<size_t>(k * n), seed++);
    expectExact(a, b, m, n, k);
  }
}

TEST(KernelsInt8Gemm, ExactAtExtremeValues) {
  for (int k : {1, 1023, 1024, 1025, 4096}) {
    const int m = 5, n = 19;
    // -128 * -128 everywhere: the largest product, 2^14 per term.
    expectExact(std::vector<int8_t>(static_cast<size_t>(m * k), -128),
                std::vector<int8_t>(static_cast<size_t>(k * n), -128), m, n, k);
    // Largest negative sums: -128 * 127.
    expectExact(std::vector<int8_t>(static_cast<size_t>(m * k), -128),
                std::vector<int8_t>(static_cast<size_t>(k * n), 127), m, n, k);
  }
  const auto a = ref::randomInt8(9 * 4096, 3, -128, -127);  // only the two extreme codes
  const auto b = ref::randomInt8(4096 * 21, 4, 126, 127);
  expectExact(a, b, 9, 21, 4096);
}

TEST(KernelsInt8Gemm, ZeroPointsAreHonoured) {
  const auto a = ref::randomInt8(13 * 70, 5);
  const auto b = ref::randomInt8(70 * 37, 6);
  expectExact(a, b, 13, 37, 70, -128, 0);  // uint8 data stored as int8 with zp -128
  expectExact(a, b, 13, 37, 70, 17, -9);
  // Per-column weight zero points.
  QuantParams qb;
  qb.scale = std::vector<float>(37, 0.1f);
  qb.zero_point.resize(37);
  for (int c = 0; c < 37; ++c) qb.zero_point[static_cast<size_t>(c)] = c - 18;
  const Tensor ta = Tensor::fromInt8({13, 70}, a, QuantParams::perTensor(1.0f, 3));
  const Tensor tb = Tensor::fromInt8({70, 37}, b, qb);
  for (Int8Isa isa : availableIsas()) {
    const Tensor c = matmul(ta, PackedWeights(tb, false, isa));
    for (int i = 0; i < 13; ++i)
      for (int j = 0; j < 37; ++j) {
        int64_t s = 0;
        for (int p = 0; p < 70; ++p) s += (a[i * 70 + p] - 3) * (b[p * 37 + j] - (j - 18));
        ASSERT_EQ(c.i32()[i * 37 + j], s) << nameOf(isa);
      }
  }
}

TEST(KernelsInt8Gemm, TransposedWeightsAndBatchedShape) {
  const auto a = ref::randomInt8(2 * 6 * 40, 7);
  const auto bt = ref::randomInt8(25 * 40, 8);  // [N, K]
  std::vector<int8_t> b(40 * 25);
  for (int k = 0; k < 40; ++k)
    for (int n = 0; n < 25; ++n)
      b[static_cast<size_t>(k * 25 + n)] = bt[static_cast<size_t>(n * 40 + k)];
  const auto want = ref::gemmInt(a.data(), b.data(), 12, 25, 40);
  const Tensor ta = Tensor::fromInt8({2, 6, 40}, a, QuantParams::perTensor(1.0f));
  const Tensor tbt = Tensor::fromInt8({25, 40}, bt, QuantParams::perTensor(1.0f));
  const Tensor c = matmul(ta, PackedWeights(tbt, true));
  EXPECT_EQ(c.shape(), (std::vector<int64_t>{2, 6, 25}));
  for (int i = 0; i < 12 * 25; ++i) ASSERT_EQ(c.i32()[i], want[static_cast<size_t>(i)]);
}

TEST(KernelsInt8Gemm, AccumulatorScalesAndMisuse) {
  QuantParams qw;
  qw.scale = {0.5f, 0.25f};
  qw.zero_point = {0};
  const Tensor w = Tensor::fromInt8({3, 2}, {1, 2, 3, 4, 5, 6}, qw);
  const PackedWeights pw(w);
  const Tensor a = Tensor::fromInt8({1, 3}, {1, 1, 1}, QuantParams::perTensor(0.1f));
  const Tensor c = matmul(a, pw);
  EXPECT_EQ(c.i32()[0], 9);
  EXPECT_EQ(c.i32()[1], 12);
  ASSERT_EQ(c.quant.scale.size(), 2u);
  EXPECT_FLOAT_EQ(c.quant.scale[1], 0.025f);
  EXPECT_THROW(matmul(Tensor::fromInt8({1, 4}, {1, 2, 3, 4}, {}), pw), Error);
  EXPECT_THROW(matmul(Tensor::fromFloats({1, 3}, {1, 2, 3}), pw), Error);  // float A, no prologue
  EXPECT_THROW(PackedWeights(Tensor::fromFloats({2, 2}, {1, 2, 3, 4})), Error);
  EXPECT_THROW(PackedWeights(Tensor({kMaxInt8GemmK + 1, 1}, DType::Int8)), Error);
  EXPECT_NE(bestInt8Isa(), Int8Isa::Auto);
}

}  // namespace
}  // namespace tessel::kernels
