#include "kernels/ops/attention.h"

#include <string>
#include <vector>

#include "kernels/gemm/driver.h"
#include "kernels/gemm/int8.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

struct Dims {
  int64_t batch = 0, s = 0, t = 0;  // queries, keys
  int64_t da = 0, db = 0;           // row widths of the two operands
};

Dims checkDims(const Tensor& a, const Tensor& b, const AttentionParams& p) {
  if (b.rank() != 3 || p.heads <= 0 || p.head_dim <= 0)
    throw Error("batchMatMul: b must be [B, T, *] and heads, head_dim positive");
  if (p.heads % p.kvHeads() != 0)
    throw Error("batchMatMul: " + std::to_string(p.heads) + " query heads do not group onto " +
                std::to_string(p.kvHeads()) + " K/V heads");
  Dims d;
  d.batch = b.dim(0);
  d.t = b.dim(1);
  d.db = b.dim(2);
  const bool ok_a = p.transpose_b ? a.rank() == 3 && a.dim(0) == d.batch
                                  : a.rank() == 4 && a.dim(0) == d.batch && a.dim(1) == p.heads &&
                                        a.dim(3) == d.t;
  if (!ok_a) throw Error("batchMatMul: operand shapes do not match the attention view");
  d.s = p.transpose_b ? a.dim(1) : a.dim(2);
  d.da = p.transpose_b ? a.dim(2) : d.t;
  const int64_t span = p.heads * p.head_dim, kv_span = p.kvHeads() * p.head_dim;
  if ((p.transpose_b && p.a_col_offset + span > d.da) || p.b_col_offset + kv_span > d.db)
    throw Error("batchMatMul: head columns exceed the operand width");
  return d;
}

// The op's own scale and mask, then the caller's epilogue.
OpChain headChain(const AttentionParams& p, const Dims& d, bool integer, const OpChain& user) {
  OpChain c(integer ? Domain::Int32 : Domain::Float);
  if (p.transpose_b && !integer && p.scale != 1.0f) c.mul(p.scale);
  if (p.transpose_b && p.causal) c.causalMask(d.t - d.s);
  return c.then(user);
}

// A-operand view of head h of batch n.
detail::ASource headA(const Tensor& a, const AttentionParams& p, const Dims& d, int64_t n,
                      int64_t h) {
  detail::ASource src;
  src.domain = detail::domainOf(a.dtype());
  src.m = d.s;
  src.k = p.transpose_b ? p.head_dim : d.t;
  src.ld = d.da;
  const int64_t off = p.transpose_b ? (n * d.s) * d.da + p.a_col_offset + h * p.head_dim
                                    : ((n * p.heads + h) * d.s) * d.t;
  src.data = detail::offsetOf(detail::dataOf(a), src.domain, 0, off, 0);
  src.zero_point = a.quant.zero_point.at(0);
  return src;
}

}  // namespace

Tensor batchMatMul(const Tensor& a, const Tensor& b, const AttentionParams& p,
                   const FloatGemmConfig& cfg, const OpChain& epilogue) {
  const Dims d = checkDims(a, b, p);
  const bool integer = a.dtype() == DType::Int8 && b.dtype() == DType::Int8;
  if (!integer && (!a.isFloat() || !b.isFloat()))
    throw Error("batchMatMul: operands must be both float or both int8");
  const OpChain chain = headChain(p, d, integer, epilogue);
  const std::vector<int64_t> shape = p.transpose_b
                                         ? std::vector<int64_t>{d.batch, p.heads, d.s, d.t}
                                         : std::vector<int64_t>{d.batch, d.s, p.heads * p.head_dim};
  const DType acc = integer ? DType::Int32 : dtypeOf(cfg.accumulate);
  Tensor out = Tensor::uninitialized(shape, chain.outputDType(acc));
  QuantParams acc_q = QuantParams::perTensor(1.0f);
  if (integer) {
    const float s = a.quant.scale.at(0) * b.quant.scale.at(0) * (p.transpose_b ? p.scale : 1.0f);
    acc_q = QuantParams::perTensor(s, 0, INT32_MIN, INT32_MAX);
  }
  out.quant = chain.outputQuant(acc_q);
  const Domain out_d = chain.outputDomain(integer ? Domain::Int32 : Domain::Float);
  const int64_t out_ld = p.transpose_b ? d.t : p.heads * p.head_dim;
  const int64_t n_cols = p.transpose_b ? d.t : p.head_dim;
  std::vector<float> bh;  // one head of B, rounded to the operand format
  for (int64_t n = 0; n < d.batch; ++n)
    for (int64_t h = 0; h < p.heads; ++h) {
      const detail::ASource src = headA(a, p, d, n, h);
      // GQA: query head h reads K/V head h / group.
      const int64_t kvh = h / (p.heads / p.kvHeads());
      const int64_t b_off = n * d.t * d.db + p.b_col_offset + kvh * p.head_dim;
      const int64_t out_off =
          p.transpose_b ? ((n * p.heads + h) * d.s) * d.t : n * d.s * out_ld + h * p.head_dim;
      const detail::OutView view{detail::offsetOf(detail::dataOf(out), out_d, 0, out_off, 0),
                                 out_ld};
      if (integer) {
        const PackedWeights w(b.i8() + b_off, src.k, n_cols, d.db, p.transpose_b, b.quant);
        detail::runInt8Gemm(src, w, {}, chain, view, out.saturation);
        continue;
      }
      const float* bp = b.f32() + b_off;
      bh.resize(static_cast<size_t>(d.t * p.head_dim));  // the [T, head_dim] slice
      for (int64_t r = 0; r < d.t; ++r)
        for (int64_t c = 0; c < p.head_dim; ++c)
          bh[static_cast<size_t>(r * p.head_dim + c)] = roundTo(bp[r * d.db + c], cfg.operands);
      const detail::FloatB fb{bh.data(), src.k, n_cols, p.head_dim, p.transpose_b};
      detail::runFloatGemm(src, fb, cfg, {}, chain, view, out.saturation);
    }
  return out;
}

}  // namespace tessel::kernels
