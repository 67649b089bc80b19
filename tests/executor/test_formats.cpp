// The executor in narrow and block-scaled formats: weight-only GEMMs against a double reference
// built from weights quantized here from the formats' formulas, FP8 ops' outputs, the error
// ordering the formats' precisions imply, and clear refusals of what has no kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "kernels/numeric/float_format.h"
#include "kernels/numeric/narrow_format.h"
#include "kernels/validation/validate.h"
#include "ops_fixture.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using testing::Builder;
using testing::opsStore;

struct Gemm {
  models::Graph g;
  int x = -1, w = -1;
  int64_t m = 4, k = 256, n = 8;
  bool transposed = false;  // weight stored [N, K] (Hugging Face's layout), else [K, N]
};

Gemm smallGemm(bool transposed, int64_t m = 4, int64_t k = 256, int64_t n = 8) {
  Gemm s;
  s.m = m, s.k = k, s.n = n, s.transposed = transposed;
  s.g.name = transposed ? "gemm_t" : "gemm";
  Builder b{s.g, DType::FP32};
  s.x = b.input("x", {m, k}, DType::FP32);
  s.w =
      b.weight("proj.weight", transposed ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
  testing::emitOp(b, "proj", OpKind::MatMul, {s.x, s.w}, {m, n}, [&](models::Op& op) {
    op.transpose_b = transposed;
    op.gemm = {1, m, n, k};
    op.macs = m * n * k;
  });
  return s;
}

models::PrecisionPlan plan(DType dtype, std::optional<DType> weights = std::nullopt,
                           models::Dequantize how = models::Dequantize::Datapath) {
  models::PrecisionPlan p;
  p.default_dtype = dtype;
  p.default_weights = weights;
  p.default_dequantize = how;
  return p;
}

Tensor runPlan(const models::Graph& g, const models::PrecisionPlan& p, bool fuse = false) {
  const models::Graph lowered = models::applyPrecision(g, p);
  ExecutorOptions o;
  o.fuse = fuse;
  const RunResult r = Executor(lowered, opsStore(), o).run();
  return *r.outputs.at(lowered.tensor(lowered.ops().back().outputs.at(0)).name);
}

// W[k][j] for output column j, whatever the layout.
double& at(std::vector<double>& w, const Gemm& s, int64_t kk, int64_t j) {
  return w[static_cast<size_t>(s.transposed ? j * s.k + kk : kk * s.n + j)];
}

// The weights with each output column's K values quantized group by group by `group`.
std::vector<double> quantizedAlongK(const Gemm& s, int64_t size,
                                    const std::function<void(std::vector<double>&)>& group) {
  const Tensor& raw = *opsStore().raw(s.g, s.w);
  std::vector<double> w(raw.f32(), raw.f32() + raw.numel());
  for (int64_t j = 0; j < s.n; ++j)
    for (int64_t k0 = 0; k0 < s.k; k0 += size) {
      std::vector<double> v;
      for (int64_t kk = k0; kk < std::min(s.k, k0 + size); ++kk) v.push_back(at(w, s, kk, j));
      group(v);
      for (int64_t kk = k0; kk < std::min(s.k, k0 + size); ++kk) at(w, s, kk, j) = v[kk - k0];
    }
  return w;
}

double amaxOf(const std::vector<double>& v) {
  double a = 0;
  for (double x : v) a = std::max(a, std::fabs(x));
  return a;
}

double bf16(double x) { return roundTo(static_cast<float>(x), FloatFormat::BF16); }

// int4 in groups of 128 with an fp16 scale: s = fp16(amax / 7), q = rne(w / s) in [-8, 7].
void int4Fp16Group(std::vector<double>& v) {
  const double s = roundTo(static_cast<float>(amaxOf(v) / 7.0), FloatFormat::FP16);
  for (double& x : v) x = std::clamp(std::nearbyint(x / s), -8.0, 7.0) * s;
}

// MXFP4: scale 2^(floor(log2 amax) - 2), elements E2M1 (nearest, ties to even, max 6).
void mxfp4Group(std::vector<double>& v) {
  const double scale = std::ldexp(1.0, std::ilogb(amaxOf(v)) - 2);
  const double kValues[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (double& x : v) {
    const double a = std::min(std::fabs(x / scale), 6.0);
    int best = 0;
    for (int i = 1; i < 8; ++i) {
      const double d = std::fabs(a - kValues[i]), db = std::fabs(a - kValues[best]);
      if (d < db || (d == db && i % 2 == 0)) best = i;
    }
    x = std::copysign(kValues[best], x) * scale;
  }
}

// The executor's bf16 weight-only GEMM against sum_k bf16(x) bf16(w_q) in double: the only
// differences allowed are the output's rounding to bf16 (half an ulp) and FP32 accumulation
// (K = 256 products: far below 1e-5 of sum |terms|). A block running the wrong way, a scale in
// the wrong format or an element rounded the wrong way errs by percents.
void expectWeightOnlyGemm(const Gemm& s, DType weights, const std::vector<double>& wq) {
  const Tensor y = runPlan(s.g, plan(DType::BF16, weights));
  ASSERT_EQ(y.dtype(), DType::BF16);
  const Tensor& x = *opsStore().raw(s.g, s.x);
  std::vector<double> wcopy = wq;
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j) {
      double ref = 0, mag = 0;
      for (int64_t kk = 0; kk < s.k; ++kk) {
        const double t = bf16(x.f32()[i * s.k + kk]) * bf16(at(wcopy, s, kk, j));
        ref += t;
        mag += std::fabs(t);
      }
      const double half_ulp = std::ldexp(1.0, std::ilogb(ref) - 8);
      EXPECT_LE(std::fabs(y.f32()[i * s.n + j] - ref), half_ulp + 1e-5 * mag)
          << nameOf(weights) << " row " << i << " col " << j;
    }
}

TEST(ExecutorFormats, WeightOnlyInt4GroupsMatchDoubleReference) {
  for (bool transposed : {false, true}) {
    const Gemm s = smallGemm(transposed);
    expectWeightOnlyGemm(s, *parseDType("int4_g128_fp16"), quantizedAlongK(s, 128, int4Fp16Group));
  }
}

TEST(ExecutorFormats, WeightOnlyMxfp4MatchesDoubleReference) {
  for (bool transposed : {false, true}) {
    const Gemm s = smallGemm(transposed);
    expectWeightOnlyGemm(s, DType::MXFP4, quantizedAlongK(s, 32, mxfp4Group));
  }
}

// Widening in the datapath or by a Dequantize op of its own reads the same quantized weights.
TEST(ExecutorFormats, DequantizeOpEqualsDatapath) {
  const Gemm s = smallGemm(false);
  const DType w = *parseDType("int4_g128_fp16");
  const Tensor a = runPlan(s.g, plan(DType::BF16, w));
  const Tensor b = runPlan(s.g, plan(DType::BF16, w, models::Dequantize::Op));
  ASSERT_EQ(a.numel(), b.numel());
  for (int64_t i = 0; i < a.numel(); ++i) EXPECT_EQ(a.f32()[i], b.f32()[i]) << i;
}

// Every tensor an FP8 op writes holds E4M3 values (saturated at 448), fused or not, and fusing
// changes no value.
TEST(ExecutorFormats, Fp8OutputsAreRepresentable) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {4, 64}, DType::FP32);
  const int h = models::detail::linear(b, "fc", x, 32, true);
  const int a = models::detail::unary(b, "act", OpKind::Gelu, h);
  models::detail::linear(b, "out", a, 16, true);
  const models::Graph lowered = models::applyPrecision(g, plan(DType::FP8_E4M3));
  std::vector<std::vector<float>> runs[2];
  for (bool fuse : {false, true}) {
    ExecutorOptions o;
    o.fuse = fuse;
    Executor(lowered, opsStore(), o).run([&](const models::Op& op, const auto& t) {
      ASSERT_EQ(t->dtype(), DType::FP8_E4M3) << op.name;
      for (int64_t i = 0; i < t->numel(); ++i) {
        const float v = t->f32()[i];
        EXPECT_EQ(v, roundTo(v, NarrowFloat::E4M3)) << op.name << " " << i;
        EXPECT_LE(std::fabs(v), 448.0f);
      }
      if (op.name == "out") runs[fuse].emplace_back(t->f32(), t->f32() + t->numel());
    });
  }
  EXPECT_EQ(runs[0], runs[1]);
}

// Output rel L2 of a [8, 256] x [256, 32] matmul in each format, against FP32.
double relError(const models::PrecisionPlan& p) {
  static const models::Graph g = smallGemm(false, 8, 256, 32).g;
  static const ReferenceRun ref = runReference(g, opsStore());
  return validate(ref, lowerGraph(ref.graph, p), opsStore(), {}).output.error.rel_l2;
}

// The ordering follows from each format's step relative to the values it holds: BF16 keeps 8
// significant bits (unit roundoff 2^-9), FP8 E4M3 keeps 4 (2^-4), 32x coarser; a symmetric
// per-channel int8 weight steps by amax/127, int4 by amax/7, 18x coarser. With 256-term dot
// products of Gaussian data those relative steps carry through to the output's rel L2.
TEST(ExecutorFormats, ErrorsOrderAsTheFormatsPrecision) {
  const double fp32 = relError(plan(DType::FP32)), bf = relError(plan(DType::BF16));
  const double fp8 = relError(plan(DType::FP8_E4M3));
  EXPECT_EQ(fp32, 0.0);
  EXPECT_LT(fp32, bf);
  EXPECT_LT(2.0 * bf, fp8);
  const double w8 = relError(plan(DType::BF16, DType::Int8));
  const double w4 = relError(plan(DType::BF16, DType::Int4));
  EXPECT_LT(2.0 * w8, w4);
  const double a8 = relError(plan(DType::Int8)), a4 = relError(plan(DType::Int4));
  EXPECT_LT(2.0 * a8, a4);  // whole ops in int4: 4-bit activations too
}

std::string refusal(const models::PrecisionPlan& p) {
  const models::Graph lowered = models::applyPrecision(smallGemm(false).g, p);
  try {
    Executor e(lowered, opsStore());
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ExecutorFormats, UnrunnableDtypesAreRefusedByName) {
  const std::string u4 = refusal(plan(DType::UInt4));
  EXPECT_NE(u4.find("'proj'"), std::string::npos) << u4;
  EXPECT_NE(u4.find("uint4"), std::string::npos) << u4;
  const std::string mixed = refusal(plan(DType::Int8, DType::MXFP4));
  EXPECT_NE(mixed.find("int8 kernel reading mxfp4 weights"), std::string::npos) << mixed;
  EXPECT_EQ(refusal(plan(DType::BF16, DType::UInt4)), "");  // uint4 weights run
  EXPECT_THROW(kernels::checkExecutable(plan(DType::Int8, DType::MXFP4)), ConfigError);
  EXPECT_NO_THROW(kernels::checkExecutable(plan(DType::BF16, *parseDType("nvfp4"))));
}

}  // namespace
}  // namespace tessel::kernels
