// Kernel benchmarks (docs/kernels.md records the figures):
//   - INT8 GEMM (each available micro-kernel) vs Eigen's FP32 GEMM at GPT-2 small shapes;
//   - fused vs unfused GEMM + bias + GELU + quantize, INT8 and FP32;
//   - rounding to the narrow formats (FP8 E4M3, FP4 E2M1) and to MXFP4 blocks, per element.
// GOP/s counts 2 * M * N * K operations per GEMM. Single-threaded.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <random>
#include <vector>

#include "kernels/ops/elementwise.h"
#include "kernels/gemm/float.h"
#include "kernels/gemm/int8.h"
#include "kernels/chain/op_chain.h"
#include "kernels/numeric/mx_block.h"
#include "kernels/numeric/narrow_format.h"
#include "kernels/numeric/quantize.h"

namespace tk = tessel::kernels;

namespace {

// GPT-2 small at sequence 512: QKV projection, FFN up, FFN down.
const int64_t kShapes[][3] = {{512, 768, 2304}, {512, 768, 3072}, {512, 3072, 768}};

void setGops(benchmark::State& st, int64_t m, int64_t k, int64_t n) {
  st.counters["GOP/s"] = benchmark::Counter(2.0 * static_cast<double>(m * k * n) / 1e9,
                                            benchmark::Counter::kIsIterationInvariantRate);
  st.SetLabel(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n));
}

tk::Tensor randomFloat(std::vector<int64_t> shape, float amp, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-amp, amp);
  std::vector<float> v(static_cast<size_t>(tk::numelOf(shape)));
  for (float& x : v) x = d(rng);
  return tk::Tensor::fromFloats(shape, std::move(v));
}

tk::Tensor randomInt8(std::vector<int64_t> shape, float scale, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(static_cast<size_t>(tk::numelOf(shape)));
  for (int8_t& x : v) x = static_cast<int8_t>(d(rng));
  return tk::Tensor::fromInt8(shape, std::move(v), tk::QuantParams::perTensor(scale));
}

void BM_EigenFp32Gemm(benchmark::State& st) {
  const auto* s = kShapes[st.range(0)];
  using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMat a = RowMat::Random(s[0], s[1]), b = RowMat::Random(s[1], s[2]);
  RowMat c(s[0], s[2]);
  for (auto _ : st) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  setGops(st, s[0], s[1], s[2]);
}

void BM_Int8Gemm(benchmark::State& st) {
  const auto* s = kShapes[st.range(0)];
  const auto isa = static_cast<tk::Int8Isa>(st.range(1));
  if (!tk::isAvailable(isa)) {
    st.SkipWithError("ISA not available on this CPU");
    return;
  }
  const tk::Tensor a = randomInt8({s[0], s[1]}, 0.02f, 1);
  const tk::PackedWeights w(randomInt8({s[1], s[2]}, 0.01f, 2), false, isa);
  for (auto _ : st) benchmark::DoNotOptimize(tk::matmul(a, w).i32());
  setGops(st, s[0], s[1], s[2]);
  st.SetLabel(std::string(tk::nameOf(isa == tk::Int8Isa::Auto ? tk::bestInt8Isa() : isa)));
}

void BM_Fp32GemmKernel(benchmark::State& st) {
  const auto* s = kShapes[st.range(0)];
  const tk::Tensor a = randomFloat({s[0], s[1]}, 1.0f, 1);
  const tk::FloatWeights w(randomFloat({s[1], s[2]}, 0.05f, 2));
  for (auto _ : st) benchmark::DoNotOptimize(tk::matmul(a, w).f32());
  setGops(st, s[0], s[1], s[2]);
}

// GEMM + bias + GELU (tanh) + quantize to INT8, the FFN-up group of GPT-2.
struct FfnUp {
  int64_t m, k, n;
  tk::Tensor a8, a32, bias;
  tk::PackedWeights w8;
  tk::FloatWeights w32;
  tk::QuantParams acc_q, out_q;
  explicit FfnUp(const int64_t* s)
      : m(s[0]),
        k(s[1]),
        n(s[2]),
        a8(randomInt8({s[0], s[1]}, 0.02f, 1)),
        a32(randomFloat({s[0], s[1]}, 1.0f, 1)),
        bias(randomFloat({s[2]}, 0.1f, 3)),
        w8(randomInt8({s[1], s[2]}, 0.002f, 2)),
        w32(randomFloat({s[1], s[2]}, 0.05f, 2)),
        acc_q(w8.accumulatorQuant(0.02f)),
        out_q(tk::QuantParams::perTensor(0.05f)) {}
  std::vector<float> biasVec() const { return {bias.f32(), bias.f32() + bias.numel()}; }
};

void BM_FusedInt8FfnUp(benchmark::State& st) {
  const FfnUp f(kShapes[st.range(0)]);
  tk::OpChain chain(tk::Domain::Int32);
  chain.dequantize(f.acc_q).bias(f.biasVec()).gelu(true).quantize(f.out_q);
  for (auto _ : st) benchmark::DoNotOptimize(tk::matmul(f.a8, f.w8, chain).i8());
  setGops(st, f.m, f.k, f.n);
}

void BM_UnfusedInt8FfnUp(benchmark::State& st) {
  const FfnUp f(kShapes[st.range(0)]);
  for (auto _ : st) {
    tk::Tensor acc = tk::matmul(f.a8, f.w8);
    acc.quant = f.acc_q;
    const tk::Tensor y = tk::gelu(tk::biasAdd(tk::dequantize(acc), f.bias), true);
    benchmark::DoNotOptimize(tk::quantize(y, f.out_q).i8());
  }
  setGops(st, f.m, f.k, f.n);
}

void BM_FusedFp32FfnUp(benchmark::State& st) {
  const FfnUp f(kShapes[st.range(0)]);
  tk::OpChain chain(tk::Domain::Float);
  chain.bias(f.biasVec()).gelu(true).quantize(f.out_q);
  for (auto _ : st) benchmark::DoNotOptimize(tk::matmul(f.a32, f.w32, chain).i8());
  setGops(st, f.m, f.k, f.n);
}

void BM_UnfusedFp32FfnUp(benchmark::State& st) {
  const FfnUp f(kShapes[st.range(0)]);
  for (auto _ : st) {
    const tk::Tensor y = tk::gelu(tk::biasAdd(tk::matmul(f.a32, f.w32), f.bias), true);
    benchmark::DoNotOptimize(tk::quantize(y, f.out_q).i8());
  }
  setGops(st, f.m, f.k, f.n);
}

void shapes(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < 3; ++i) b->Arg(i);
}

void shapesAndIsas(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < 3; ++i)
    for (auto isa : {tk::Int8Isa::Avx512Vnni, tk::Int8Isa::Avx2, tk::Int8Isa::Portable})
      b->Args({i, static_cast<int64_t>(isa)});
}

}  // namespace

BENCHMARK(BM_EigenFp32Gemm)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fp32GemmKernel)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Int8Gemm)->Apply(shapesAndIsas)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FusedInt8FfnUp)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnfusedInt8FfnUp)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FusedFp32FfnUp)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnfusedFp32FfnUp)->Apply(shapes)->Unit(benchmark::kMillisecond);
// One million normally distributed values rounded in place (the executor's emulation of a
// format); items/s counts elements.
std::vector<float> gaussianValues() {
  std::mt19937 rng(7);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(1 << 20);
  for (float& x : v) x = d(rng);
  return v;
}

void BM_RoundNarrow(benchmark::State& st) {
  const std::vector<float> src = gaussianValues();
  std::vector<float> x = src;
  const auto f = static_cast<tk::NarrowFloat>(st.range(0));
  for (auto _ : st) {
    x = src;
    tk::roundInPlace(x.data(), static_cast<int64_t>(x.size()), f);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(src.size()));
}

void BM_RoundMxfp4(benchmark::State& st) {
  const std::vector<float> src = gaussianValues();
  std::vector<float> x = src;
  for (auto _ : st) {
    x = src;
    tk::roundRowMx(x.data(), static_cast<int64_t>(x.size()), tk::MxElement::FP4_E2M1);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(src.size()));
}

BENCHMARK(BM_RoundNarrow)
    ->Arg(static_cast<int>(tk::NarrowFloat::E4M3))
    ->Arg(static_cast<int>(tk::NarrowFloat::E2M1))
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RoundMxfp4)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
