#include "kernels/numeric/tensor.h"

#include <algorithm>
#include <string>

#include "kernels/numeric/block_round.h"
#include "util/error.h"

namespace tessel::kernels {

QuantParams QuantParams::perTensor(float scale, int32_t zero_point, int32_t qmin, int32_t qmax) {
  QuantParams q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  q.qmin = qmin;
  q.qmax = qmax;
  return q;
}

SaturationStats& SaturationStats::operator+=(const SaturationStats& o) {
  total += o.total;
  low += o.low;
  high += o.high;
  return *this;
}

int64_t numelOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw Error("kernels::Tensor: negative dimension " + std::to_string(d));
    n *= d;
  }
  return n;
}

Tensor::Tensor(std::vector<int64_t> shape, DType dtype)
    : Tensor(uninitialized(std::move(shape), dtype)) {
  std::fill(f_.begin(), f_.end(), 0.0f);
  std::fill(i8_.begin(), i8_.end(), int8_t{0});
  std::fill(i32_.begin(), i32_.end(), 0);
}

Tensor Tensor::uninitialized(std::vector<int64_t> shape, DType dtype) {
  Tensor t;
  t.numel_ = numelOf(shape);
  t.shape_ = std::move(shape);
  t.dtype_ = dtype;
  const auto n = static_cast<size_t>(t.numel_);
  if (dtype == DType::Int8)
    t.i8_.resize(n);
  else if (dtype == DType::Int32)
    t.i32_.resize(n);
  else if (isInteger(dtype) || dtype == DType::E8M0)
    throw Error("kernels::Tensor: " + std::string(nameOf(dtype)) +
                " tensors are not supported (int4 values live in int8 tensors with a 4-bit range)");
  else
    t.f_.resize(n);  // every float dtype, narrow and block-scaled ones included
  return t;
}

Tensor Tensor::fromFloats(std::vector<int64_t> shape, std::vector<float> values, DType dtype) {
  if (isInteger(dtype) || dtype == DType::E8M0)
    throw Error("Tensor::fromFloats: " + std::string(nameOf(dtype)) + " is not a float dtype");
  Tensor t;
  t.shape_ = std::move(shape);
  t.dtype_ = dtype;
  t.numel_ = numelOf(t.shape_);
  if (static_cast<int64_t>(values.size()) != t.numel_)
    throw Error("Tensor::fromFloats: " + std::to_string(values.size()) + " values for " +
                std::to_string(t.numel_) + " elements");
  t.f_.assign(values.begin(), values.end());
  roundRows(t.f_.data(), t.rows(), t.cols(), dtype);
  return t;
}

Tensor Tensor::fromInt8(std::vector<int64_t> shape, std::vector<int8_t> values, QuantParams q) {
  Tensor t;
  t.shape_ = std::move(shape);
  t.dtype_ = DType::Int8;
  t.numel_ = numelOf(t.shape_);
  if (static_cast<int64_t>(values.size()) != t.numel_)
    throw Error("Tensor::fromInt8: value count does not match the shape");
  t.i8_.assign(values.begin(), values.end());
  t.quant = std::move(q);
  return t;
}

Tensor Tensor::fromInt32(std::vector<int64_t> shape, std::vector<int32_t> values, QuantParams q) {
  Tensor t;
  t.shape_ = std::move(shape);
  t.dtype_ = DType::Int32;
  t.numel_ = numelOf(t.shape_);
  if (static_cast<int64_t>(values.size()) != t.numel_)
    throw Error("Tensor::fromInt32: value count does not match the shape");
  t.i32_.assign(values.begin(), values.end());
  t.quant = std::move(q);
  return t;
}

int64_t Tensor::dim(int i) const {
  const int r = rank();
  const int j = i < 0 ? i + r : i;
  if (j < 0 || j >= r) throw Error("Tensor::dim: axis " + std::to_string(i) + " out of range");
  return shape_[static_cast<size_t>(j)];
}

int64_t Tensor::cols() const { return shape_.empty() ? 1 : shape_.back(); }

int64_t Tensor::rows() const {
  const int64_t c = cols();
  return c == 0 ? 0 : numel_ / c;
}

void Tensor::reshape(std::vector<int64_t> shape) {
  if (numelOf(shape) != numel_) throw Error("Tensor::reshape: element count changes");
  shape_ = std::move(shape);
}

static void expect(DType have, bool ok, const char* want) {
  if (!ok)
    throw Error(std::string("kernels::Tensor: ") + want + " access to a " +
                std::string(nameOf(have)) + " tensor");
}

float* Tensor::f32() {
  expect(dtype_, isFloat(), "float");
  return f_.data();
}
const float* Tensor::f32() const {
  expect(dtype_, isFloat(), "float");
  return f_.data();
}
int8_t* Tensor::i8() {
  expect(dtype_, dtype_ == DType::Int8, "int8");
  return i8_.data();
}
const int8_t* Tensor::i8() const {
  expect(dtype_, dtype_ == DType::Int8, "int8");
  return i8_.data();
}
int32_t* Tensor::i32() {
  expect(dtype_, dtype_ == DType::Int32, "int32");
  return i32_.data();
}
const int32_t* Tensor::i32() const {
  expect(dtype_, dtype_ == DType::Int32, "int32");
  return i32_.data();
}

}  // namespace tessel::kernels
