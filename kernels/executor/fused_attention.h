// Internal to the executor: attention chains (models/chains.h: score → conversions → softmax →
// conversions → context) run as one FlashAttention kernel (kernels/ops/flash_attention.h) when
// ExecutorOptions::fuse_attention asks. The scores and probabilities stay inside the kernel in
// FP32; the chain's dtypes decide its operands: the score's dtype rounds (or, INT8, is) Q and K,
// the dtypes P passes through between the softmax and the context round it, and the context's
// dtype rounds V and P (or, INT8, quantizes P per block) and the output.
#pragma once

#include <memory>
#include <vector>

#include "kernels/executor/executor.h"
#include "kernels/executor/state.h"
#include "models/chains.h"

namespace tessel::kernels {

// Whether the executor runs chain `c` as one kernel. The others keep the ordinary path:
//  * per-element ops between the score and the softmax other than conversions (an exported scale
//    or mask: the kernel applies only the score's own scale and causal mask);
//  * block-scaled or INT4 tensors anywhere in the chain (their blocks need whole rows), and
//    a GEMM whose operands and output disagree on INT8 versus float;
//  * INT8 probabilities converted to float before the context (P would need the softmax's
//    calibrated scale, which the unnormalized P of the online softmax does not have);
//  * the I-BERT integer softmax (integer_nonlinear on an INT8 softmax) and FP16/BF16
//    accumulation (low_precision_accumulate): neither has a blockwise form here;
//  * Q, K or V that are not [B, rows, *] views.
bool canFuseAttention(const models::Graph& g, const models::ChainGroup& c,
                      const ExecutorOptions& o);

// The ops of every chain run as one kernel (none without o.fuse_attention), each chain score
// first, context last.
std::vector<std::vector<int>> fusedAttentionChains(const models::Graph& g,
                                                   const ExecutorOptions& o);

// Runs one such chain (its ops, score first, context last): the context's output.
std::shared_ptr<const Tensor> runFusedAttention(RunState& s, const std::vector<int>& ops);

}  // namespace tessel::kernels
