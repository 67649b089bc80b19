#include "kernels/numeric/portable_math.h"
#include "kernels/ops/broadcast.h"

#include <cmath>
#include <functional>

#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

std::string shapeStr(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

void requireFloat(const Tensor& t, const std::string& fn) {
  if (!t.isFloat()) throw Error("elementwise " + fn + ": needs float operands");
}

// Calls f(out_index, offsets...) over the broadcast output: an odometer over all but the last
// axis, the last axis a strided inner loop.
template <size_t N, class F>
void forBroadcast(const std::vector<int64_t>& out, const std::vector<int64_t> (&st)[N], F&& f) {
  const size_t rank = out.size();
  const int64_t inner = rank ? out.back() : 1;
  int64_t total = 1;
  for (int64_t d : out) total *= d;
  if (total == 0) return;
  std::vector<int64_t> idx(rank, 0);
  int64_t base[N] = {};
  for (int64_t o = 0; o < total; o += inner) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t off[N];
      for (size_t k = 0; k < N; ++k) off[k] = base[k] + (rank ? i * st[k][rank - 1] : 0);
      f(o + i, off);
    }
    for (size_t ax = rank > 0 ? rank - 1 : 0; ax-- > 0;) {  // advance the outer odometer
      ++idx[ax];
      for (size_t k = 0; k < N; ++k) base[k] += st[k][ax];
      if (idx[ax] < out[ax]) break;
      for (size_t k = 0; k < N; ++k) base[k] -= st[k][ax] * idx[ax];
      idx[ax] = 0;
    }
  }
}

using Binary = std::function<float(float, float)>;

Binary binaryFn(const std::string& fn) {
  if (fn == "add") return [](float a, float b) { return a + b; };
  if (fn == "mul") return [](float a, float b) { return a * b; };
  if (fn == "sub") return [](float a, float b) { return a - b; };
  if (fn == "div") return [](float a, float b) { return a / b; };
  if (fn == "pow") return [](float a, float b) { return static_cast<float>(portable::pow(a, b)); };
  if (fn == "max") return [](float a, float b) { return a > b ? a : b; };
  if (fn == "min") return [](float a, float b) { return a < b ? a : b; };
  if (fn == "equal") return [](float a, float b) { return a == b ? 1.0f : 0.0f; };
  if (fn == "less") return [](float a, float b) { return a < b ? 1.0f : 0.0f; };
  if (fn == "greater") return [](float a, float b) { return a > b ? 1.0f : 0.0f; };
  if (fn == "and") return [](float a, float b) { return a != 0.0f && b != 0.0f ? 1.0f : 0.0f; };
  if (fn == "or") return [](float a, float b) { return a != 0.0f || b != 0.0f ? 1.0f : 0.0f; };
  return nullptr;
}

using Unary = std::function<float(float)>;

Unary unaryFn(const std::string& fn, float alpha, float beta) {
  if (fn == "sqrt") return [](float x) { return std::sqrt(x); };
  if (fn == "exp") return [](float x) { return static_cast<float>(portable::exp(x)); };
  if (fn == "log") return [](float x) { return static_cast<float>(portable::log(x)); };
  if (fn == "erf") return [](float x) { return static_cast<float>(portable::erf(x)); };
  if (fn == "tanh") return [](float x) { return static_cast<float>(portable::tanh(x)); };
  if (fn == "neg") return [](float x) { return -x; };
  if (fn == "abs") return [](float x) { return std::fabs(x); };
  if (fn == "reciprocal") return [](float x) { return 1.0f / x; };
  if (fn == "cast") return [](float x) { return x; };
  if (fn == "scale") return [=](float x) { return x * alpha; };
  if (fn == "not") return [](float x) { return x == 0.0f ? 1.0f : 0.0f; };
  if (fn == "clip") return [=](float x) { return std::fmin(std::fmax(x, alpha), beta); };
  if (fn == "hardsigmoid")
    return [=](float x) { return std::fmin(std::fmax(alpha * x + beta, 0.0f), 1.0f); };
  if (fn == "leakyrelu") return [=](float x) { return x >= 0.0f ? x : alpha * x; };
  return nullptr;
}

}  // namespace

std::vector<int64_t> broadcastShape(const std::vector<std::vector<int64_t>>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[rank - s.size() + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o != 1) throw Error("broadcast: shape " + shapeStr(s) + " does not broadcast");
      o = s[i];
    }
  return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& shape,
                                      const std::vector<int64_t>& out) {
  std::vector<int64_t> st(out.size(), 0);
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    const size_t o = out.size() - shape.size() + i;
    st[o] = shape[i] == 1 ? 0 : step;
    step *= shape[i];
  }
  return st;
}

bool isBinaryFn(const std::string& fn) { return binaryFn(fn) != nullptr; }
bool isUnaryFn(const std::string& fn) {
  return unaryFn(fn, 0, 0) != nullptr || fn == "sigmoid" || fn == "silu" || fn == "hardswish";
}

Tensor binaryOp(const std::string& fn, const Tensor& a, const Tensor& b) {
  const Binary f = binaryFn(fn);
  if (!f) throw Error("elementwise: unknown binary function '" + fn + "'");
  requireFloat(a, fn);
  requireFloat(b, fn);
  const std::vector<int64_t> shape = broadcastShape({a.shape(), b.shape()});
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  const std::vector<int64_t> st[2] = {broadcastStrides(a.shape(), shape),
                                      broadcastStrides(b.shape(), shape)};
  const float *pa = a.f32(), *pb = b.f32();
  float* po = out.f32();
  forBroadcast(shape, st,
               [&](int64_t o, const int64_t* off) { po[o] = f(pa[off[0]], pb[off[1]]); });
  return out;
}

Tensor whereOp(const Tensor& cond, const Tensor& x, const Tensor& y) {
  requireFloat(cond, "where");
  requireFloat(x, "where");
  requireFloat(y, "where");
  const std::vector<int64_t> shape = broadcastShape({cond.shape(), x.shape(), y.shape()});
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  const std::vector<int64_t> st[3] = {broadcastStrides(cond.shape(), shape),
                                      broadcastStrides(x.shape(), shape),
                                      broadcastStrides(y.shape(), shape)};
  const float *pc = cond.f32(), *px = x.f32(), *py = y.f32();
  float* po = out.f32();
  forBroadcast(shape, st, [&](int64_t o, const int64_t* off) {
    po[o] = pc[off[0]] != 0.0f ? px[off[1]] : py[off[2]];
  });
  return out;
}

Tensor unaryOp(const std::string& fn, const Tensor& x, float alpha, float beta) {
  requireFloat(x, fn);
  Tensor out = Tensor::fromFloats(x.shape(), std::vector<float>(x.f32(), x.f32() + x.numel()));
  float* v = out.f32();
  if (fn == "sigmoid") return detail::sigmoidRow(v, out.numel()), out;
  if (fn == "silu") return detail::siluRow(v, out.numel()), out;
  if (fn == "hardswish") return detail::hardSwishRow(v, out.numel()), out;
  const Unary f = unaryFn(fn, alpha, beta);
  if (!f) throw Error("elementwise: unknown function '" + fn + "'");
  for (int64_t i = 0; i < out.numel(); ++i) v[i] = f(v[i]);
  return out;
}

}  // namespace tessel::kernels
