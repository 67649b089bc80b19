#include <limits>
#include <string>

#include "kernels/gemm/int8.h"
#include "kernels/gemm/isa/kernels.h"
#include "util/error.h"

namespace tessel::kernels {

PackedWeights::PackedWeights(const Tensor& w, bool transposed, Int8Isa isa) {
  if (w.dtype() != DType::Int8 || w.rank() != 2)
    throw Error("PackedWeights: weights must be a 2-D int8 tensor");
  *this = PackedWeights(w.i8(), transposed ? w.dim(1) : w.dim(0), transposed ? w.dim(0) : w.dim(1),
                        w.dim(1), transposed, w.quant, isa);
}

PackedWeights::PackedWeights(const int8_t* data, int64_t k, int64_t n, int64_t ld, bool transposed,
                             QuantParams q, Int8Isa isa)
    : k_(k), n_(n), kp_((k + 3) / 4 * 4), quant_(std::move(q)) {
  if (k <= 0 || n <= 0) throw Error("PackedWeights: empty weight matrix");
  if (k > kMaxInt8GemmK)
    throw Error("PackedWeights: K = " + std::to_string(k) + " exceeds the exact int32 limit " +
                std::to_string(kMaxInt8GemmK));
  if (quant_.scale.size() != 1 && static_cast<int64_t>(quant_.scale.size()) != n)
    throw Error("PackedWeights: weight scales must be per tensor or one per output column");
  isa_ = isa == Int8Isa::Auto ? bestInt8Isa() : isa;
  if (!isAvailable(isa_))
    throw Error("PackedWeights: int8 kernel '" + std::string(nameOf(isa_)) + "' unavailable");
  zp_.resize(static_cast<size_t>(n));
  for (int64_t c = 0; c < n; ++c) {
    zp_[static_cast<size_t>(c)] = quant_.zeroPointAt(c);
    has_zp_ = has_zp_ || zp_[static_cast<size_t>(c)] != 0;
  }
  pack(data, ld, transposed);
}

void PackedWeights::pack(const int8_t* data, int64_t ld, bool transposed) {
  const int64_t panels = (n_ + 15) / 16;
  data_.assign(static_cast<size_t>(panels * 16 * kp_), 0);
  colsum_.assign(static_cast<size_t>(n_), 0);
  for (int64_t k = 0; k < k_; ++k)
    for (int64_t n = 0; n < n_; ++n) {
      const int8_t v = transposed ? data[n * ld + k] : data[k * ld + n];
      data_[static_cast<size_t>((n / 16) * 16 * kp_ + (k / 4) * 64 + (n % 16) * 4 + k % 4)] = v;
      colsum_[static_cast<size_t>(n)] += v;
    }
  if (isa_ == Int8Isa::Portable) {
    float_.resize(static_cast<size_t>(k_ * n_));
    for (int64_t k = 0; k < k_; ++k)
      for (int64_t n = 0; n < n_; ++n)
        float_[static_cast<size_t>(k * n_ + n)] = transposed ? data[n * ld + k] : data[k * ld + n];
  }
}

QuantParams PackedWeights::accumulatorQuant(float a_scale) const {
  QuantParams q;
  q.scale.clear();
  for (float s : quant_.scale) q.scale.push_back(a_scale * s);
  q.zero_point = {0};
  q.axis = -1;
  q.qmin = std::numeric_limits<int32_t>::min();
  q.qmax = std::numeric_limits<int32_t>::max();
  return q;
}

}  // namespace tessel::kernels
