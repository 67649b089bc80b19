// Layout ops as copies on float tensors: transpose, slice, concat and gather (ONNX semantics).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

// Output axis i is input axis perm[i].
Tensor transpose(const Tensor& x, const std::vector<int>& perm);
// Along `axis`: start, start + step, ... while < end (step > 0) or > end (step < 0); start and
// end already clamped by the caller (the output shape says how many are kept).
Tensor slice(const Tensor& x, int axis, int64_t start, int64_t step, int64_t count);
Tensor concat(const std::vector<const Tensor*>& xs, int axis);
// Rows of `data` along `axis` picked by `ids` (Int32, or float holding integers; negative ids
// count from the end): shape data[:axis] + ids.shape + data[axis+1:]. Throws Error out of range.
Tensor gather(const Tensor& data, const Tensor& ids, int axis);
// x broadcast to `shape` (numpy rules; ONNX Expand).
Tensor expandTo(const Tensor& x, const std::vector<int64_t>& shape);
// Nearest-neighbour resize to `shape` of equal rank: output index o of an axis reads input
// floor(o * in / out). For integer scale factors this is ONNX's default nearest mode (half_pixel
// with round_prefer_floor, and asymmetric alike); the graph keeps no mode, so linear and cubic
// resizes are not told apart.
Tensor resizeNearest(const Tensor& x, const std::vector<int64_t>& shape);

}  // namespace tessel::kernels
