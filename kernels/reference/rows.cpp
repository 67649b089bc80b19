// Double-precision softmax, layer norm, batch norm and pooling.
#include <cmath>
#include <limits>

#include "kernels/reference/reference.h"

namespace tessel::kernels::ref {

namespace {
size_t at(int64_t i) { return static_cast<size_t>(i); }
}  // namespace

void rowwise(const models::Graph& g, const models::Op& op,
             const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const std::vector<double>& x = *in[0];
  const int64_t n = g.tensor(op.inputs.at(0)).shape.back();
  const int64_t rows = static_cast<int64_t>(x.size()) / n;
  out.resize(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* v = x.data() + r * n;
    double* o = out.data() + r * n;
    if (op.kind == models::OpKind::BatchNorm) {
      for (int64_t c = 0; c < n; ++c) o[c] = v[c] * (*in[1])[at(c)] + (*in[2])[at(c)];
    } else if (op.kind == models::OpKind::Softmax) {
      double m = -std::numeric_limits<double>::infinity(), sum = 0.0;
      for (int64_t c = 0; c < n; ++c) m = std::max(m, v[c]);
      for (int64_t c = 0; c < n; ++c) sum += std::exp(v[c] - m);
      for (int64_t c = 0; c < n; ++c) o[c] = std::exp(v[c] - m) / sum;
    } else {  // LayerNorm: population variance
      double mean = 0.0, var = 0.0;
      for (int64_t c = 0; c < n; ++c) mean += v[c];
      mean /= static_cast<double>(n);
      for (int64_t c = 0; c < n; ++c) var += (v[c] - mean) * (v[c] - mean);
      var /= static_cast<double>(n);
      const double inv = 1.0 / std::sqrt(var + static_cast<double>(op.eps));
      for (int64_t c = 0; c < n; ++c)
        o[c] = (v[c] - mean) * inv * (*in[1])[at(c)] + (*in[2])[at(c)];
    }
  }
}

void pooling(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
             std::vector<double>& out) {
  const auto& is = g.tensor(op.inputs.at(0)).shape;  // NHWC
  const auto& os = g.tensor(op.outputs.at(0)).shape;
  const int64_t n = is[0], h = is[1], w = is[2], c = is[3];
  out.assign(at(g.tensor(op.outputs.at(0)).elements()), 0.0);
  if (op.kind == models::OpKind::GlobalAvgPool) {
    for (int64_t b = 0; b < n; ++b)
      for (int64_t i = 0; i < h * w; ++i)
        for (int64_t k = 0; k < c; ++k)
          out[at(b * c + k)] += x[at((b * h * w + i) * c + k)] / static_cast<double>(h * w);
    return;
  }
  const models::PoolAttrs& a = op.pool;
  const bool is_max = op.kind == models::OpKind::MaxPool;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t p = 0; p < os[1]; ++p)
      for (int64_t q = 0; q < os[2]; ++q)
        for (int64_t k = 0; k < c; ++k) {
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          for (int64_t r = 0; r < a.window; ++r)
            for (int64_t s = 0; s < a.window; ++s) {
              const int64_t ih = p * a.stride - a.pad + r, iw = q * a.stride - a.pad + s;
              if (ih < 0 || ih >= h || iw < 0 || iw >= w) continue;  // padding never wins a max
              const double v = x[at(((b * h + ih) * w + iw) * c + k)];
              acc = is_max ? std::max(acc, v) : acc + v;
            }
          // Average pooling divides by the whole window, padding included (PyTorch's default).
          out[at(((b * os[1] + p) * os[2] + q) * c + k)] =
              is_max ? acc : acc / static_cast<double>(a.window * a.window);
        }
}

}  // namespace tessel::kernels::ref
