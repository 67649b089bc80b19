// The FlashAttention driver (kernels/ops/flash_attention.h): operands packed once per head, then
// per block of query rows the loop over key blocks.
#include "kernels/ops/flash_attention.h"

#include <algorithm>
#include <limits>
#include <string>

#include "kernels/numeric/quantize.h"
#include "kernels/numeric/vec_math.h"
#include "kernels/ops/flash_tiles.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

struct Dims {
  int64_t batch = 0, s = 0, t = 0;  // queries, keys
  int64_t wq = 0, wk = 0, wv = 0;   // row widths of Q, K and V
  int64_t heads = 0, group = 1;     // query heads; query heads per K/V head
  int64_t dk = 0, dv = 0;           // head widths of Q/K and of V
  int64_t offset = 0;               // causal: T - S
};

void require(bool ok, const std::string& what) {
  if (!ok) throw Error("flashAttention: " + what);
}

Dims checkDims(const Tensor& q, const Tensor& k, const Tensor& v, const AttentionParams& sp,
               const AttentionParams& cp, const FlashConfig& cfg) {
  require(q.rank() == 3 && k.rank() == 3 && v.rank() == 3, "Q, K and V must be [B, rows, *]");
  require(sp.heads > 0 && sp.head_dim > 0 && cp.head_dim > 0, "heads and head_dim must be > 0");
  require(cp.heads == sp.heads, "the score and the context have different head counts");
  require(sp.heads % sp.kvHeads() == 0 && sp.kvHeads() == cp.kvHeads(),
          "query heads do not group onto one set of K/V heads");
  require(cfg.block_q > 0 && cfg.block_kv > 0, "block sizes must be at least 1");
  Dims d;
  d.batch = q.dim(0);
  d.s = q.dim(1);
  d.t = k.dim(1);
  d.wq = q.dim(2);
  d.wk = k.dim(2);
  d.wv = v.dim(2);
  d.heads = sp.heads;
  d.group = sp.heads / sp.kvHeads();
  d.dk = sp.head_dim;
  d.dv = cp.head_dim;
  d.offset = d.t - d.s;
  require(k.dim(0) == d.batch && v.dim(0) == d.batch && v.dim(1) == d.t,
          "Q, K and V disagree on the batch or the key count");
  require(sp.a_col_offset + d.heads * d.dk <= d.wq &&
              sp.b_col_offset + sp.kvHeads() * d.dk <= d.wk &&
              cp.b_col_offset + sp.kvHeads() * d.dv <= d.wv,
          "head columns exceed the operand width");
  require(d.dk * 255 * 255 < std::numeric_limits<int32_t>::max(),
          "INT8 score sums would overflow int32");
  return d;
}

bool isInt8(const Tensor& t) {
  if (t.dtype() != DType::Int8) return false;
  require(!t.quant.perChannel(), "INT8 operands must be quantized per tensor");
  require(t.quant.zero_point.at(0) >= -128 && t.quant.zero_point.at(0) <= 127,
          "INT8 zero points must lie in [-128, 127]");
  return true;
}

// Columns [col, col + width) of rows [0, rows) of batch n of x ([B, rows, ld]), as floats rounded
// to fmt (INT8: the integer minus the zero point, exact), row-major or transposed to [width, rows].
std::vector<float> pack(const Tensor& x, int64_t n, int64_t col, int64_t width, FloatFormat fmt,
                        bool transpose) {
  const int64_t rows = x.dim(1), ld = x.dim(2);
  std::vector<float> out(static_cast<size_t>(rows * width));
  const bool int8 = x.dtype() == DType::Int8;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < width; ++c) {
      const int64_t at = (n * rows + r) * ld + col + c;
      const float value = int8 ? static_cast<float>(x.i8()[at] - x.quant.zero_point.at(0))
                               : roundTo(x.f32()[at], fmt);
      out[static_cast<size_t>(transpose ? c * rows + r : r * width + c)] = value;
    }
  return out;
}

// c = a·b ([m, k] by [k, n], row strides lda, ldb; c: [m, n] at stride n) on integer values whose
// products are at most max_product in magnitude: FP32 sums of up to 2^24 / max_product of them are
// exact integers, so k is taken in chunks of that many terms, each chunk's sum added to an int32
// total. Exact, hence the same as any integer GEMM (255 x 255 products: 258 terms a chunk).
void exactProduct(const float* a, int64_t lda, const float* b, int64_t ldb, int64_t m, int64_t n,
                  int64_t k, int64_t max_product, std::vector<float>& chunk,
                  std::vector<int32_t>& c) {
  const int64_t terms = (int64_t{1} << 24) / max_product;
  std::fill(c.begin(), c.begin() + m * n, 0);
  for (int64_t i0 = 0; i0 < k; i0 += terms) {
    std::fill(chunk.begin(), chunk.begin() + m * n, 0.0f);
    detail::addProduct(a + i0, lda, b + i0 * ldb, ldb, chunk.data(), n, m, n,
                       std::min(terms, k - i0));
    for (int64_t i = 0; i < m * n; ++i) c[static_cast<size_t>(i)] += static_cast<int32_t>(chunk[i]);
  }
}

// One (batch, K/V head)'s operands, packed once for the query heads that share them.
struct KvHead {
  std::vector<float> kt, v;  // [dk, T] and [T, dv]: rounded floats, or INT8 minus zero point
};

// Scratch of one query block.
struct Block {
  int64_t r0 = 0, rows = 0;
  std::vector<float> s;      // [Br, Bc] scores, then P (INT8 context: P's integers)
  std::vector<float> chunk;  // [Br, max(Bc, dv)] an exact product's partial sums
  std::vector<int32_t> acc;  // [Br, max(Bc, dv)] integer sums
};

struct Run {
  const Tensor &q, &k, &v;
  const AttentionParams &sp, &cp;
  const FlashConfig& cfg;
  Dims d;
  bool int_scores = false, int_context = false;
  float score_scale = 1.0f;  // INT8 scores: scale_Q * scale_K * scale

  void scores(const float* qh, const KvHead& kv, Block& b, int64_t c0, int64_t cols) const {
    const int64_t bc = cfg.block_kv;
    const float* qb = qh + b.r0 * d.dk;
    if (int_scores) {
      exactProduct(qb, d.dk, kv.kt.data() + c0, d.t, b.rows, cols, d.dk, 255 * 255, b.chunk, b.acc);
      for (int64_t r = 0; r < b.rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          b.s[r * bc + c] = static_cast<float>(b.acc[r * cols + c]) * score_scale;
    } else {
      for (int64_t r = 0; r < b.rows; ++r) std::fill_n(b.s.data() + r * bc, cols, 0.0f);
      detail::addProduct(qb, d.dk, kv.kt.data() + c0, d.t, b.s.data(), bc, b.rows, cols, d.dk);
      if (sp.scale != 1.0f)
        for (int64_t r = 0; r < b.rows; ++r)
          for (int64_t c = 0; c < cols; ++c) b.s[r * bc + c] *= sp.scale;
    }
    if (!sp.causal || c0 + cols - 1 <= b.r0 + d.offset) return;  // no masked entry in the block
    for (int64_t r = 0; r < b.rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        if (c0 + c > b.r0 + r + d.offset) b.s[r * bc + c] = -std::numeric_limits<float>::infinity();
  }

  // O += P·V for the block's P (in b.s), in the context's arithmetic.
  void context(OnlineSoftmax& st, const KvHead& kv, Block& b, int64_t c0, int64_t cols) const {
    const int64_t bc = cfg.block_kv;
    for (int64_t r = 0; r < b.rows; ++r) {
      float* p = b.s.data() + r * bc;
      for (FloatFormat f : cfg.p_rounding) roundInPlace(p, cols, f);
      if (!int_context) roundInPlace(p, cols, cfg.v);
    }
    const float* vb = kv.v.data() + c0 * d.dv;
    if (!int_context) {
      detail::addProduct(b.s.data(), bc, vb, d.dv, st.output(), d.dv, b.rows, d.dv, cols);
      return;
    }
    float p_max = 0.0f;
    for (int64_t r = 0; r < b.rows; ++r)
      for (int64_t c = 0; c < cols; ++c) p_max = std::max(p_max, b.s[r * bc + c]);
    if (p_max == 0.0f) return;  // nothing visible in this block survives the rounding
    const float p_scale = p_max / 127.0f;
    for (int64_t r = 0; r < b.rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        float& p = b.s[r * bc + c];
        p = std::clamp(detail::rintFast(p / p_scale), 0.0f, 127.0f);
      }
    exactProduct(b.s.data(), bc, vb, d.dv, b.rows, d.dv, cols, 127 * 255, b.chunk, b.acc);
    const float to_real = p_scale * v.quant.scale.at(0);
    float* o = st.output();
    for (int64_t i = 0; i < b.rows * d.dv; ++i) o[i] += static_cast<float>(b.acc[i]) * to_real;
  }

  // Keys a block of query rows sees: all, or up to the causal diagonal of its last row.
  int64_t visibleKeys(const Block& b) const {
    if (!sp.causal) return d.t;
    return std::clamp<int64_t>(b.r0 + b.rows + d.offset, 0, d.t);
  }

  void head(int64_t n, int64_t h, const KvHead& kv, float* out) const {
    const std::vector<float> qh = pack(q, n, sp.a_col_offset + h * d.dk, d.dk, cfg.qk, false);
    const int64_t br = cfg.block_q, bc = cfg.block_kv;
    Block b;
    b.s.resize(static_cast<size_t>(br * bc));
    b.chunk.resize(static_cast<size_t>(br * std::max(bc, d.dv)));
    b.acc.resize(b.chunk.size());
    OnlineSoftmax st(br, d.dv);
    const int64_t ld = d.heads * d.dv;
    for (b.r0 = 0; b.r0 < d.s; b.r0 += br) {
      b.rows = std::min(br, d.s - b.r0);
      st.reset(b.rows);
      const int64_t keys = visibleKeys(b);
      for (int64_t c0 = 0; c0 < keys; c0 += bc) {
        const int64_t cols = std::min(bc, keys - c0);
        scores(qh.data(), kv, b, c0, cols);
        st.absorb(b.s.data(), cols, bc);
        context(st, kv, b, c0, cols);
      }
      st.finish(out + (n * d.s + b.r0) * ld + h * d.dv, ld);
    }
  }

  KvHead packKv(int64_t n, int64_t kvh) const {
    return {pack(k, n, sp.b_col_offset + kvh * d.dk, d.dk, cfg.qk, true),
            pack(v, n, cp.b_col_offset + kvh * d.dv, d.dv, cfg.v, false)};
  }
};

}  // namespace

Tensor flashAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                      const AttentionParams& score, const AttentionParams& context,
                      const FlashConfig& cfg) {
  Run run{q, k, v, score, context, cfg, checkDims(q, k, v, score, context, cfg)};
  run.int_scores = isInt8(q);
  require(run.int_scores == isInt8(k) && (run.int_scores || (q.isFloat() && k.isFloat())),
          "Q and K must be both float or both INT8");
  run.int_context = isInt8(v);
  require(run.int_context || v.isFloat(), "V must be float or INT8");
  if (run.int_scores) run.score_scale = q.quant.scale.at(0) * k.quant.scale.at(0) * score.scale;
  const bool int_out = cfg.out == DType::Int8;
  require(int_out || (!isInteger(cfg.out) && !isBlockScaled(cfg.out)),
          "the output must be a plain float dtype or INT8");
  const Dims& d = run.d;
  Tensor out =
      Tensor::uninitialized({d.batch, d.s, d.heads * d.dv}, int_out ? DType::FP32 : cfg.out);
  for (int64_t n = 0; n < d.batch; ++n)
    for (int64_t kvh = 0; kvh < d.heads / d.group; ++kvh) {
      const KvHead kv = run.packKv(n, kvh);
      for (int64_t h = kvh * d.group; h < (kvh + 1) * d.group; ++h) run.head(n, h, kv, out.f32());
    }
  if (int_out) return quantize(out, cfg.out_quant);
  roundInPlace(out.f32(), out.numel(), formatOf(cfg.out));
  return out;
}

}  // namespace tessel::kernels
