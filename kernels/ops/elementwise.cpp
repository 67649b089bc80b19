#include "kernels/ops/elementwise.h"

#include <string>

#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

void requireFloat(const Tensor& x, const char* op) {
  if (!x.isFloat()) throw Error(std::string(op) + ": needs a float tensor");
}

// Rounds a float result back to its tensor's format.
Tensor finish(Tensor t) {
  roundInPlace(t.f32(), t.numel(), formatOf(t.dtype()));
  return t;
}

// A copy of x to compute into: values and quant params, but no saturation history.
Tensor freshCopy(const Tensor& x) {
  Tensor t = x;
  t.saturation = {};
  return t;
}

}  // namespace

Tensor biasAdd(const Tensor& x, const Tensor& bias) {
  requireFloat(x, "biasAdd");
  if (bias.numel() != x.cols()) throw Error("biasAdd: bias length must equal the last dim");
  Tensor out = freshCopy(x);
  for (int64_t r = 0; r < x.rows(); ++r)
    detail::addVec(out.f32() + r * x.cols(), x.cols(), bias.f32());
  return finish(std::move(out));
}

Tensor add(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) throw Error("add: shapes differ");
  Tensor out = freshCopy(a);
  if (a.dtype() == DType::Int32 && b.dtype() == DType::Int32) {
    if (a.quant.perChannel() || b.quant.perChannel() || a.quant.scale != b.quant.scale ||
        a.quant.zero_point != b.quant.zero_point)
      throw Error("add: int32 operands need equal per-tensor quant params");
    detail::addVecInt(out.i32(), a.numel(), b.i32());
    return out;
  }
  requireFloat(a, "add");
  requireFloat(b, "add");
  detail::addVec(out.f32(), a.numel(), b.f32());
  return finish(std::move(out));
}

Tensor mul(const Tensor& x, float s) {
  requireFloat(x, "mul");
  Tensor out = freshCopy(x);
  detail::mulScalar(out.f32(), x.numel(), s);
  return finish(std::move(out));
}

Tensor relu(const Tensor& x) {
  Tensor out = freshCopy(x);
  const int32_t zp = x.quant.zero_point.at(0);
  if (x.dtype() == DType::Int8) {
    if (x.quant.perChannel()) throw Error("relu: int8 input needs a per-tensor zero point");
    detail::reluInt8(out.i8(), x.numel(), static_cast<int8_t>(zp));
  } else if (x.dtype() == DType::Int32) {
    detail::reluInt(out.i32(), x.numel(), zp);
  } else {
    detail::relu(out.f32(), x.numel());
  }
  return out;
}

Tensor gelu(const Tensor& x, bool tanh_form) {
  requireFloat(x, "gelu");
  Tensor out = freshCopy(x);
  if (tanh_form)
    detail::geluTanh(out.f32(), x.numel());
  else
    detail::geluErf(out.f32(), x.numel());
  return finish(std::move(out));
}

Tensor castTo(const Tensor& x, FloatFormat f) {
  requireFloat(x, "castTo");
  std::vector<float> v(x.f32(), x.f32() + x.numel());
  return Tensor::fromFloats(x.shape(), std::move(v), dtypeOf(f));
}

}  // namespace tessel::kernels
