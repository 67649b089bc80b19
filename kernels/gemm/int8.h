// Exact INT8 x INT8 -> INT32 GEMM. Weights are packed once (PackedWeights); each call packs its
// activation rows and runs a micro-kernel picked at run time: AVX-512 VNNI (vpdpbusd), AVX2
// (vpmaddwd on sign-extended int16), or, anywhere else, chunked float products on Eigen. All give
// identical, exact results.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "kernels/chain/op_chain.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

enum class Int8Isa : uint8_t { Auto, Portable, Avx2, Avx512Vnni };

std::string_view nameOf(Int8Isa isa);
bool isAvailable(Int8Isa isa);  // Auto and Portable always are
Int8Isa bestInt8Isa();          // what Auto resolves to on this CPU

// K is limited so every int32 partial and correction is exact (|sum| < 2^31).
constexpr int64_t kMaxInt8GemmK = 32768;

class PackedWeights {
 public:
  PackedWeights() = default;
  // w: Int8 [K, N] (or [N, K] when transposed, e.g. the tied LM head). Its quant params (per
  // tensor or per output column) give the weight scales and zero points.
  explicit PackedWeights(const Tensor& w, bool transposed = false, Int8Isa isa = Int8Isa::Auto);
  // A strided view: element (k, n) at data[k * ld + n], or data[n * ld + k] when transposed.
  PackedWeights(const int8_t* data, int64_t k, int64_t n, int64_t ld, bool transposed,
                QuantParams q, Int8Isa isa = Int8Isa::Auto);

  int64_t k() const { return k_; }
  int64_t n() const { return n_; }
  Int8Isa isa() const { return isa_; }
  const QuantParams& quant() const { return quant_; }
  // Scales of the int32 accumulators: a_scale * w_scale[n] (per column), zero point 0.
  QuantParams accumulatorQuant(float a_scale) const;

  // Layout (kernels-internal): panels of 16 columns; in a panel, groups of 4 k for each column.
  int64_t kPadded() const { return kp_; }
  const int8_t* panel(int64_t p) const { return data_.data() + p * 16 * kp_; }
  const int32_t* colSums() const { return colsum_.data(); }  // sum_k w[k][n]
  const int32_t* zeroPoints() const { return zp_.data(); }   // per column
  // [K, N] as floats: kept only for the portable kernel (chunked float products).
  const float* floatWeights() const { return float_.data(); }
  bool hasZeroPoints() const { return has_zp_; }

 private:
  void pack(const int8_t* data, int64_t ld, bool transposed);
  int64_t k_ = 0, n_ = 0, kp_ = 0;
  Int8Isa isa_ = Int8Isa::Portable;
  QuantParams quant_;
  std::vector<int8_t> data_;
  std::vector<int32_t> colsum_, zp_;
  std::vector<float> float_;
  bool has_zp_ = false;
};

// a: Int8 [..., K] (its zero point is honoured) -> Int32 [..., N] with accumulatorQuant(a scale),
// or whatever `epilogue` turns it into. `prologue` (optional) transforms A rows before packing and
// must end in Int8; its input is a's dtype. The epilogue runs on each block right after it is
// computed.
Tensor matmul(const Tensor& a, const PackedWeights& w, const OpChain& epilogue = {},
              const OpChain& prologue = {});

}  // namespace tessel::kernels
