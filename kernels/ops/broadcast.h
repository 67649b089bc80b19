// Numpy-style broadcasting and the elementwise functions of imported graphs (models::EltAttrs),
// on float tensors. Results are FP32; the executor rounds or quantizes them to the op's dtype.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

// The broadcast shape of several shapes (right-aligned; each dim equal or 1). Throws Error.
std::vector<int64_t> broadcastShape(const std::vector<std::vector<int64_t>>& shapes);

// Element strides of `shape` read as `out` (right-aligned; 0 along broadcast dims).
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& shape,
                                      const std::vector<int64_t>& out);

// Binary function by name: add, mul, sub, div, pow, max, min, equal, less, greater, and, or
// (comparisons and logic give 0/1). Throws Error on an unknown name or unbroadcastable shapes.
Tensor binaryOp(const std::string& fn, const Tensor& a, const Tensor& b);
// where(cond, x, y): x where cond != 0, else y; all three broadcast.
Tensor whereOp(const Tensor& cond, const Tensor& x, const Tensor& y);
// Unary function by name: sqrt, exp, log, erf, tanh, neg, abs, reciprocal, clip (alpha = min,
// beta = max), hardsigmoid (alpha * x + beta clipped to [0, 1]), leakyrelu (alpha), not, cast
// (a float copy), scale (x * alpha), sigmoid, silu, hardswish. Throws Error on an unknown name.
Tensor unaryOp(const std::string& fn, const Tensor& x, float alpha = 0.0f, float beta = 0.0f);
bool isBinaryFn(const std::string& fn);
bool isUnaryFn(const std::string& fn);

}  // namespace tessel::kernels
