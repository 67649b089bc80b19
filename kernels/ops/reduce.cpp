#include "kernels/numeric/portable_math.h"
#include "kernels/ops/reduce.h"

#include <cmath>
#include <limits>

#include "util/error.h"

namespace tessel::kernels {

namespace {

double initial(const std::string& fn) {
  if (fn == "max") return -std::numeric_limits<double>::infinity();
  if (fn == "min") return std::numeric_limits<double>::infinity();
  if (fn == "prod") return 1.0;
  if (fn == "mean" || fn == "sum" || fn == "l2" || fn == "sumsquare") return 0.0;
  throw Error("reduce: unknown function '" + fn + "'");
}

double combine(const std::string& fn, double acc, double v) {
  if (fn == "max") return v > acc ? v : acc;
  if (fn == "min") return v < acc ? v : acc;
  if (fn == "prod") return acc * v;
  if (fn == "l2" || fn == "sumsquare") return acc + v * v;
  return acc + v;
}

}  // namespace

Tensor reduce(const Tensor& x, const std::string& fn, const std::vector<int>& axes, bool keepdims) {
  if (!x.isFloat()) throw Error("reduce: needs a float tensor");
  const size_t rank = x.shape().size();
  std::vector<bool> reduced(rank, axes.empty());
  for (int a : axes) {
    if (a < 0 || a >= static_cast<int>(rank)) throw Error("reduce: axis out of range");
    reduced[static_cast<size_t>(a)] = true;
  }
  std::vector<int64_t> kept(rank), out_st(rank, 0);  // output strides, 0 along reduced axes
  int64_t step = 1, count = 1;
  for (size_t i = rank; i-- > 0;) {
    kept[i] = reduced[i] ? 1 : x.dim(static_cast<int>(i));
    out_st[i] = reduced[i] ? 0 : step;
    step *= kept[i];
    if (reduced[i]) count *= x.dim(static_cast<int>(i));
  }
  std::vector<double> acc(static_cast<size_t>(step), initial(fn));
  std::vector<int64_t> idx(rank, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    double& a = acc[static_cast<size_t>(off)];
    a = combine(fn, a, x.f32()[i]);
    for (size_t ax = rank; ax-- > 0;) {
      off += out_st[ax];
      if (++idx[ax] < x.dim(static_cast<int>(ax))) break;
      off -= out_st[ax] * x.dim(static_cast<int>(ax));
      idx[ax] = 0;
    }
  }
  std::vector<int64_t> shape;
  for (size_t i = 0; i < rank; ++i)
    if (!reduced[i] || keepdims) shape.push_back(kept[i]);
  std::vector<float> v(acc.size());
  for (size_t i = 0; i < v.size(); ++i) {
    double r = acc[i];
    if (fn == "mean") r /= static_cast<double>(count);
    if (fn == "l2") r = std::sqrt(r);
    v[i] = static_cast<float>(r);
  }
  return Tensor::fromFloats(shape, std::move(v));
}

Tensor rope(const Tensor& x, const models::RopeAttrs& a) {
  if (!x.isFloat() || x.rank() != 3) throw Error("rope: needs a float [B, S, *] tensor");
  const int64_t b = x.dim(0), s = x.dim(1), w = x.dim(2), half = a.rotary_dim / 2;
  if (a.rotary_dim % 2 || a.rotary_dim > a.head_dim || a.col_offset + a.heads * a.head_dim > w)
    throw Error("rope: rotary_dim or head columns do not fit the tensor");
  Tensor out = Tensor::fromFloats(x.shape(), std::vector<float>(x.f32(), x.f32() + x.numel()));
  // Angles in double, then cos/sin rounded once: the rotation itself is two FP32 products.
  std::vector<float> cs(static_cast<size_t>(s * half)), sn(cs.size());
  for (int64_t p = 0; p < s; ++p)
    for (int64_t i = 0; i < half; ++i) {
      const double inv =
          portable::pow(a.theta, -2.0 * static_cast<double>(i) / static_cast<double>(a.rotary_dim));
      const double ang = static_cast<double>(a.position_offset + p) * inv;
      cs[static_cast<size_t>(p * half + i)] = static_cast<float>(portable::cos(ang));
      sn[static_cast<size_t>(p * half + i)] = static_cast<float>(portable::sin(ang));
    }
  for (int64_t n = 0; n < b; ++n)
    for (int64_t p = 0; p < s; ++p)
      for (int64_t h = 0; h < a.heads; ++h) {
        float* v = out.f32() + (n * s + p) * w + a.col_offset + h * a.head_dim;
        for (int64_t i = 0; i < half; ++i) {
          const int64_t i0 = a.interleaved ? 2 * i : i, i1 = a.interleaved ? 2 * i + 1 : i + half;
          const float c = cs[static_cast<size_t>(p * half + i)];
          const float si = sn[static_cast<size_t>(p * half + i)];
          const float x0 = v[i0], x1 = v[i1];
          v[i0] = x0 * c - x1 * si;
          v[i1] = x1 * c + x0 * si;
        }
      }
  return out;
}

}  // namespace tessel::kernels
