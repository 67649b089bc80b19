#include "kernels/ops/normalization.h"

#include <string>

#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

void requireFloat(const Tensor& x, const char* op) {
  if (!x.isFloat()) throw Error(std::string(op) + ": needs a float tensor");
}

void requireLength(const Tensor& v, int64_t n, const char* op) {
  if (!v.isFloat() || v.numel() != n)
    throw Error(std::string(op) + ": parameter needs " + std::to_string(n) + " float values");
}

// A copy of x to compute into: values and quant params, but no saturation history.
Tensor freshCopy(const Tensor& x) {
  Tensor t = x;
  t.saturation = {};
  return t;
}

}  // namespace

Tensor softmax(const Tensor& x) {
  requireFloat(x, "softmax");
  Tensor out = freshCopy(x);
  for (int64_t r = 0; r < x.rows(); ++r) detail::softmaxRow(out.f32() + r * x.cols(), x.cols());
  roundInPlace(out.f32(), out.numel(), formatOf(out.dtype()));
  return out;
}

Tensor layerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps) {
  requireFloat(x, "layerNorm");
  requireLength(gamma, x.cols(), "layerNorm");
  requireLength(beta, x.cols(), "layerNorm");
  Tensor out = freshCopy(x);
  for (int64_t r = 0; r < x.rows(); ++r)
    detail::layerNormRow(out.f32() + r * x.cols(), x.cols(), gamma.f32(), beta.f32(), eps);
  roundInPlace(out.f32(), out.numel(), formatOf(out.dtype()));
  return out;
}

Tensor rmsNorm(const Tensor& x, const Tensor& gamma, float eps) {
  requireFloat(x, "rmsNorm");
  requireLength(gamma, x.cols(), "rmsNorm");
  Tensor out = freshCopy(x);
  for (int64_t r = 0; r < x.rows(); ++r)
    detail::rmsNormRow(out.f32() + r * x.cols(), x.cols(), gamma.f32(), eps);
  roundInPlace(out.f32(), out.numel(), formatOf(out.dtype()));
  return out;
}

Tensor batchNorm(const Tensor& x, const Tensor& scale, const Tensor& shift) {
  requireFloat(x, "batchNorm");
  requireLength(scale, x.cols(), "batchNorm");
  requireLength(shift, x.cols(), "batchNorm");
  Tensor out = freshCopy(x);
  for (int64_t r = 0; r < x.rows(); ++r) {
    float* row = out.f32() + r * x.cols();
    detail::mulVec(row, x.cols(), scale.f32());
    detail::addVec(row, x.cols(), shift.f32());
  }
  roundInPlace(out.f32(), out.numel(), formatOf(out.dtype()));
  return out;
}

}  // namespace tessel::kernels
