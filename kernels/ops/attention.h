// Batched GEMM for multi-head attention on [B, rows, heads*head_dim] views, mirroring
// models::AttentionAttrs (see models/graph.h):
//   score   (transpose_b): a = Q source [B,S,*], b = K source [B,T,*]
//           -> [B, heads, S, T] = scale * Q_h K_h^T, causal entries above the diagonal (offset by
//           T - S so decode queries see the whole cache) masked to -inf (INT32_MIN for int8).
//   context (!transpose_b): a = probabilities [B, heads, S, T], b = V source [B,T,*]
//           -> [B, S, heads*head_dim], heads merged back.
// Head h of operand X occupies columns [X_col_offset + h*head_dim, ... + head_dim). With
// kv_heads < heads (GQA), query head h reads K/V head h / (heads / kv_heads) of b.
#pragma once

#include <cstdint>

#include "kernels/chain/op_chain.h"
#include "kernels/gemm/float.h"
#include "kernels/numeric/tensor.h"
#include "models/graph.h"

namespace tessel::kernels {

// The graph's attention attributes are the kernel's parameters: one definition, no copying.
using AttentionParams = models::AttentionAttrs;

// Float operands (FP32/FP16/BF16 per cfg) or both Int8 (exact int32 products; the score's
// `scale` is folded into the output's quant scale, not applied to the integers). `epilogue`
// runs on each head's output matrix ([S, T] for scores: whole rows, so softmax fuses; [S,
// head_dim] for context), after the scale and the mask.
Tensor batchMatMul(const Tensor& a, const Tensor& b, const AttentionParams& p,
                   const FloatGemmConfig& cfg = {}, const OpChain& epilogue = {});

}  // namespace tessel::kernels
