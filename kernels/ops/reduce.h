// Reductions over axes, and rotary position embedding, on float tensors.
#pragma once

#include <string>
#include <vector>

#include "kernels/numeric/tensor.h"
#include "models/graph.h"

namespace tessel::kernels {

// fn: mean, sum, max, min, prod, l2, sumsquare over `axes` (non-negative, ascending; empty =
// all axes); keepdims keeps them as 1s. Accumulates in double: a row of thousands of FP32 sums
// would otherwise lose digits the reference keeps.
Tensor reduce(const Tensor& x, const std::string& fn, const std::vector<int>& axes, bool keepdims);

// Rotates the rotary part of each head of x [B, S, *] in place of a copy (models::RopeAttrs).
Tensor rope(const Tensor& x, const models::RopeAttrs& a);

}  // namespace tessel::kernels
