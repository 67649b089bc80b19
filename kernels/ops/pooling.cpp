#include "kernels/ops/pooling.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/numeric/float_format.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

struct PoolGeom {
  int64_t n, h, w, c, p, q;
};

PoolGeom poolGeom(const Tensor& x, const PoolParams& pp) {
  if (x.rank() != 4) throw Error("pooling: input must be NHWC");
  if (pp.window <= 0 || pp.stride <= 0 || pp.pad < 0 || pp.pad >= pp.window)
    throw Error("pooling: window and stride must be positive, 0 <= pad < window");
  PoolGeom g{x.dim(0), x.dim(1), x.dim(2), x.dim(3), 0, 0};
  g.p = (g.h + 2 * pp.pad - pp.window) / pp.stride + 1;
  g.q = (g.w + 2 * pp.pad - pp.window) / pp.stride + 1;
  if (g.p <= 0 || g.q <= 0) throw Error("pooling: window larger than the padded input");
  return g;
}

// Calls f(acc_row, in_row) for each in-bounds window position; returns how many there were.
template <class F>
int64_t forWindow(const PoolGeom& g, const PoolParams& pp, int64_t n, int64_t p, int64_t q, F&& f) {
  int64_t count = 0;
  for (int64_t r = 0; r < pp.window; ++r)
    for (int64_t s = 0; s < pp.window; ++s) {
      const int64_t ih = p * pp.stride - pp.pad + r, iw = q * pp.stride - pp.pad + s;
      if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;
      f(((n * g.h + ih) * g.w + iw) * g.c);
      ++count;
    }
  return count;
}

template <class T>
void maxPoolImpl(const T* x, T* out, const PoolGeom& g, const PoolParams& pp) {
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t p = 0; p < g.p; ++p)
      for (int64_t q = 0; q < g.q; ++q) {
        T* o = out + ((n * g.p + p) * g.q + q) * g.c;
        std::fill(o, o + g.c, std::numeric_limits<T>::lowest());
        forWindow(g, pp, n, p, q, [&](int64_t off) {
          for (int64_t c = 0; c < g.c; ++c) o[c] = std::max(o[c], x[off + c]);
        });
      }
}

}  // namespace

Tensor maxPool(const Tensor& x, const PoolParams& pp) {
  const PoolGeom g = poolGeom(x, pp);
  Tensor out = Tensor::uninitialized({g.n, g.p, g.q, g.c}, x.dtype());
  out.quant = x.quant;
  if (x.dtype() == DType::Int8)
    maxPoolImpl(x.i8(), out.i8(), g, pp);
  else if (x.isFloat())
    maxPoolImpl(x.f32(), out.f32(), g, pp);
  else
    throw Error("maxPool: needs a float or int8 tensor");
  return out;
}

Tensor avgPool(const Tensor& x, const PoolParams& pp) {
  const PoolGeom g = poolGeom(x, pp);
  if (!x.isFloat()) throw Error("avgPool: needs a float tensor");
  Tensor out({g.n, g.p, g.q, g.c}, x.dtype());
  const float* in = x.f32();
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t p = 0; p < g.p; ++p)
      for (int64_t q = 0; q < g.q; ++q) {
        float* o = out.f32() + ((n * g.p + p) * g.q + q) * g.c;
        const int64_t count = forWindow(g, pp, n, p, q, [&](int64_t off) {
          for (int64_t c = 0; c < g.c; ++c) o[c] += in[off + c];
        });
        const float inv = 1.0f / static_cast<float>(pp.count_pad ? pp.window * pp.window : count);
        for (int64_t c = 0; c < g.c; ++c) o[c] *= inv;
      }
  roundInPlace(out.f32(), out.numel(), formatOf(out.dtype()));
  return out;
}

Tensor globalAvgPool(const Tensor& x) {
  if (x.rank() != 4 || !x.isFloat()) throw Error("globalAvgPool: needs a float NHWC tensor");
  const int64_t n = x.dim(0), hw = x.dim(1) * x.dim(2), c = x.dim(3);
  Tensor out({n, c}, x.dtype());
  for (int64_t b = 0; b < n; ++b) {
    float* o = out.f32() + b * c;
    for (int64_t i = 0; i < hw; ++i) {
      const float* row = x.f32() + (b * hw + i) * c;
      for (int64_t k = 0; k < c; ++k) o[k] += row[k];
    }
    for (int64_t k = 0; k < c; ++k) o[k] /= static_cast<float>(hw);
  }
  roundInPlace(out.f32(), out.numel(), formatOf(out.dtype()));
  return out;
}

Tensor embedding(const Tensor& ids, const Tensor& table) {
  if (ids.dtype() != DType::Int32) throw Error("embedding: ids must be int32");
  if (table.rank() != 2) throw Error("embedding: table must be [V, D]");
  const int64_t v = table.dim(0), d = table.dim(1);
  std::vector<int64_t> shape = ids.shape();
  shape.push_back(d);
  Tensor out = Tensor::uninitialized(shape, table.dtype());
  out.quant = table.quant;
  const bool is8 = table.dtype() == DType::Int8;
  if (!is8 && !table.isFloat()) throw Error("embedding: table must be float or int8");
  const size_t row_bytes = static_cast<size_t>(d) * (is8 ? 1 : sizeof(float));
  for (int64_t i = 0; i < ids.numel(); ++i) {
    const int32_t id = ids.i32()[i];
    if (id < 0 || id >= v)
      throw Error("embedding: id " + std::to_string(id) + " outside [0, " + std::to_string(v) +
                  ")");
    if (is8)
      std::memcpy(out.i8() + i * d, table.i8() + id * d, row_bytes);
    else
      std::memcpy(out.f32() + i * d, table.f32() + id * d, row_bytes);
  }
  return out;
}

}  // namespace tessel::kernels
