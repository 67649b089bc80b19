#include "kernels/weights/prune.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

int64_t product(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= shape[i];
  return n;
}

// |v| as the pruning key; NaN ranks below every number (pruned first) so the order stays strict.
float magnitude(float v) { return std::isnan(v) ? -1.0f : std::fabs(v); }

// Keeps the `keep` values of largest magnitude of v[0, n) (ties: the lower index), zeroes the
// rest. `order` is scratch space.
void keepLargest(float* v, int64_t n, int64_t keep, std::vector<int64_t>& order) {
  if (keep >= n) return;
  order.resize(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  const auto before = [v](int64_t a, int64_t b) {
    const float ma = magnitude(v[a]), mb = magnitude(v[b]);
    return ma > mb || (ma == mb && a < b);
  };
  std::nth_element(order.begin(), order.begin() + keep, order.end(), before);
  for (auto it = order.begin() + keep; it != order.end(); ++it) v[*it] = 0.0f;
}

}  // namespace

PruneLayout matmulLayout(const std::vector<int64_t>& shape, bool transposed) {
  PruneLayout l;
  if (shape.size() < 2) {  // a vector: one channel whose reduction is the whole tensor
    l.reduction = product(shape, 0, shape.size());
    return l;
  }
  const size_t r = shape.size();
  l.batch = product(shape, 0, r - 2);
  l.reduction = transposed ? shape[r - 1] : shape[r - 2];
  l.channels = transposed ? shape[r - 2] : shape[r - 1];
  l.channels_last = !transposed;
  return l;
}

PruneLayout convLayout(const std::vector<int64_t>& shape, bool channels_first) {
  PruneLayout l;
  if (shape.empty()) return l;
  l.channels_last = !channels_first;
  l.channels = channels_first ? shape.front() : shape.back();
  l.reduction =
      channels_first ? product(shape, 1, shape.size()) : product(shape, 0, shape.size() - 1);
  return l;
}

std::optional<PruneLayout> pruneLayout(const models::Graph& g, int id) {
  const std::vector<int64_t>& shape = g.tensor(id).shape;
  for (int c : g.consumersOf(id)) {
    const models::Op& op = g.op(c);
    if (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) {
      if (auto l = pruneLayout(g, op.outputs.at(0))) return l;
      continue;
    }
    const bool is_weight = op.inputs.size() > 1 && op.inputs[1] == id;
    if (op.kind == OpKind::MatMul && is_weight) return matmulLayout(shape, op.transpose_b);
    if (op.kind == OpKind::Conv2d && is_weight) return convLayout(shape, op.channels_first);
  }
  return std::nullopt;
}

void pruneRun(float* values, int64_t n, const Sparsity& s) {
  if (s.dense() || n <= 0) return;
  std::vector<int64_t> order;
  if (!s.structured()) {
    const auto keep = std::max<int64_t>(1, std::llround(s.density * static_cast<double>(n)));
    keepLargest(values, n, keep, order);
    return;
  }
  for (int64_t g0 = 0; g0 < n; g0 += s.m) {
    const int64_t size = std::min<int64_t>(s.m, n - g0);
    keepLargest(values + g0, size, std::min<int64_t>(s.n, size), order);
  }
}

void pruneInPlace(Tensor& w, const PruneLayout& l, const Sparsity& s) {
  if (!w.isFloat()) throw Error("pruneWeight: needs a float tensor");
  if (l.batch * l.reduction * l.channels != w.numel())
    throw Error("pruneWeight: a layout of " + std::to_string(l.batch) + " x " +
                std::to_string(l.reduction) + " x " + std::to_string(l.channels) +
                " values does not cover a tensor of " + std::to_string(w.numel()));
  if (s.dense()) return;
  float* v = w.f32();
  const int64_t r = l.reduction, ch = l.channels;
  std::vector<float> run(static_cast<size_t>(l.channels_last ? r : 0));
  for (int64_t b = 0; b < l.batch; ++b) {
    for (int64_t c = 0; c < ch; ++c) {
      if (!l.channels_last) {  // the channel's reduction list is contiguous
        pruneRun(v + (b * ch + c) * r, r, s);
        continue;
      }
      float* base = v + b * r * ch + c;
      for (int64_t i = 0; i < r; ++i) run[static_cast<size_t>(i)] = base[i * ch];
      pruneRun(run.data(), r, s);
      for (int64_t i = 0; i < r; ++i) base[i * ch] = run[static_cast<size_t>(i)];
    }
  }
}

Tensor pruneWeight(const Tensor& w, const PruneLayout& l, const Sparsity& s) {
  Tensor out = w;
  pruneInPlace(out, l, s);
  return out;
}

}  // namespace tessel::kernels
