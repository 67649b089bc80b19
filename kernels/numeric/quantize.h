// Uniform quantization: parameters from a range, quantize (saturation counted), dequantize.
#pragma once

#include <cstdint>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

enum class QuantScheme : uint8_t {
  Symmetric,   // zero point 0, narrow range [-(2^(b-1)-1), 2^(b-1)-1]
  Asymmetric,  // zero point chosen so [lo, hi] maps onto [-2^(b-1), 2^(b-1)-1]
};

// Parameters covering [lo, hi] (widened to include 0 so zero stays exact), bits in [2, 8].
QuantParams paramsForRange(float lo, float hi, QuantScheme scheme, int bits = 8);

// q = clamp(round_half_even(x / scale) + zero_point, qmin, qmax) into an Int8 tensor carrying
// `q`. Per-channel params apply along q.axis. Clipped values (NaN counts as low) are counted in
// the result's `saturation`.
Tensor quantize(const Tensor& x, const QuantParams& q);
// real = scale * (q - zero_point), for Int8 and Int32 tensors; returns FP32.
Tensor dequantize(const Tensor& q);

// Splits a tensor around a channel axis: element (outer, c, inner) is at (outer*ch + c)*inner +
// inner_index. Used by per-channel quantization and calibration.
struct AxisSplit {
  int64_t outer = 1, channels = 1, inner = 1;
};
AxisSplit splitAt(const std::vector<int64_t>& shape, int axis);

}  // namespace tessel::kernels
