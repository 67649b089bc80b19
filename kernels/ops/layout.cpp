#include "kernels/ops/layout.h"

#include <cmath>
#include <cstring>
#include <string>

#include "kernels/ops/broadcast.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

// Product of dims [from, to).
int64_t span(const std::vector<int64_t>& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

void requireAxis(const Tensor& x, int axis, const char* op) {
  if (axis < 0 || axis >= x.rank())
    throw Error(std::string(op) + ": axis " + std::to_string(axis) + " out of range");
  if (!x.isFloat()) throw Error(std::string(op) + ": needs a float tensor");
}

}  // namespace

Tensor transpose(const Tensor& x, const std::vector<int>& perm) {
  const size_t rank = perm.size();
  if (static_cast<int>(rank) != x.rank() || !x.isFloat())
    throw Error("transpose: perm does not match the tensor's rank");
  std::vector<int64_t> shape(rank), in_st(rank), st(rank);
  for (size_t i = rank; i-- > 0;) in_st[i] = span(x.shape(), i + 1, rank);
  for (size_t i = 0; i < rank; ++i) {
    shape[i] = x.dim(perm[i]);
    st[i] = in_st[static_cast<size_t>(perm[i])];
  }
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  std::vector<int64_t> idx(rank, 0);
  const float* src = x.f32();
  float* dst = out.f32();
  int64_t off = 0;
  for (int64_t o = 0; o < out.numel(); ++o) {
    dst[o] = src[off];
    for (size_t ax = rank; ax-- > 0;) {
      off += st[ax];
      if (++idx[ax] < shape[ax]) break;
      off -= st[ax] * shape[ax];
      idx[ax] = 0;
    }
  }
  return out;
}

Tensor slice(const Tensor& x, int axis, int64_t start, int64_t step, int64_t count) {
  requireAxis(x, axis, "slice");
  const size_t a = static_cast<size_t>(axis);
  const int64_t outer = span(x.shape(), 0, a), n = x.dim(axis);
  const int64_t inner = span(x.shape(), a + 1, x.shape().size());
  const int64_t last = start + (count - 1) * step;
  if (count > 0 && (start < 0 || start >= n || last < 0 || last >= n))
    throw Error("slice: range leaves the axis");
  std::vector<int64_t> shape = x.shape();
  shape[a] = count;
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(out.f32() + (o * count + i) * inner, x.f32() + (o * n + start + i * step) * inner,
                  static_cast<size_t>(inner) * sizeof(float));
  return out;
}

Tensor concat(const std::vector<const Tensor*>& xs, int axis) {
  if (xs.empty()) throw Error("concat: no inputs");
  requireAxis(*xs[0], axis, "concat");
  const size_t a = static_cast<size_t>(axis);
  std::vector<int64_t> shape = xs[0]->shape();
  shape[a] = 0;
  for (const Tensor* x : xs) {
    if (!x->isFloat() || x->rank() != xs[0]->rank()) throw Error("concat: mismatched inputs");
    shape[a] += x->dim(axis);
  }
  const int64_t outer = span(shape, 0, a), inner = span(shape, a + 1, shape.size());
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  int64_t col = 0;  // where this input starts along the axis
  for (const Tensor* x : xs) {
    const int64_t chunk = x->dim(axis) * inner;
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(out.f32() + o * shape[a] * inner + col * inner, x->f32() + o * chunk,
                  static_cast<size_t>(chunk) * sizeof(float));
    col += x->dim(axis);
  }
  return out;
}

Tensor gather(const Tensor& data, const Tensor& ids, int axis) {
  requireAxis(data, axis, "gather");
  const size_t a = static_cast<size_t>(axis);
  const int64_t outer = span(data.shape(), 0, a), n = data.dim(axis);
  const int64_t inner = span(data.shape(), a + 1, data.shape().size());
  std::vector<int64_t> shape(data.shape().begin(), data.shape().begin() + axis);
  shape.insert(shape.end(), ids.shape().begin(), ids.shape().end());
  shape.insert(shape.end(), data.shape().begin() + axis + 1, data.shape().end());
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  const int64_t m = ids.numel();
  for (int64_t j = 0; j < m; ++j) {
    int64_t id = ids.dtype() == DType::Int32 ? ids.i32()[j]
                                             : static_cast<int64_t>(std::lround(ids.f32()[j]));
    if (id < 0) id += n;
    if (id < 0 || id >= n)
      throw Error("gather: index " + std::to_string(id) + " outside [0, " + std::to_string(n) +
                  ")");
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(out.f32() + (o * m + j) * inner, data.f32() + (o * n + id) * inner,
                  static_cast<size_t>(inner) * sizeof(float));
  }
  return out;
}

Tensor expandTo(const Tensor& x, const std::vector<int64_t>& shape) {
  const std::vector<int64_t> out = broadcastShape({x.shape(), shape});
  return binaryOp("add", x, Tensor(out, DType::FP32));  // x + 0, broadcast
}

Tensor resizeNearest(const Tensor& x, const std::vector<int64_t>& shape) {
  if (static_cast<int>(shape.size()) != x.rank() || !x.isFloat())
    throw Error("resize: output rank differs from the input's");
  Tensor out = Tensor::uninitialized(shape, DType::FP32);
  const size_t rank = shape.size();
  std::vector<int64_t> idx(rank, 0);
  for (int64_t o = 0; o < out.numel(); ++o) {
    int64_t rest = o, src = 0, stride = 1;
    for (size_t ax = rank; ax-- > 0;) {
      idx[ax] = rest % shape[ax];
      rest /= shape[ax];
    }
    for (size_t ax = rank; ax-- > 0;) {
      const int64_t in = x.dim(static_cast<int>(ax));
      src += idx[ax] * in / shape[ax] * stride;
      stride *= in;
    }
    out.f32()[o] = x.f32()[src];
  }
  return out;
}

}  // namespace tessel::kernels
