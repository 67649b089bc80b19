#include "kernels/ops/conv.h"

#include <algorithm>
#include <string>

#include "kernels/gemm/driver.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

struct Geometry {
  int64_t n, h, w, c, p, q;
};

Geometry geometry(const Tensor& x, const ConvParams& cp, int64_t k_gemm) {
  if (x.rank() != 4) throw Error("conv2d: input must be NHWC");
  if (cp.r <= 0 || cp.s <= 0 || cp.stride <= 0 || cp.pad < 0)
    throw Error("conv2d: kernel size and stride must be positive, pad non-negative");
  Geometry g{x.dim(0), x.dim(1), x.dim(2), x.dim(3), 0, 0};
  if (cp.r * cp.s * g.c != k_gemm)
    throw Error("conv2d: weights have K = " + std::to_string(k_gemm) +
                ", expected R*S*C = " + std::to_string(cp.r * cp.s * g.c));
  g.p = (g.h + 2 * cp.pad - cp.r) / cp.stride + 1;
  g.q = (g.w + 2 * cp.pad - cp.s) / cp.stride + 1;
  if (g.p <= 0 || g.q <= 0) throw Error("conv2d: kernel larger than the padded input");
  return g;
}

// Rows of the patch matrix: row (n, p, q), column (r, s, c); padding gets `pad_value`.
template <class T>
void im2colRows(const T* x, const Geometry& g, const ConvParams& cp, T pad_value, int64_t r0,
                int64_t rows, T* dst) {
  const int64_t kk = cp.r * cp.s * g.c;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t row = r0 + i, n = row / (g.p * g.q), pq = row % (g.p * g.q);
    const int64_t p = pq / g.q, q = pq % g.q;
    T* out = dst + i * kk;
    for (int64_t r = 0; r < cp.r; ++r)
      for (int64_t s = 0; s < cp.s; ++s, out += g.c) {
        const int64_t ih = p * cp.stride - cp.pad + r, iw = q * cp.stride - cp.pad + s;
        if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w)
          std::fill(out, out + g.c, pad_value);
        else
          std::copy_n(x + ((n * g.h + ih) * g.w + iw) * g.c, g.c, out);
      }
  }
}

template <class T>
detail::ASource patches(const Tensor& x, const T* data, const Geometry& g, const ConvParams& cp,
                        T pad_value) {
  detail::ASource src;
  src.domain = detail::domainOf(x.dtype());
  src.m = g.n * g.p * g.q;
  src.k = cp.r * cp.s * g.c;
  src.zero_point = x.quant.zero_point.at(0);
  if (cp.r == 1 && cp.s == 1 && cp.stride == 1 && cp.pad == 0) {  // 1x1: x is the matrix
    src.data = data;
    src.ld = g.c;
    return src;
  }
  src.fill = [data, g, cp, pad_value](int64_t r0, int64_t rows, void* dst) {
    im2colRows(data, g, cp, pad_value, r0, rows, static_cast<T*>(dst));
  };
  return src;
}

Tensor reshapedWeights(const Tensor& w) {
  if (w.rank() != 4) throw Error("conv weights must be [R, S, C, K]");
  Tensor m = w;
  m.reshape({w.dim(0) * w.dim(1) * w.dim(2), w.dim(3)});
  return m;
}

}  // namespace

FloatWeights convWeights(const Tensor& w, FloatGemmConfig cfg) {
  return FloatWeights(reshapedWeights(w), cfg);
}

PackedWeights packConvWeights(const Tensor& w, Int8Isa isa) {
  return PackedWeights(reshapedWeights(w), false, isa);
}

Tensor conv2d(const Tensor& x, const FloatWeights& w, const ConvParams& cp,
              const OpChain& epilogue) {
  const Geometry g = geometry(x, cp, w.k());
  const detail::ASource src = patches(x, x.f32(), g, cp, 0.0f);
  Tensor out = Tensor::uninitialized({g.n, g.p, g.q, w.n()},
                                     epilogue.outputDType(dtypeOf(w.config().accumulate)));
  out.quant = epilogue.outputQuant(out.quant);
  detail::runFloatGemm(src, {w.data(), w.k(), w.n(), w.n(), false}, w.config(), {}, epilogue,
                       {detail::dataOf(out), w.n()}, out.saturation);
  return out;
}

Tensor conv2d(const Tensor& x, const PackedWeights& w, const ConvParams& cp,
              const OpChain& epilogue) {
  const Geometry g = geometry(x, cp, w.k());
  if (x.quant.perChannel()) throw Error("conv2d: int8 input needs a per-tensor scale");
  const auto pad = static_cast<int8_t>(x.quant.zero_point.at(0));
  const detail::ASource src = patches(x, x.i8(), g, cp, pad);
  Tensor out = Tensor::uninitialized({g.n, g.p, g.q, w.n()}, epilogue.outputDType(DType::Int32));
  out.quant = epilogue.outputQuant(w.accumulatorQuant(x.quant.scale.at(0)));
  detail::runInt8Gemm(src, w, {}, epilogue, {detail::dataOf(out), w.n()}, out.saturation);
  return out;
}

}  // namespace tessel::kernels
