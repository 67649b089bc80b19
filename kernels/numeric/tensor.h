// kernels::Tensor: an owning, contiguous, row-major tensor with the quantization parameters it
// carries. Float values of every float dtype live in a float buffer (FP16/BF16/FP8/FP6/FP4 and
// block-scaled tensors hold already-rounded values: the executor emulates low precision), INT8 in
// int8_t, INT32 in int32_t. (INT4 values are INT8 tensors whose QuantParams range is 4-bit.)
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "util/dtype.h"

namespace tessel::kernels {

// real = scale * (q - zero_point). One entry = per tensor; several = per channel along `axis`.
struct QuantParams {
  std::vector<float> scale{1.0f};
  std::vector<int32_t> zero_point{0};
  int axis = -1;        // channel axis for per-channel params (negative counts from the end)
  int32_t qmin = -128;  // representable integer range of the stored values
  int32_t qmax = 127;

  bool perChannel() const { return scale.size() > 1; }
  float scaleAt(int64_t c) const { return scale[perChannel() ? static_cast<size_t>(c) : 0]; }
  int32_t zeroPointAt(int64_t c) const {
    return zero_point[zero_point.size() > 1 ? static_cast<size_t>(c) : 0];
  }
  static QuantParams perTensor(float scale, int32_t zero_point = 0, int32_t qmin = -128,
                               int32_t qmax = 127);
};

// Values forced to the end of the integer range when a tensor was produced: counted, never silent.
struct SaturationStats {
  int64_t total = 0;  // values converted
  int64_t low = 0;    // clipped to qmin
  int64_t high = 0;   // clipped to qmax
  int64_t clipped() const { return low + high; }
  SaturationStats& operator+=(const SaturationStats& o);
};

namespace detail {
// Allocator whose resize() leaves new elements uninitialized: kernels overwrite their outputs,
// and zero-filling megabytes first would cost a full extra pass.
template <class T>
struct NoInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  NoInitAllocator() = default;
  template <class U>
  NoInitAllocator(const NoInitAllocator<U>&) {}
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using Buffer = std::vector<T, NoInitAllocator<T>>;
}  // namespace detail

class Tensor {
 public:
  Tensor() = default;
  // Zero-filled. Throws Error for unsupported dtypes (int16, int4, uint4, e8m0) or negative dims.
  Tensor(std::vector<int64_t> shape, DType dtype);
  // Contents unspecified: for kernels that overwrite every element.
  static Tensor uninitialized(std::vector<int64_t> shape, DType dtype);

  // Values are rounded to the dtype (round to nearest even; narrow floats saturate; block-scaled
  // types quantize-dequantize in blocks along the last axis: block_round.h).
  static Tensor fromFloats(std::vector<int64_t> shape, std::vector<float> values,
                           DType dtype = DType::FP32);
  static Tensor fromInt8(std::vector<int64_t> shape, std::vector<int8_t> values, QuantParams q);
  static Tensor fromInt32(std::vector<int64_t> shape, std::vector<int32_t> values,
                          QuantParams q = {});

  DType dtype() const { return dtype_; }
  bool isFloat() const { return !isInteger(dtype_); }
  const std::vector<int64_t>& shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t dim(int i) const;  // negative i counts from the end
  int64_t numel() const { return numel_; }
  int64_t cols() const;  // last dim (1 for a scalar)
  int64_t rows() const;  // numel / cols: the matrix view every row-wise kernel uses
  // Same data, new shape with equal numel.
  void reshape(std::vector<int64_t> shape);

  // Typed access; throws Error on a dtype mismatch.
  float* f32();
  const float* f32() const;
  int8_t* i8();
  const int8_t* i8() const;
  int32_t* i32();
  const int32_t* i32() const;

  QuantParams quant;           // for Int8/Int32 tensors
  SaturationStats saturation;  // clipping that happened while this tensor was produced

 private:
  std::vector<int64_t> shape_;
  DType dtype_ = DType::FP32;
  int64_t numel_ = 0;
  detail::Buffer<float> f_;
  detail::Buffer<int8_t> i8_;
  detail::Buffer<int32_t> i32_;
};

// Product of dims; throws Error on a negative dim.
int64_t numelOf(const std::vector<int64_t>& shape);

}  // namespace tessel::kernels
