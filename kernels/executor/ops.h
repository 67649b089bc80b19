// Internal to the executor: each op kind as a kernel call. GEMM-like ops (anchors) expose their
// call with a pluggable epilogue; elementwise, row-wise and conversion ops are built as chain
// stages, which run either inside an anchor's epilogue (fused) or alone over a tensor
// (applyChain): the same stages both ways, hence the same results.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/chain/op_chain.h"
#include "kernels/executor/state.h"

namespace tessel::kernels {

// What an epilogue chain carries at one point.
struct Flow {
  Domain domain = Domain::Float;
  DType dtype = DType::FP32;  // what the values are: a float dtype, Int8/Int4, or Int32
  QuantParams quant;          // Int8/Int32 domains: per tensor, or per column for accumulators
};

// Chain stages plus the tensors they point into (residuals), which must outlive every run.
struct BuiltChain {
  OpChain chain;
  Flow out;
  std::vector<std::shared_ptr<const Tensor>> keep;
};

// A GEMM-like op with its operands ready: `own` is its own epilogue (bias, rounding to its
// format or requantization to INT8); `run` computes it with any epilogue starting from `acc`.
struct AnchorCall {
  Flow acc;
  BuiltChain own;
  std::function<Tensor(const OpChain&)> run;
};

AnchorCall prepareAnchor(RunState& s, const models::Op& op);

// Where a chain runs: over one attention head's [S, T] score rows (causal: mask offset T - S,
// needed again once scores are quantized, since -inf does not survive INT8) or whole rows.
struct ChainSite {
  std::optional<int64_t> causal_offset;
};

// `op` as stages on values of its input `chain_tensor` arriving as `in`.
BuiltChain memberChain(RunState& s, const models::Op& op, int chain_tensor, const Flow& in,
                       const ChainSite& site);

// Runs a non-GEMM op alone: through memberChain when it has a chain form, else directly
// (embedding, pooling, conversions of weights).
std::shared_ptr<const Tensor> runAlone(RunState& s, const models::Op& op);

// Ops without a blocked or chain form, computed in FP32 (executor/float_ops.cpp).
std::shared_ptr<const Tensor> runFloatOp(RunState& s, const models::Op& op);

// A computed tensor, shared; float tensors carry no quantization params.
std::shared_ptr<const Tensor> shared(Tensor t);

// The mask offset of a causal score tensor, looking through conversion ops; nullopt otherwise.
std::optional<int64_t> causalOffset(const models::Graph& g, int tensor_id);
// Entries of an INT8 causal score tensor that masking drives to qmin (0 for other tensors).
int64_t maskedEntries(const models::Graph& g, int tensor_id);

// The flow of a materialized tensor.
Flow flowOf(const Tensor& t);

// Chain stages of the integer-only (I-BERT) ops on INT32 values of scale `in.quant`.
BuiltChain ibertChain(RunState& s, const models::Op& op, const Flow& in, const ChainSite& site);
// INT8 values minus their zero point, as INT32 of the same scale: what I-BERT ops read.
Tensor widenToInt32(const Tensor& x);
// Applies `chain` to each [S, T] matrix of a [..., S, T] tensor separately.
Tensor applyPerHead(const OpChain& chain, const Tensor& x);

}  // namespace tessel::kernels
