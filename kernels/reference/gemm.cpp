// Double-precision MatMul, attention and convolution, straight from the definitions in
// models/graph.h.
#include <limits>

#include "kernels/reference/reference.h"

namespace tessel::kernels::ref {

namespace {
size_t at(int64_t i) { return static_cast<size_t>(i); }
}  // namespace

void matmul(const models::Graph& g, const models::Op& op,
            const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const auto& xs = g.tensor(op.inputs.at(0)).shape;
  const auto& os = g.tensor(op.outputs.at(0)).shape;
  const auto& ws = g.tensor(op.inputs.at(1)).shape;
  // K from the weight: an imported view's stored last dim need not be K (rows fold either way).
  const int64_t k = op.transpose_b ? ws.at(1) : ws.at(0), n = os.back();
  const int64_t in_rows = g.tensor(op.inputs.at(0)).elements() / k;
  const int64_t out_rows = g.tensor(op.outputs.at(0)).elements() / n;
  // Fewer output rows than input rows: each batch's last rows (GPT-2's LM head).
  const int64_t batch = xs.size() >= 3 ? xs[0] : 1;
  const int64_t per_in = in_rows / batch, per_out = out_rows / batch;
  const std::vector<double>& x = *in[0];
  const std::vector<double>& w = *in[1];
  out.assign(at(out_rows * n), 0.0);
  for (int64_t r = 0; r < out_rows; ++r) {
    const int64_t src = (r / per_out) * per_in + (per_in - per_out) + r % per_out;
    for (int64_t c = 0; c < n; ++c) {
      double s = in.size() > 2 ? (*in[2])[at(c)] : 0.0;
      for (int64_t i = 0; i < k; ++i)
        s += x[at(src * k + i)] * (op.transpose_b ? w[at(c * ws[1] + i)] : w[at(i * ws[1] + c)]);
      out[at(r * n + c)] = s;
    }
  }
}

void attention(const models::Graph& g, const models::Op& op,
               const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const models::AttentionAttrs& a = op.attn;
  const auto& bs = g.tensor(op.inputs.at(1)).shape;  // [B, T, width_b]
  const auto& as = g.tensor(op.inputs.at(0)).shape;
  const int64_t batch = bs[0], t = bs[1], wb = bs[2], hd = a.head_dim, heads = a.heads;
  const int64_t group = heads / a.kvHeads();  // GQA: query head h reads K/V head h / group
  const std::vector<double>& x = *in[0];
  const std::vector<double>& y = *in[1];
  out.assign(at(g.tensor(op.outputs.at(0)).elements()), 0.0);
  if (a.transpose_b) {  // score [B, H, S, T]
    const int64_t s = as[1], wa = as[2], offset = t - s;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t i = 0; i < s; ++i)
          for (int64_t j = 0; j < t; ++j) {
            double d = 0.0;
            for (int64_t e = 0; e < hd; ++e)
              d += x[at((b * s + i) * wa + a.a_col_offset + h * hd + e)] *
                   y[at((b * t + j) * wb + a.b_col_offset + (h / group) * hd + e)];
            const bool masked = a.causal && j > i + offset;
            out[at(((b * heads + h) * s + i) * t + j)] =
                masked ? -std::numeric_limits<double>::infinity() : a.scale * d;
          }
    return;
  }
  const int64_t s = as[2];  // context: probabilities [B, H, S, T] -> [B, S, H*hd]
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < s; ++i)
        for (int64_t e = 0; e < hd; ++e) {
          double d = 0.0;
          for (int64_t j = 0; j < t; ++j)
            d += x[at(((b * heads + h) * s + i) * t + j)] *
                 y[at((b * t + j) * wb + a.b_col_offset + (h / group) * hd + e)];
          out[at((b * s + i) * heads * hd + h * hd + e)] = d;
        }
}

void conv(const models::Graph& g, const models::Op& op,
          const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const models::ConvShape& c = op.conv;
  const std::vector<double>& x = *in[0];
  const std::vector<double>& w = *in[1];  // [R, S, C, K]
  out.assign(at(c.n * c.p * c.q * c.k), 0.0);
  for (int64_t n = 0; n < c.n; ++n)
    for (int64_t p = 0; p < c.p; ++p)
      for (int64_t q = 0; q < c.q; ++q)
        for (int64_t k = 0; k < c.k; ++k) {
          double s = in.size() > 2 ? (*in[2])[at(k)] : 0.0;
          for (int64_t r = 0; r < c.r; ++r)
            for (int64_t t = 0; t < c.s; ++t) {
              const int64_t ih = p * c.stride - c.pad + r, iw = q * c.stride - c.pad + t;
              if (ih < 0 || ih >= c.h || iw < 0 || iw >= c.w) continue;  // zero padding
              for (int64_t ch = 0; ch < c.c; ++ch)
                s += x[at(((n * c.h + ih) * c.w + iw) * c.c + ch)] *
                     w[at(((r * c.s + t) * c.c + ch) * c.k + k)];
            }
          out[at(((n * c.p + p) * c.q + q) * c.k + k)] = s;
        }
  (void)g;
}

}  // namespace tessel::kernels::ref
