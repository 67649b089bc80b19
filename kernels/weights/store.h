// Weights and inputs of graphs, generated once per tensor and prepared once per use: raw FP32
// values, their FP16/BF16 roundings, symmetric per-channel INT8 quantizations and the packed
// GEMM operands. One store serves every precision variant and prefix of a graph: entries are keyed
// by tensor name, shape and sparsity, which applyPrecision keeps. A MatMul or Conv2d weight whose
// sparsity is not dense (--sparsity weights=2:4) is magnitude-pruned (prune.h) as it is made, and
// every form of it (roundings, quantizations, packed operands) derives from the pruned values.
// Not thread-safe.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "kernels/gemm/float.h"
#include "kernels/gemm/int8.h"
#include "kernels/weights/weights.h"
#include "models/graph.h"

namespace tessel::kernels {

class WeightStore {
 public:
  explicit WeightStore(SyntheticData data = SyntheticData()) : data_(data) {}
  const SyntheticData& data() const { return data_; }

  // FP32 values (Int32 ids) of an Input or Weight tensor; a sparse weight's pruned.
  std::shared_ptr<const Tensor> raw(const models::Graph& g, int id);
  // A weight in `dtype` (weight_formats.h): FP32, rounded to a float format, block-scaled along
  // its reduction axis, or INT8/INT4 symmetric per channel along weightAxis() (per tensor when it
  // has none). With `from`, the weight as stored in `from` converted to `dtype` (what a graph's
  // conversion of a weight computes): INT8 -> FP32 is the dequantized INT8 weight, not the
  // original values.
  std::shared_ptr<const Tensor> weight(const models::Graph& g, int id, DType dtype,
                                       std::optional<DType> from = std::nullopt);
  // GEMM operands of a MatMul or Conv2d weight stored in `from` (default: the operand's own
  // dtype) and read by the GEMM in `read` (default: the operand format; weight-only quantization
  // reads int4, mxfp4 ... and widens the values to the operand format); [R, S, C, K] conv weights
  // read as [R*S*C, K]. Packed weights are read as int8 or int4 (a 4-bit range).
  const FloatWeights& floatWeights(const models::Graph& g, int id, FloatGemmConfig cfg,
                                   bool transposed, std::optional<DType> from = std::nullopt,
                                   std::optional<DType> read = std::nullopt);
  const PackedWeights& packedWeights(const models::Graph& g, int id, bool transposed, Int8Isa isa,
                                     std::optional<DType> from = std::nullopt,
                                     DType read = DType::Int8);
  void clear();

 private:
  std::string key(const models::Graph& g, int id, const std::string& what) const;

  SyntheticData data_;
  std::map<std::string, std::shared_ptr<const Tensor>> tensors_;
  std::map<std::string, std::unique_ptr<FloatWeights>> floats_;
  std::map<std::string, std::unique_ptr<PackedWeights>> packed_;
};

// The output-channel axis of a weight as its GEMM reads it: 0 for embedding tables and
// transposed MatMul weights (one row per output feature, which keeps a tied LM head and its
// embedding on one quantization), the last axis for other MatMul and Conv2d weights; nullopt
// (per tensor) otherwise.
std::optional<int> weightAxis(const models::Graph& g, int id);

// Symmetric INT8 of a float weight, per channel along `axis` or per tensor.
Tensor quantizeWeight(const Tensor& w, std::optional<int> axis);

// A 2-D float tensor transposed (tiled copy).
Tensor transposeFloat(const Tensor& w);

// A [R, S, C, K] conv weight as the [R*S*C, K] GEMM operand (2-D tensors pass through).
Tensor asGemmOperand(const Tensor& w);

}  // namespace tessel::kernels
