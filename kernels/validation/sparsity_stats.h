// What a run's sparsity came to, measured: how dense the pruned weights are (weights=2:4 is 0.5
// unless the originals had zeros or a reduction axis ends in a partial group), and how many zeros
// the matmuls' and convolutions' input activations hold (a ReLU network's own sparsity).
#pragma once

#include <cstdint>
#include <map>

#include "kernels/numeric/tensor.h"
#include "kernels/weights/store.h"
#include "models/graph.h"

namespace tessel::kernels {

struct ZeroCount {
  int64_t zeros = 0, values = 0;
  int64_t tensors = 0;  // tensors (or tensor reads) counted
  double zeroFraction() const {
    return values > 0 ? static_cast<double>(zeros) / static_cast<double>(values) : 0.0;
  }
  double density() const { return 1.0 - zeroFraction(); }
  ZeroCount& operator+=(const ZeroCount& o);
};

// Zeros of any tensor (integers: values that dequantize to 0).
ZeroCount countZeros(const Tensor& t);

// The weights `g` prunes (WeightStore: a MatMul or Conv2d weight whose sparsity is not dense), as
// the executor reads them in FP32.
ZeroCount prunedWeights(const models::Graph& g, WeightStore& weights);

// The activations g's MatMul and Conv2d ops read as their first input (tensor id -> how many of
// those ops read it): what the run's input zeros are counted over, once per reading op.
std::map<int, int> gemmInputs(const models::Graph& g);

}  // namespace tessel::kernels
