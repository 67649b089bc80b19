#include "kernels/executor/calibration.h"

#include <cmath>
#include <vector>

#include "kernels/numeric/quantize.h"
#include "util/error.h"

namespace tessel::kernels {

void ActivationRanges::record(const std::string& name, const Tensor& x) {
  if (!x.isFloat()) throw Error("calibration: '" + name + "' is not a float tensor");
  std::vector<float> finite;
  finite.reserve(static_cast<size_t>(x.numel()));
  const float* v = x.f32();
  for (int64_t i = 0; i < x.numel(); ++i)
    if (std::isfinite(v[i])) finite.push_back(v[i]);
  const auto n = static_cast<int64_t>(finite.size());
  const Range r = cal_.method == CalibrationMethod::MinMax
                      ? minMaxRange(finite.data(), n)
                      : percentileRange(finite.data(), n, cal_.percentile, QuantScheme::Symmetric);
  params_[name] = paramsForRange(r.lo, r.hi, QuantScheme::Symmetric, 8);
}

const QuantParams& ActivationRanges::params(const std::string& name) const {
  auto it = params_.find(name);
  if (it == params_.end())
    throw Error("no INT8 calibration for tensor '" + name +
                "': calibrate on an FP32 run of the same graph first");
  return it->second;
}

std::string calibrationName(const models::Graph& g, int id) {
  for (;;) {
    const int p = g.producerOf(id);
    if (p < 0) break;
    const models::Op& op = g.op(p);
    if (op.kind != models::OpKind::Quantize && op.kind != models::OpKind::Dequantize) break;
    id = op.inputs.at(0);
  }
  return g.tensor(id).name;
}

}  // namespace tessel::kernels
