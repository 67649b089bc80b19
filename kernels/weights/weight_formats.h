// A float weight in any dtype the executor runs, as the weight store keeps it:
//   - int8, int4: symmetric per output channel (per tensor without one), stored as INT8 tensors
//     whose QuantParams range is [-127, 127] or [-7, 7] (the INT8 datapath reads both);
//   - uint4: asymmetric per output channel, [0, 15] stored as [-8, 7] with a zero point (a
//     weight-only format: real = scale x (q - zero_point), as AWQ-style checkpoints store it);
//   - plain floats (fp16, bf16, fp8, fp6, fp4): rounded value by value (narrow ones saturate);
//   - block-scaled types: quantize-dequantize in blocks along the REDUCTION axis, as MX and GPTQ
//     group their weights: down the rows of a [K, N] MatMul weight (and of the [R*S*C, K] view of
//     an NHWC conv weight), along the rows of a transposed [N, K] weight or an embedding table;
//     along the last axis for weights with no output channel (biases, norm scales).
#pragma once

#include <optional>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

// `w` holds float values; `out_axis` is its output-channel axis (weightAxis: 0 or the last), or
// nullopt. Throws Error for dtypes a weight cannot take (int16, int32, e8m0).
Tensor weightAs(const Tensor& w, DType t, std::optional<int> out_axis);

// Integer dtypes whose tensors run on the INT8 datapath: int8, and int4 in a 4-bit range.
inline bool isQuantizedInt(DType t) { return t == DType::Int8 || t == DType::Int4; }

}  // namespace tessel::kernels
