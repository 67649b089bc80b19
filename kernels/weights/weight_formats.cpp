#include "kernels/weights/weight_formats.h"

#include <algorithm>
#include <string>

#include "kernels/numeric/block_round.h"
#include "kernels/numeric/calibrate.h"
#include "kernels/weights/store.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

Tensor quantizedWeight(const Tensor& w, DType t, std::optional<int> axis) {
  Calibration c;  // min/max: weights are static, every value is known
  c.scheme = t == DType::UInt4 ? QuantScheme::Asymmetric : QuantScheme::Symmetric;
  c.bits = t == DType::Int8 ? 8 : 4;
  c.per_channel = axis.has_value();
  c.axis = axis.value_or(-1);
  return quantize(w, calibrate(w, c));
}

// w's values (any rank) rounded to block-scaled t in blocks along its reduction axis, into out.
void blockAlongReduction(const Tensor& w, DType t, std::optional<int> axis, float* out) {
  const int rank = w.rank();
  const int a = axis && *axis < 0 ? *axis + rank : axis.value_or(-1);
  if (rank >= 2 && a > 0) {  // [..., N]: the reduction runs down the columns of [numel / N, N]
    const int64_t n = w.dim(-1), k = w.numel() / std::max<int64_t>(n, 1);
    Tensor m = w;
    m.reshape({k, n});
    Tensor mt = transposeFloat(m);
    roundRows(mt.f32(), n, k, t);
    const Tensor back = transposeFloat(mt);
    std::copy(back.f32(), back.f32() + back.numel(), out);
    return;
  }
  std::copy(w.f32(), w.f32() + w.numel(), out);
  if (rank >= 2 && a == 0)  // [N, ...]: each output channel's values are contiguous
    roundRows(out, w.dim(0), w.numel() / std::max<int64_t>(w.dim(0), 1), t);
  else  // no output channel: blocks along the last axis
    roundRows(out, w.rows(), w.cols(), t);
}

}  // namespace

Tensor weightAs(const Tensor& w, DType t, std::optional<int> out_axis) {
  if (isQuantizedInt(t) || t == DType::UInt4) return quantizedWeight(w, t, out_axis);
  if (isInteger(t) || t == DType::E8M0)
    throw Error("a weight cannot be stored as " + std::string(nameOf(t)) +
                " on the executor (it runs int8, int4, uint4 and float weights)");
  if (!isBlockScaled(t))
    return Tensor::fromFloats(w.shape(), std::vector<float>(w.f32(), w.f32() + w.numel()), t);
  Tensor out = Tensor::uninitialized(w.shape(), t);  // labelled, not rounded again by row
  blockAlongReduction(w, t, out_axis, out.f32());
  return out;
}

}  // namespace tessel::kernels
