#include "kernels/numeric/portable_math.h"
#include "kernels/validation/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/numeric/quantize.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void checkSameSize(const Tensor& a, const Tensor& b, const char* what) {
  if (a.numel() != b.numel() || a.cols() != b.cols())
    throw Error(std::string(what) + ": tensors have different shapes (" +
                std::to_string(a.numel()) + " vs " + std::to_string(b.numel()) + " elements)");
}

std::vector<double> logSoftmax(const float* x, int64_t n) {
  double m = -kInf;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, static_cast<double>(x[i]));
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += portable::exp(static_cast<double>(x[i]) - m);
  const double lse = m + portable::log(sum);
  std::vector<double> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = static_cast<double>(x[i]) - lse;
  return out;
}

}  // namespace

ErrorMetrics compareValues(const float* ref, const float* x, int64_t n) {
  ErrorMetrics m;
  double rr = 0.0, xx = 0.0, rx = 0.0, ee = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(ref[i])) continue;
    ++m.count;
    if (!std::isfinite(x[i])) {
      ++m.nonfinite;
      continue;
    }
    const double r = ref[i], v = x[i], e = v - r;
    rr += r * r;
    xx += v * v;
    rx += r * v;
    ee += e * e;
    m.max_abs = std::max(m.max_abs, std::fabs(e));
  }
  if (m.nonfinite > 0) {
    m.max_abs = m.rel_l2 = kInf;
    m.cosine = 0.0;
    m.sqnr_db = -kInf;
    return m;
  }
  m.rel_l2 = rr > 0.0 ? std::sqrt(ee / rr) : (ee > 0.0 ? kInf : 0.0);
  if (rr > 0.0 && xx > 0.0)
    m.cosine = rx / (std::sqrt(rr) * std::sqrt(xx));
  else
    m.cosine = rr == xx ? 1.0 : 0.0;  // both zero: identical; one zero: no direction in common
  m.sqnr_db = ee > 0.0 ? (rr > 0.0 ? 10.0 * portable::log10(rr / ee) : -kInf) : kInf;
  return m;
}

std::vector<float> realValues(const Tensor& t) {
  if (t.isFloat()) return std::vector<float>(t.f32(), t.f32() + t.numel());
  const Tensor d = dequantize(t);
  return std::vector<float>(d.f32(), d.f32() + d.numel());
}

ErrorMetrics compare(const Tensor& ref, const Tensor& x) {
  checkSameSize(ref, x, "compare");
  const std::vector<float> r = realValues(ref), v = realValues(x);
  return compareValues(r.data(), v.data(), ref.numel());
}

double top1Agreement(const Tensor& ref_logits, const Tensor& logits) {
  checkSameSize(ref_logits, logits, "top1Agreement");
  const std::vector<float> r = realValues(ref_logits), v = realValues(logits);
  const int64_t rows = ref_logits.rows(), n = ref_logits.cols();
  if (rows == 0) return 1.0;
  int64_t agree = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const float* a = r.data() + i * n;
    const float* b = v.data() + i * n;
    agree += std::max_element(a, a + n) - a == std::max_element(b, b + n) - b;
  }
  return static_cast<double>(agree) / static_cast<double>(rows);
}

double meanKlDivergence(const Tensor& ref_logits, const Tensor& logits) {
  checkSameSize(ref_logits, logits, "meanKlDivergence");
  const std::vector<float> r = realValues(ref_logits), v = realValues(logits);
  const int64_t rows = ref_logits.rows(), n = ref_logits.cols();
  if (rows == 0) return 0.0;
  double total = 0.0;
  for (int64_t i = 0; i < rows; ++i) {
    const std::vector<double> lp = logSoftmax(r.data() + i * n, n);
    const std::vector<double> lq = logSoftmax(v.data() + i * n, n);
    double kl = 0.0;
    for (size_t j = 0; j < lp.size(); ++j) kl += portable::exp(lp[j]) * (lp[j] - lq[j]);
    total += std::max(kl, 0.0);  // rounding can make an exact match a hair negative
  }
  return total / static_cast<double>(rows);
}

}  // namespace tessel::kernels
