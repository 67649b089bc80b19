// Double-precision layout copies (transpose, slice, concat, gather), numpy batched matmul of two
// activations, and convolution / pooling with groups, dilation and ONNX's NCHW layout.
#include <cmath>
#include <limits>

#include "kernels/ops/views.h"
#include "kernels/reference/reference.h"
#include "util/error.h"

namespace tessel::kernels::ref {

namespace {

using Shape = std::vector<int64_t>;
size_t at(int64_t i) { return static_cast<size_t>(i); }

int64_t count(const Shape& s, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  for (size_t i = from; i < s.size() && i < to; ++i) n *= s[i];
  return n;
}

Shape unflatten(int64_t o, const Shape& s) {
  Shape idx(s.size());
  for (size_t i = s.size(); i-- > 0;) {
    idx[i] = o % s[i];
    o /= s[i];
  }
  return idx;
}

int64_t flatten(const Shape& idx, const Shape& s) {
  int64_t off = 0;
  for (size_t i = 0; i < s.size(); ++i) off = off * s[i] + idx[i];
  return off;
}

}  // namespace

void layout(const models::Graph& g, const models::Op& op,
            const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const Shape& os = g.tensor(op.outputs.at(0)).shape;
  const Shape xs = readShape(g, op, 0);  // imported views read in the op's own shape
  std::vector<Shape> shapes;
  for (size_t i = 0; i < op.inputs.size(); ++i) shapes.push_back(readShape(g, op, i));
  const size_t ax = static_cast<size_t>(op.layout.axis);
  out.assign(at(count(os)), 0.0);
  for (int64_t o = 0; o < count(os); ++o) {
    Shape idx = unflatten(o, os);
    if (op.kind == models::OpKind::Transpose) {
      Shape src(xs.size());
      for (size_t i = 0; i < idx.size(); ++i) src[at(op.layout.perm[i])] = idx[i];
      out[at(o)] = (*in[0])[at(flatten(src, xs))];
    } else if (op.kind == models::OpKind::Slice) {
      const int64_t start = op.layout.start < 0 ? op.layout.start + xs[ax] : op.layout.start;
      idx[ax] = start + idx[ax] * op.layout.step;
      out[at(o)] = (*in[0])[at(flatten(idx, xs))];
    } else if (op.kind == models::OpKind::Concat) {
      size_t k = 0;  // the input this position falls in
      while (idx[ax] >= shapes[k][ax]) idx[ax] -= shapes[k++][ax];
      out[at(o)] = (*in[k])[at(flatten(idx, shapes[k]))];
    } else {  // Gather: out index = data[:axis] + ids.shape + data[axis+1:]
      const Shape& ids = g.tensor(op.inputs.at(1)).shape;
      Shape id_idx(idx.begin() + static_cast<long>(ax),
                   idx.begin() + static_cast<long>(ax + ids.size()));
      int64_t id = static_cast<int64_t>(std::llround((*in[1])[at(flatten(id_idx, ids))]));
      if (id < 0) id += xs[ax];
      Shape src(idx.begin(), idx.begin() + static_cast<long>(ax));
      src.push_back(id);
      src.insert(src.end(), idx.begin() + static_cast<long>(ax + ids.size()), idx.end());
      out[at(o)] = (*in[0])[at(flatten(src, xs))];
    }
  }
}

void batchedMatmul(const models::Graph& g, const models::Op& op,
                   const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const Shape& as = g.tensor(op.inputs.at(0)).shape;
  const Shape& bs = g.tensor(op.inputs.at(1)).shape;
  const Shape& os = g.tensor(op.outputs.at(0)).shape;
  const bool tb = op.attn.transpose_b;
  const int64_t m = as[as.size() - 2], k = as.back(), n = os.back();
  out.assign(at(count(os)), 0.0);
  for (int64_t o = 0; o < count(os); ++o) {
    const Shape idx = unflatten(o, os);
    auto base = [&](const Shape& s) {  // the operand's matrix under broadcasting
      int64_t off = 0;
      for (size_t i = 0; i + 2 < s.size(); ++i)
        off = off * s[i] + (s[i] == 1 ? 0 : idx[idx.size() - s.size() + i]);
      return off * s[s.size() - 2] * s.back();
    };
    const int64_t i = idx[idx.size() - 2], j = idx.back(), ab = base(as), bb = base(bs);
    double s = 0.0;
    for (int64_t e = 0; e < k; ++e)
      s += (*in[0])[at(ab + i * k + e)] * (*in[1])[at(bb + (tb ? j * k + e : e * n + j))];
    // The score's scale and causal mask, with [M, N] as [S, T] (models/graph.h).
    const bool masked = op.attn.causal && j > i + n - m;
    out[at(o)] = masked ? -std::numeric_limits<double>::infinity() : op.attn.scale * s;
  }
}

void convGeneral(const models::Graph& g, const models::Op& op,
                 const std::vector<const std::vector<double>*>& in, std::vector<double>& out) {
  const models::ConvShape& c = op.conv;
  const bool cf = op.channels_first;
  const Shape xs = readShape(g, op, 0);  // an imported view reads as ConvShape says
  const Shape& ws = g.tensor(op.inputs.at(1)).shape;
  const Shape& os = g.tensor(op.outputs.at(0)).shape;
  const int64_t h = cf ? xs[2] : xs[1], w = cf ? xs[3] : xs[2], ch = cf ? xs[1] : xs[3];
  const int64_t k = cf ? ws[0] : ws[3], cg = ch / c.groups, kg = k / c.groups;
  const int64_t p = cf ? os[2] : os[1], q = cf ? os[3] : os[2];
  out.assign(at(count(os)), 0.0);
  for (int64_t b = 0; b < xs[0]; ++b)
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t y = 0; y < p; ++y)
        for (int64_t x = 0; x < q; ++x) {
          double s = in.size() > 2 ? (*in[2])[at(kk)] : 0.0;
          for (int64_t r = 0; r < c.r; ++r)
            for (int64_t t = 0; t < c.s; ++t) {
              const int64_t iy = y * c.stride - c.pad + r * c.dilation;
              const int64_t ix = x * c.stride - c.pad + t * c.dilation;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              for (int64_t e = 0; e < cg; ++e) {
                const int64_t ci = (kk / kg) * cg + e;
                const double xv = (*in[0])[at(cf ? ((b * ch + ci) * h + iy) * w + ix
                                                 : ((b * h + iy) * w + ix) * ch + ci)];
                const double wv = (*in[1])[at(cf ? ((kk * cg + e) * c.r + r) * c.s + t
                                                 : ((r * c.s + t) * cg + e) * k + kk)];
                s += xv * wv;
              }
            }
          out[at(cf ? ((b * k + kk) * p + y) * q + x : ((b * p + y) * q + x) * k + kk)] = s;
        }
}

void poolChannelsFirst(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
                       std::vector<double>& out) {
  const Shape& is = g.tensor(op.inputs.at(0)).shape;  // NCHW
  const int64_t n = is[0], c = is[1], h = is[2], w = is[3];
  const bool global = op.kind == models::OpKind::GlobalAvgPool,
             mx = op.kind == models::OpKind::MaxPool;
  const models::PoolAttrs& a = op.pool;
  const int64_t win = global ? h : a.window, stride = global ? 1 : a.stride,
                pad = global ? 0 : a.pad;
  const int64_t p = global ? 1 : (h + 2 * pad - win) / stride + 1;
  const int64_t q = global ? 1 : (w + 2 * pad - win) / stride + 1;
  const int64_t win_w = global ? w : a.window;
  out.assign(at(n * c * p * q), 0.0);
  for (int64_t b = 0; b < n * c; ++b)
    for (int64_t y = 0; y < p; ++y)
      for (int64_t z = 0; z < q; ++z) {
        double acc = mx ? -std::numeric_limits<double>::infinity() : 0.0;
        for (int64_t r = 0; r < win; ++r)
          for (int64_t s = 0; s < win_w; ++s) {
            const int64_t iy = y * stride - pad + r, ix = z * stride - pad + s;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            const double v = x[at((b * h + iy) * w + ix)];
            acc = mx ? std::max(acc, v) : acc + v;
          }
        // Average pooling counts the padding in its window (PyTorch's default, as the kernels).
        out[at((b * p + y) * q + z)] = mx ? acc : acc / static_cast<double>(win * win_w);
      }
}

}  // namespace tessel::kernels::ref
