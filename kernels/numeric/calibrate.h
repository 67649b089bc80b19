// Calibration: choose quantization parameters from observed values.
#pragma once

#include <cstdint>

#include "kernels/numeric/quantize.h"

namespace tessel::kernels {

struct Range {
  float lo = 0.0f;
  float hi = 0.0f;
};

enum class CalibrationMethod : uint8_t {
  MinMax,      // the full observed range: no clipping, coarser steps
  Percentile,  // clip the tails beyond `percentile` (e.g. 99.99): finer steps, a few clipped
};

struct Calibration {
  CalibrationMethod method = CalibrationMethod::MinMax;
  double percentile = 99.99;  // in (50, 100]
  QuantScheme scheme = QuantScheme::Symmetric;
  int bits = 8;
  bool per_channel = false;
  int axis = -1;  // channel axis when per_channel (weights [K, N]: -1 = per output column)
};

Range minMaxRange(const float* x, int64_t n);
// Symmetric: [-t, t] with t the percentile of |x|; asymmetric: the (100-p) and p percentiles.
// Nearest-rank percentile; ignores NaN.
Range percentileRange(const float* x, int64_t n, double percentile, QuantScheme scheme);

// Parameters for a float tensor, per tensor or per channel along c.axis.
QuantParams calibrate(const Tensor& x, const Calibration& c);

}  // namespace tessel::kernels
