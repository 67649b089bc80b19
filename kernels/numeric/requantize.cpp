#include "kernels/numeric/requantize.h"

#include <cmath>
#include <string>

#include "kernels/numeric/fixed_point.h"
#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

FixedPointMultiplier toFixedPoint(double real) {
  if (!std::isfinite(real) || !(real > 0.0) || real >= 0x1p31)
    throw Error("toFixedPoint: multiplier " + std::to_string(real) + " is not in (0, 2^31)");
  int e = 0;
  const double q = std::frexp(real, &e);  // real = q * 2^e, q in [0.5, 1)
  auto m = static_cast<int64_t>(std::llround(q * 0x1p31));
  if (m == (int64_t{1} << 31)) {  // q rounded up to 1.0
    m /= 2;
    ++e;
  }
  // shift >= 32 means |x * real| < 1/2 for every int32 x: the result is always 0.
  if (-e > 31) return {0, 0};
  return {static_cast<int32_t>(m), -e};
}

int32_t roundingDoublingHighMul(int32_t a, int32_t b) { return detail::srdhm(a, b); }

int32_t roundingDivideByPOT(int32_t x, int exponent) {
  if (exponent < 0 || exponent > 31) throw Error("roundingDivideByPOT: exponent not in [0, 31]");
  return detail::rdbpot(x, exponent);
}

int32_t multiplyByFixedPoint(int32_t x, FixedPointMultiplier m) { return detail::mulFixed(x, m); }

Requant makeRequant(const std::vector<float>& acc_scales, const QuantParams& out) {
  if (out.perChannel()) throw Error("makeRequant: the output must be quantized per tensor");
  if (acc_scales.empty()) throw Error("makeRequant: no accumulator scales");
  Requant r;
  r.out = out;
  for (float s : acc_scales)
    r.multipliers.push_back(toFixedPoint(static_cast<double>(s) / out.scale[0]));
  return r;
}

Tensor requantize(const Tensor& acc, const Requant& r) {
  const int64_t cols = acc.cols();
  const bool per_col = r.multipliers.size() > 1;
  if (per_col && static_cast<int64_t>(r.multipliers.size()) != cols)
    throw Error("requantize: " + std::to_string(r.multipliers.size()) + " multipliers for " +
                std::to_string(cols) + " columns");
  if (r.multipliers.empty()) throw Error("requantize: no multipliers");
  Tensor out = Tensor::uninitialized(acc.shape(), DType::Int8);
  out.quant = r.out;
  const int32_t zp = r.out.zero_point[0];
  for (int64_t i = 0; i < acc.rows(); ++i) {
    const int32_t* a = acc.i32() + i * cols;
    int8_t* q = out.i8() + i * cols;
    if (per_col)
      detail::requantizeRowPerCol(a, q, cols, r.multipliers.data(), zp, r.out.qmin, r.out.qmax,
                                  out.saturation);
    else
      detail::requantizeRow(a, q, cols, r.multipliers[0], zp, r.out.qmin, r.out.qmax,
                            out.saturation);
  }
  return out;
}

}  // namespace tessel::kernels
