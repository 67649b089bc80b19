// Internal to models/: primitives the workload builders share (one op each, with its weights,
// output tensor, shapes, GEMM view and MAC count). Not part of the public API.
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "models/graph.h"

namespace tessel::models::detail {

// Appends to a graph; every tensor it makes has `dtype` unless a caller says otherwise.
struct Builder {
  Graph& g;
  DType dtype;
  int layer = -1;  // stamped on every op emitted, so blocks need not pass it around

  int input(const std::string& name, std::vector<int64_t> shape, DType type);
  int weight(const std::string& name, std::vector<int64_t> shape);
  // Adds `op` (name, kind, inputs and attributes set) with one fresh output tensor named after
  // the op; returns the output tensor id.
  int emit(Op op, std::vector<int64_t> out_shape);
  const std::vector<int64_t>& shape(int tensor_id) const { return g.tensor(tensor_id).shape; }
};

Op makeOp(std::string name, OpKind kind, std::vector<int> inputs);

// x [..., K] times a new weight [K, n] (+ bias [n]) -> [..., n]; rows fold into gemm.m.
int linear(Builder& b, const std::string& name, int x, int64_t n, bool bias);
// Same-shape elementwise ops.
int unary(Builder& b, const std::string& name, OpKind kind, int x);
int add(Builder& b, const std::string& name, int x, int y);
int layerNorm(Builder& b, const std::string& name, int x, float eps);
// ids [B, S] (int32) into a new table [rows, dim] -> [B, S, dim].
int embedding(Builder& b, const std::string& name, int ids, int64_t rows, int64_t dim);

// Kernel, stride and padding of a conv; r x s window, the same stride/pad on both axes.
struct ConvParams {
  int64_t k = 0, r = 1, s = 1, stride = 1, pad = 0;
  int64_t groups = 1, dilation = 1;  // see ConvShape
};

// NHWC conv without bias; weight [r, s, C / groups, k]; gemm is the im2col view, one batch per
// group (m = N*P*Q, n = k / groups, k = C / groups * r*s).
int conv2d(Builder& b, const std::string& name, int x, ConvParams p);
int batchNorm(Builder& b, const std::string& name, int x);
int pool(Builder& b, const std::string& name, OpKind kind, int x, PoolAttrs attrs);
int globalAvgPool(Builder& b, const std::string& name, int x);

// Output size of a window of `r` sliding with stride/pad over `in`.
// 0 when the window does not fit even once.
// Computed in 128 bits: a user's pad near 2^63 must not wrap; a result beyond int64 is clamped
// to INT64_MAX, which the callers' checked products then reject as too large.
// A dilated window counts its span, (r - 1) * dilation + 1.
inline int64_t convOut(int64_t in, int64_t r, int64_t stride, int64_t pad, int64_t dilation = 1) {
  const __int128 padded = static_cast<__int128>(in) + 2 * static_cast<__int128>(pad);
  const __int128 span = (static_cast<__int128>(r) - 1) * dilation + 1;
  if (padded < span) return 0;
  const __int128 out = (padded - span) / stride + 1;
  return out > INT64_MAX ? INT64_MAX : static_cast<int64_t>(out);
}

}  // namespace tessel::models::detail
