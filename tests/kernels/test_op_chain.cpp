// Fusion changes speed, not results: random chains (random length, order and stages) run as one
// fused epilogue, block by block, must equal the same ops run one after another over whole
// tensors. Bit-exact for integer and float chains alike: both paths run the same row kernels on
// the same values, and row-wise stages always see whole rows.
#include <gtest/gtest.h>

#include <cstring>

#include "chain_fixture.h"
#include "kernels/ops/elementwise.h"
#include "kernels/gemm/float.h"
#include "kernels/gemm/int8.h"
#include "kernels/ops/normalization.h"
#include "kernels/numeric/quantize.h"
#include "reference.h"

namespace tessel::kernels {
namespace {

size_t bytesOf(const Tensor& t) {
  return static_cast<size_t>(t.numel()) * (t.dtype() == DType::Int8 ? 1 : 4);
}

const void* raw(const Tensor& t) {
  if (t.dtype() == DType::Int8) return t.i8();
  if (t.dtype() == DType::Int32) return t.i32();
  return t.f32();
}

Tensor runUnfused(Tensor t, const testing::RandomChain& ch, SaturationStats& sat) {
  for (const auto& op : ch.unfused) {
    t = op(std::move(t));
    sat += t.saturation;
  }
  // A chain ending in roundTo(fp16/bf16) reports that format; the unfused steps kept FP32
  // storage of the same (already rounded) values.
  const DType want = ch.fused.outputDType(DType::FP32);
  if (t.dtype() == DType::FP32 && (want == DType::FP16 || want == DType::BF16))
    t = castTo(t, formatOf(want));
  return t;
}

void expectSame(const Tensor& fused, const Tensor& unfused, const SaturationStats& sat,
                const testing::RandomChain& ch) {
  ASSERT_EQ(fused.dtype(), unfused.dtype()) << ch.describe();
  ASSERT_EQ(fused.shape(), unfused.shape()) << ch.describe();
  ASSERT_EQ(std::memcmp(raw(fused), raw(unfused), bytesOf(fused)), 0) << ch.describe();
  EXPECT_EQ(fused.saturation.low, sat.low) << ch.describe();
  EXPECT_EQ(fused.saturation.high, sat.high) << ch.describe();
}

// Shapes that give several row and column blocks (and ragged last blocks) in every driver.
constexpr int64_t kM = 150, kN = 600, kK = 64;

TEST(KernelsOpChain, FusedEqualsUnfusedAfterInt8Gemm) {
  QuantParams qw;
  qw.scale = ref::randomFloats(kN, 0.005f, 0.01f, 3);
  const Tensor a = ref::int8Tensor({kM, kK}, 1, QuantParams::perTensor(1.0f / 64));
  const PackedWeights w(ref::int8Tensor({kK, kN}, 2, qw));
  const testing::ChainOperands ops(kM, kN, 9);
  const Tensor plain = matmul(a, w);
  std::mt19937 rng(1);
  for (int trial = 0; trial < 150; ++trial) {
    const testing::RandomChain ch = testing::randomChain(Domain::Int32, ops, rng);
    SaturationStats sat;
    const Tensor unfused = runUnfused(plain, ch, sat);
    expectSame(matmul(a, w, ch.fused), unfused, sat, ch);
  }
}

TEST(KernelsOpChain, FusedEqualsUnfusedAfterFloatGemm) {
  const Tensor a = ref::floatTensor({kM, kK}, -1.0f, 1.0f, 4);
  const FloatWeights w(ref::floatTensor({kK, kN}, -0.3f, 0.3f, 5));
  const testing::ChainOperands ops(kM, kN, 10);
  const Tensor plain = matmul(a, w);
  std::mt19937 rng(2);
  for (int trial = 0; trial < 100; ++trial) {  // 100: Eigen is slow in sanitizer builds
    const testing::RandomChain ch = testing::randomChain(Domain::Float, ops, rng);
    SaturationStats sat;
    const Tensor unfused = runUnfused(plain, ch, sat);
    expectSame(matmul(a, w, ch.fused), unfused, sat, ch);
  }
}

TEST(KernelsOpChain, StandaloneChainsOnInt8AndFloatTensors) {
  const testing::ChainOperands ops(kM, kN, 11);
  const Tensor x8 = ref::int8Tensor({kM, kN}, 6, QuantParams::perTensor(0.05f, 4));
  const Tensor xf = ref::floatTensor({3, 50, kN}, -3.0f, 3.0f, 7);  // rank 3: rows = 150
  std::mt19937 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    for (const Tensor* x : {&x8, &xf}) {
      const Domain d = x == &x8 ? Domain::Int8 : Domain::Float;
      const testing::RandomChain ch = testing::randomChain(d, ops, rng, x->quant);
      SaturationStats sat;
      const Tensor unfused = runUnfused(*x, ch, sat);
      expectSame(applyChain(ch.fused, *x), unfused, sat, ch);
    }
  }
}

// A prologue runs on A's rows before packing: layer norm + quantize fused into an INT8 GEMM's
// input equals doing them first.
TEST(KernelsOpChain, PrologueEqualsPrecomputedInput) {
  const Tensor x = ref::floatTensor({kM, kK}, -2.0f, 2.0f, 8);
  const Tensor g = ref::floatTensor({kK}, 0.5f, 1.5f, 9),
               b = ref::floatTensor({kK}, -0.1f, 0.1f, 10);
  const QuantParams qa = QuantParams::perTensor(0.03f, -3);
  const PackedWeights w(ref::int8Tensor({kK, kN}, 11, QuantParams::perTensor(0.01f)));
  OpChain pro(Domain::Float);
  pro.layerNorm({g.f32(), g.f32() + kK}, {b.f32(), b.f32() + kK}, 1e-5f).quantize(qa);
  const Tensor fused = matmul(x, w, {}, pro);
  const Tensor q = quantize(layerNorm(x, g, b, 1e-5f), qa);
  const Tensor unfused = matmul(q, w);
  ASSERT_EQ(std::memcmp(fused.i32(), unfused.i32(), bytesOf(fused)), 0);
  EXPECT_FLOAT_EQ(fused.quant.scale[0], 0.03f * 0.01f);
  EXPECT_EQ(fused.saturation.clipped(), q.saturation.clipped());
  // Float GEMM with a float prologue.
  const FloatWeights fw(ref::floatTensor({kK, 40}, -1.0f, 1.0f, 12));
  OpChain relu_pro(Domain::Float);
  relu_pro.relu();
  const Tensor ff = matmul(x, fw, {}, relu_pro);
  const Tensor fu = matmul(applyChain(relu_pro, x), fw);
  ASSERT_EQ(std::memcmp(ff.f32(), fu.f32(), bytesOf(ff)), 0);
}

TEST(KernelsOpChain, TypeErrorsAreCaughtWhenBuilding) {
  EXPECT_THROW(OpChain(Domain::Int32).bias({1.0f}), Error);  // needs dequantize first
  EXPECT_THROW(OpChain(Domain::Float).requantize(makeRequant({1.0f}, QuantParams::perTensor(1.0f))),
               Error);
  EXPECT_THROW(OpChain(Domain::Float).dequantize(QuantParams::perTensor(1.0f)), Error);
  EXPECT_THROW(OpChain(Domain::Int8).gelu(true), Error);
  EXPECT_THROW(OpChain().relu(), Error);  // the identity chain has no domain to build on
  OpChain a(Domain::Int32);
  a.dequantize(QuantParams::perTensor(1.0f));
  EXPECT_THROW(a.then(OpChain(Domain::Int32).relu()), Error);
  EXPECT_NO_THROW(a.then(OpChain(Domain::Float).relu()));
  EXPECT_EQ(a.size(), 2u);
  EXPECT_FALSE(a.needsWholeRows());
  a.softmax();
  EXPECT_TRUE(a.needsWholeRows());
}

TEST(KernelsOpChain, ShapeErrorsAreCaughtWhenRunning) {
  const Tensor x = ref::floatTensor({4, 8}, -1.0f, 1.0f, 13);
  EXPECT_THROW(applyChain(OpChain(Domain::Float).bias({1.0f, 2.0f}), x), Error);
  const Tensor small = ref::floatTensor({2, 8}, -1.0f, 1.0f, 14);
  EXPECT_THROW(applyChain(OpChain(Domain::Float).add(small), x), Error);
  EXPECT_THROW(applyChain(OpChain(Domain::Int32).relu(), x), Error);
}

}  // namespace
}  // namespace tessel::kernels
