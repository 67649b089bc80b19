// Static INT8 activation scales: symmetric per-tensor parameters per tensor name, calibrated on
// the FP32 run of the same graph and inputs (min/max, or a percentile of |x|).
#pragma once

#include <string>
#include <unordered_map>

#include "kernels/numeric/calibrate.h"
#include "kernels/numeric/tensor.h"
#include "models/graph.h"

namespace tessel::kernels {

class ActivationRanges {
 public:
  // Only method and percentile are read: activations are always symmetric 8-bit per tensor.
  explicit ActivationRanges(Calibration method = {}) : cal_(method) {}

  // Records the range of an FP32 tensor's finite values (masked -inf scores are not data).
  void record(const std::string& name, const Tensor& fp32);
  bool has(const std::string& name) const { return params_.count(name) > 0; }
  // Throws Error naming the tensor when it was never recorded.
  const QuantParams& params(const std::string& name) const;
  size_t size() const { return params_.size(); }

 private:
  Calibration cal_;
  std::unordered_map<std::string, QuantParams> params_;
};

// The name whose FP32 range calibrates tensor `id` of g: conversion copies ("x.to_int8") take
// their source's.
std::string calibrationName(const models::Graph& g, int id);

}  // namespace tessel::kernels
