// Internal to the executor: which ops it can run and which path each takes.
#pragma once

#include <string>

#include "models/graph.h"

namespace tessel::kernels {

// ConfigError naming the op when the executor cannot run it: mixture-of-experts routing (the
// timing graph's expert loads are expectations, not a real routing), a deployment's padding
// (Pad, and the padding-dropping Slice with start = end = 0), unknown elementwise functions, and
// dtypes without kernels (int16 and uint4 values, int16/int32 weights, an INT8/INT4 matmul
// reading weights in a float or block-scaled format).
void checkRunnable(const models::Graph& g, const models::Op& op);

// Ops the float path (float_ops.cpp) runs: whatever has no blocked GEMM view or chain form
// (layout copies, reductions, rope, generic elementwise functions, broadcasting Add/Mul,
// batched matmuls of two activations, grouped/dilated/NCHW convolutions and NCHW pools).
// Integer and low-precision tensors dequantize into it and are quantized or rounded out.
bool runsInFloat(const models::Graph& g, const models::Op& op);

// Elementwise functions that only relabel the shape (reshape, flatten, squeeze, unsqueeze,
// identity, dropout at inference): copies of input 0.
bool isViewFn(const std::string& fn);

// Whether an op may anchor a fused chain: GEMM-like ops with a blocked kernel view.
bool isBlockedAnchor(const models::Op& op);

}  // namespace tessel::kernels
