#include "kernels/ops/tensor_gemm.h"

#include <algorithm>
#include <string>

#include "kernels/ops/broadcast.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

// One matrix product c[M, N] = a[M, K] * b (b[K, N] or b[N, K]); i-k-j order vectorizes.
void gemmOne(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool tb) {
  std::fill(c, c + m * n, 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t e = 0; e < k; ++e) {
      const float av = a[i * k + e];
      if (tb) {
        for (int64_t j = 0; j < n; ++j) c[i * n + j] += av * b[j * k + e];
      } else {
        for (int64_t j = 0; j < n; ++j) c[i * n + j] += av * b[e * n + j];
      }
    }
}

}  // namespace

Tensor batchedMatmul(const Tensor& a, const Tensor& b, bool tb) {
  if (a.rank() < 2 || b.rank() < 2 || !a.isFloat() || !b.isFloat())
    throw Error("batched matmul: needs float operands of rank >= 2");
  const int64_t m = a.dim(-2), k = a.dim(-1), n = tb ? b.dim(-2) : b.dim(-1);
  if ((tb ? b.dim(-1) : b.dim(-2)) != k) throw Error("batched matmul: inner dims differ");
  const std::vector<int64_t> ab(a.shape().begin(), a.shape().end() - 2);
  const std::vector<int64_t> bb(b.shape().begin(), b.shape().end() - 2);
  const std::vector<int64_t> batch = broadcastShape({ab, bb});
  const std::vector<int64_t> sa = broadcastStrides(ab, batch), sb = broadcastStrides(bb, batch);
  std::vector<int64_t> shape = batch;
  shape.push_back(m);
  shape.push_back(n);
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  int64_t count = 1;
  for (int64_t d : batch) count *= d;
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, oa = 0, ob = 0;  // matrix index of each operand
    for (size_t ax = batch.size(); ax-- > 0;) {
      const int64_t idx = rest % batch[ax];
      rest /= batch[ax];
      oa += idx * sa[ax];
      ob += idx * sb[ax];
    }
    gemmOne(a.f32() + oa * m * k, b.f32() + ob * k * n, out.f32() + i * m * n, m, n, k, tb);
  }
  return out;
}

Tensor convDirect(const Tensor& x, const Tensor& w, const Tensor* bias, const models::ConvShape& c,
                  bool cf) {
  if (x.rank() != 4 || w.rank() != 4 || !x.isFloat() || !w.isFloat())
    throw Error("conv: needs float 4-d activations and weights");
  const int64_t n = x.dim(0), h = cf ? x.dim(2) : x.dim(1), wd = cf ? x.dim(3) : x.dim(2);
  const int64_t ch = cf ? x.dim(1) : x.dim(3), k = cf ? w.dim(0) : w.dim(3);
  const int64_t g = c.groups, cg = ch / g, kg = k / g, dil = c.dilation;
  if (g <= 0 || ch % g || k % g || (cf ? w.dim(1) : w.dim(2)) != cg)
    throw Error("conv: weights do not match the channels and groups");
  const int64_t p = (h + 2 * c.pad - (c.r - 1) * dil - 1) / c.stride + 1;
  const int64_t q = (wd + 2 * c.pad - (c.s - 1) * dil - 1) / c.stride + 1;
  Tensor out = cf ? Tensor({n, k, p, q}, DType::FP32) : Tensor({n, p, q, k}, DType::FP32);
  const float *xv = x.f32(), *wv = w.f32();
  auto xAt = [&](int64_t b, int64_t y, int64_t xx, int64_t cc) {
    return cf ? xv[((b * ch + cc) * h + y) * wd + xx] : xv[((b * h + y) * wd + xx) * ch + cc];
  };
  auto wAt = [&](int64_t kk, int64_t cc, int64_t r, int64_t s) {
    return cf ? wv[((kk * cg + cc) * c.r + r) * c.s + s] : wv[((r * c.s + s) * cg + cc) * k + kk];
  };
  for (int64_t b = 0; b < n; ++b)
    for (int64_t kk = 0; kk < k; ++kk) {
      const int64_t c0 = (kk / kg) * cg;  // the group's first input channel
      for (int64_t y = 0; y < p; ++y)
        for (int64_t xx = 0; xx < q; ++xx) {
          float acc = bias ? bias->f32()[kk] : 0.0f;
          for (int64_t r = 0; r < c.r; ++r)
            for (int64_t s = 0; s < c.s; ++s) {
              const int64_t iy = y * c.stride - c.pad + r * dil,
                            ix = xx * c.stride - c.pad + s * dil;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;  // zero padding
              for (int64_t cc = 0; cc < cg; ++cc)
                acc += xAt(b, iy, ix, c0 + cc) * wAt(kk, cc, r, s);
            }
          float& o = cf ? out.f32()[((b * k + kk) * p + y) * q + xx]
                        : out.f32()[((b * p + y) * q + xx) * k + kk];
          o = acc;
        }
    }
  return out;
}

}  // namespace tessel::kernels
