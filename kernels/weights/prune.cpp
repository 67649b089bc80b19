#include "kernels/weights/prune.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

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
