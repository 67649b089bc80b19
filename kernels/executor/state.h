// Internal to the executor: the live tensors of one run, and how ops reach their operands.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "kernels/executor/executor.h"
#include "kernels/numeric/float_format.h"

namespace tessel::kernels {

class RunState {
 public:
  RunState(const models::Graph& g, WeightStore& w, const ExecutorOptions& o,
           const ActivationRanges* ranges, const Feeds* feeds);

  const models::Graph& g;
  WeightStore& weights;
  const ExecutorOptions& opt;

  // An activation (or graph Input, quantized/rounded from its FP32 values) in its graph dtype
  // (INT4 values as an INT8 tensor: storageOf).
  std::shared_ptr<const Tensor> tensor(int id);
  void put(int id, std::shared_ptr<const Tensor> t) {
    live_.at(static_cast<size_t>(id)) = std::move(t);
  }
  void drop(int id) { live_.at(static_cast<size_t>(id)).reset(); }

  DType dtypeOf(int id) const { return g.tensor(id).dtype; }
  // Calibrated params of an INT8 or INT4 tensor (its conversion source's range): symmetric per
  // tensor, [-127, 127] or [-7, 7] over the same range.
  QuantParams quantOf(int id) const;
  // A per-column parameter vector (bias, gamma, beta, BN scale/shift): a stored one as the graph
  // stores it (its dtype), except that INT8/INT4 ops keep theirs in FP32 (the host applies them,
  // and I-BERT folds them in once, offline); a computed one rounded to format f.
  std::vector<float> params(int id, FloatFormat f);
  // Whether a weight operand comes from the store (a converted copy is an activation).
  bool fromStore(int id) const { return g.tensor(id).role == models::TensorRole::Weight; }
  // A GEMM weight operand that is a stored weight or the graph's conversion of one: the weight
  // and the dtype the graph stores it in (so the store can cache the converted, packed form).
  struct WeightRef {
    int id = -1;
    DType from = DType::FP32;
    DType read = DType::FP32;  // the dtype the GEMM reads it in (the operand's graph dtype)
  };
  std::optional<WeightRef> weightRef(int id) const;

 private:
  const ActivationRanges* ranges_;
  const Feeds* feeds_;
  std::vector<std::shared_ptr<const Tensor>> live_;  // by tensor id
};

// Float format of a float dtype (FP32 for integer dtypes, whose parameters stay FP32).
FloatFormat paramFormat(DType d);
// The dtype the executor's tensors of graph dtype d have: INT4 (and UINT4 weight) values live in
// INT8 tensors.
inline DType storageOf(DType d) { return d == DType::Int4 || d == DType::UInt4 ? DType::Int8 : d; }

}  // namespace tessel::kernels
