// FlashAttention: the context output of an attention chain (score Q·Kᵀ → softmax → ·V) computed
// the way a fused accelerator computes it, block by block with an online softmax, never writing
// the [B, heads, S, T] scores or probabilities.
//
// Operands are the [B, rows, cols] views of models::AttentionAttrs (kernels/ops/attention.h): Q
// and K as the score reads them (`score`: heads, head_dim, a/b column offsets, causal, scale,
// kv_heads), V as the context reads it (`context`: head_dim, b_col_offset, kv_heads). Query head
// h reads K/V head h / (heads / kv_heads). For each (batch, head, block of Br query rows), over
// blocks of Bc keys: S = scale·Q_blk K_blkᵀ, entries c > r + (T − S) masked (as batchMatMul
// masks; key blocks wholly above the diagonal are skipped), running row max m and sum l,
// P = exp(S − m_new), partial output O rescaled by exp(m_old − m_new), O += P·V_blk; at the end
// O / l. A row that sees no key (T < S, causal) gives zeros.
//
// Arithmetic: S, m, l, P and O are FP32 (exp: numeric/portable_math.h; every product sums in a
// fixed order, kernels/ops/flash_tiles.h, so every CPU gives the same bits).
//  * float Q, K: rounded to `qk` (the score GEMM's operand format). INT8 Q, K: exact int32 dot
//    products, times scale_Q·scale_K·scale.
//  * float V: P is rounded to each format of `p_rounding` in turn (the dtypes P is stored in on
//    the unfused path) and then, like V, to `v` (the context GEMM's operand format), block by
//    block, before P·V. l sums the FP32 P, as FlashAttention-2 does.
//  * INT8 V: each P block (Br x Bc) is quantized with its own scale, max(P_blk) / 127 (P ≥ 0, so
//    zero point 0), after `p_rounding`; the int32 P·V of the block is added to O times
//    scale_P·scale_V. A block scale uses all 127 steps even in blocks far below the running max,
//    which a fixed 1/127 or I-BERT's 1/256 would round to zero.
//  * The output: O / l rounded to `out` (a float dtype), or quantized with `out_quant` (INT8;
//    clipped values counted in the result's saturation).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/numeric/float_format.h"
#include "kernels/numeric/tensor.h"
#include "kernels/ops/attention.h"

namespace tessel::kernels {

struct FlashConfig {
  int64_t block_q = 64;                 // Br: query rows per block
  int64_t block_kv = 64;                // Bc: keys per block
  FloatFormat qk = FloatFormat::FP32;   // float Q and K are rounded to this
  std::vector<FloatFormat> p_rounding;  // float P is rounded to these, in order, before `v`
  FloatFormat v = FloatFormat::FP32;    // float V (and P) are rounded to this
  DType out = DType::FP32;              // a float dtype, or Int8 (with out_quant)
  QuantParams out_quant;                // Int8 output's params (per tensor)
};

// q: [B, S, *], k: [B, T, *], v: [B, T, *]; Q and K both float or both INT8, V either (INT8
// tensors per-tensor quantized). Returns [B, S, heads * context.head_dim] in cfg.out. Throws
// Error on shapes that do not match the views or block sizes below 1.
Tensor flashAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                      const AttentionParams& score, const AttentionParams& context,
                      const FlashConfig& cfg = {});

// The running state of one block of query rows: exposed so the online softmax can be checked one
// key block at a time.
class OnlineSoftmax {
 public:
  OnlineSoftmax(int64_t rows, int64_t dv);
  // Starts a new query block of `rows` rows (at most the constructor's).
  void reset(int64_t rows);
  // Folds one key block in: s is [rows, cols] (row stride ld) of scaled, masked (-inf) scores and
  // becomes P = exp(s − m_new) (0 where masked); m and l are updated and O is rescaled by
  // exp(m_old − m_new). The caller then adds P·V to output().
  void absorb(float* s, int64_t cols, int64_t ld);
  // out[r * ld + j] = O[r][j] / l[r] (0 for a row with no visible key yet).
  void finish(float* out, int64_t ld) const;

  int64_t rows() const { return rows_; }
  int64_t dv() const { return dv_; }
  const std::vector<float>& max() const { return m_; }  // m per row (-inf: nothing seen)
  const std::vector<float>& sum() const { return l_; }  // l per row
  float* output() { return o_.data(); }                 // O, [rows, dv], unnormalized
  const float* output() const { return o_.data(); }

 private:
  int64_t rows_ = 0, dv_ = 0;
  std::vector<float> m_, l_, o_;
};

// One key block with FP32 operands: st.absorb(s), then O += P·v (v: [cols, dv], row stride ldv).
void flashStep(OnlineSoftmax& st, float* s, int64_t cols, int64_t ld, const float* v, int64_t ldv);

}  // namespace tessel::kernels
