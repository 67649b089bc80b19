#include "dataflows/nest/sparse.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

#include "dataflows/nest/cost_parts.h"

namespace tessel::dataflows::nest {

namespace {

double log2Ceil(int64_t n) { return n <= 1 ? 1.0 : std::ceil(std::log2(static_cast<double>(n))); }

// Value entries (and their run fields) per dense value in run-length form: each non-zero is an
// entry, and a run of zeros longer than 2^r - 1 stores an explicit zero per 2^r positions. The
// zeros before a non-zero are geometric, P(run >= k) = (1 - d)^k, so padding entries per
// non-zero are sum_j (1 - d)^(j 2^r) = q / (1 - q), q = (1 - d)^(2^r).
double runLengthEntries(double d, int run_bits) {
  const double q = std::pow(1 - d, std::ldexp(1.0, run_bits));
  return d / (1 - q);
}

// E[max of n standard normals], by quadrature of x n phi(x) Phi(x)^(n-1); cached per n.
double expectedMaxNormal(int64_t n) {
  thread_local std::map<int64_t, double> cache;
  if (auto it = cache.find(n); it != cache.end()) return it->second;
  double sum = 0;
  const double lo = -10, hi = 10, h = 1.0 / 256;
  for (double x = lo; x <= hi; x += h) {
    const double phi = std::exp(-x * x / 2) / std::sqrt(2 * M_PI);
    const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
    sum += x * static_cast<double>(n) * phi * std::pow(cdf, static_cast<double>(n - 1)) * h;
  }
  return cache.emplace(n, sum).first->second;
}

}  // namespace

double metadataBytesPerValue(arch::SparseFormat f, const Sparsity& s, int64_t fiber, int run_bits) {
  const double d = s.density;
  switch (f) {
    case arch::SparseFormat::None:
      return 0;
    case arch::SparseFormat::Bitmask:
      return 1.0 / 8;
    case arch::SparseFormat::Coordinates:
      return d * log2Ceil(fiber) / 8;
    case arch::SparseFormat::Csr:
      return d * log2Ceil(fiber) / 8 + log2Ceil(fiber + 1) / (8.0 * static_cast<double>(fiber));
    case arch::SparseFormat::RunLength:
      return runLengthEntries(d, run_bits) * run_bits / 8;
    case arch::SparseFormat::NmIndices:
      return d * log2Ceil(s.m) / 8;
  }
  return 0;
}

double storedBytesPerValue(arch::SparseFormat f, const Sparsity& s, int64_t fiber, int run_bits,
                           double value_bytes) {
  if (f == arch::SparseFormat::None) return value_bytes;
  const double values = f == arch::SparseFormat::RunLength ? runLengthEntries(s.density, run_bits)
                                                           : s.density;
  return values * value_bytes + metadataBytesPerValue(f, s, fiber, run_bits);
}

double expectedMaxBinomial(int64_t w, double d, int64_t pes) {
  if (w <= 0 || d <= 0) return 0;
  if (d >= 1) return static_cast<double>(w);
  const double mean = static_cast<double>(w) * d;
  if (pes <= 1) return mean;
  using Key = std::tuple<int64_t, double, int64_t>;
  thread_local std::map<Key, double> cache;
  const Key key{w, d, pes};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  double e = 0;
  if (w <= 4096) {
    // Sum over x of P(max > x) = 1 - F(x)^pes, F from the pmf in log space; the tail summed
    // from the top keeps 1 - F exact where F is near 1.
    std::vector<double> pmf(static_cast<size_t>(w) + 1);
    const double lw = std::lgamma(static_cast<double>(w) + 1);
    for (int64_t x = 0; x <= w; ++x) {
      const double xd = static_cast<double>(x);
      pmf[size_t(x)] = std::exp(lw - std::lgamma(xd + 1) - std::lgamma(static_cast<double>(w) - xd + 1) +
                                xd * std::log(d) + (static_cast<double>(w) - xd) * std::log1p(-d));
    }
    double tail = 0;  // P(X > x)
    std::vector<double> above(static_cast<size_t>(w) + 1);
    for (int64_t x = w; x >= 0; --x) {
      above[size_t(x)] = tail;
      tail += pmf[size_t(x)];
    }
    for (int64_t x = 0; x < w; ++x) {
      const double t = std::min(1.0, above[size_t(x)]);
      e -= std::expm1(static_cast<double>(pes) * std::log1p(-t));  // 1 - (1 - t)^pes, exactly
    }
    e = std::max(e, mean);  // a maximum is never below the mean (rounding at tiny densities)
  } else {
    const double sd = std::sqrt(mean * (1 - d));
    e = std::min(static_cast<double>(w), mean + sd * expectedMaxNormal(pes));
  }
  return cache.emplace(key, e).first->second;
}

double expectedMaxMixed(int64_t w, const std::vector<double>& d, int64_t copies) {
  if (w <= 0 || d.empty()) return 0;
  const auto [lo_d, hi_d] = std::minmax_element(d.begin(), d.end());
  const auto pes = static_cast<int64_t>(d.size()) * copies;
  if (*lo_d == *hi_d) return expectedMaxBinomial(w, *lo_d, pes);
  const double wd = static_cast<double>(w), cd = static_cast<double>(copies);
  double e = 0;
  if (w <= 64) {
    // P(max > x) = 1 - prod_j F_j(x)^copies, with each F_j from its pmf.
    std::vector<double> log_all(static_cast<size_t>(w), 0.0);  // sum_j copies * log F_j(x)
    const double lw = std::lgamma(wd + 1);
    for (double dj : d) {
      double cdf = 0;
      for (int64_t x = 0; x < w; ++x) {
        const double xd = static_cast<double>(x);
        if (dj <= 0) {
          cdf = 1;
        } else if (dj < 1) {
          cdf += std::exp(lw - std::lgamma(xd + 1) - std::lgamma(wd - xd + 1) + xd * std::log(dj) +
                          (wd - xd) * std::log1p(-dj));
        }
        log_all[size_t(x)] += cd * std::log(std::min(1.0, cdf));
      }
    }
    for (int64_t x = 0; x < w; ++x) e -= std::expm1(log_all[size_t(x)]);
  } else {
    // Normals N(w d_j, w d_j (1 - d_j)); below every PE's mean - 8 sd the maximum is surely
    // above x, beyond the largest mean + 8 sd surely below; between, a sum over (strided) x.
    double lo = wd, hi = 0;
    for (double dj : d) {
      const double mu = wd * dj, sd = std::sqrt(wd * dj * (1 - dj));
      lo = std::min(lo, mu - 8 * sd);
      hi = std::max(hi, mu + 8 * sd);
    }
    lo = std::max(0.0, std::floor(lo));
    hi = std::min(wd, std::ceil(hi));
    e = lo;
    const double step = std::max(1.0, std::floor((hi - lo) / 512));
    for (double x = lo; x < hi; x += step) {
      double log_f = 0;
      for (double dj : d) {
        const double mu = wd * dj, sd = std::sqrt(wd * dj * (1 - dj));
        const double f = sd > 0 ? 0.5 * std::erfc(-(x + 0.5 - mu) / (sd * std::sqrt(2.0)))
                                : (x >= mu ? 1.0 : 0.0);
        log_f += cd * std::log(std::max(f, 1e-300));
      }
      e -= std::min(step, hi - x) * std::expm1(log_f);
    }
  }
  return std::clamp(e, wd * *hi_d, wd);  // never below the densest PE's mean
}

double channelSkipScale(const std::shared_ptr<const std::vector<double>>& channels, int64_t w,
                        int64_t per_pe_k, int64_t spatial_k, int64_t copies) {
  if (w <= 0 || !channels || channels->empty()) return 1;
  using Key = std::tuple<const void*, int64_t, int64_t, int64_t, int64_t>;
  // Keyed by the densities' address; the cache holds them, so the address is never reused.
  thread_local std::map<Key, std::pair<std::shared_ptr<const std::vector<double>>, double>> cache;
  const Key key{channels.get(), w, per_pe_k, spatial_k, copies};
  if (auto it = cache.find(key); it != cache.end()) return it->second.second;
  const std::vector<double>& c = *channels;
  const auto n = static_cast<int64_t>(c.size());
  const int64_t pk = std::max<int64_t>(1, per_pe_k), sk = std::max<int64_t>(1, spatial_k);
  double sum = 0;
  int64_t groups = 0;
  std::vector<double> pe;
  for (int64_t g0 = 0; g0 < n; g0 += pk * sk, ++groups) {
    pe.clear();
    for (int64_t j = g0; j < std::min(n, g0 + pk * sk); j += pk) {
      const int64_t end = std::min(n, j + pk);
      pe.push_back(std::accumulate(c.begin() + j, c.begin() + end, 0.0) / static_cast<double>(end - j));
    }
    sum += expectedMaxMixed(w, pe, copies);
  }
  const double scale = sum / static_cast<double>(groups) / static_cast<double>(w);
  cache.emplace(key, std::make_pair(channels, scale));
  return scale;
}

namespace {

// The run a coordinate indexes: the reduction's extent (the weights' C x R x S, the input's C).
int64_t fiberOf(const Problem& p, int t) {
  return t == 1 ? p.of(Dim::C) * p.of(Dim::R) * p.of(Dim::S) : p.of(Dim::C);
}

}  // namespace

double storedScale(const Problem& p, const Hardware& hw, int level, int t) {
  if (t > 1) return 1;
  const Sparsity& s = p.sparsity[size_t(t)];
  const arch::SparseFormat f = hw.levels[size_t(level)].format[size_t(t)];
  if (s.dense() || f == arch::SparseFormat::None) return 1;
  const DType dt = t == 0 ? p.input_dtype : p.weight_dtype;
  const double vb = sizeOf(dt);
  return storedBytesPerValue(f, s, fiberOf(p, t), hw.sparse.run_bits, vb) / vb;
}

std::string checkFormats(const Problem& p, const Hardware& hw) {
  for (const Level& l : hw.levels) {
    for (int t = 0; t < 2; ++t) {
      const Sparsity& s = p.sparsity[size_t(t)];
      if (l.format[size_t(t)] == arch::SparseFormat::NmIndices && !s.dense() && !s.structured()) {
        return l.name + " keeps " + (t == 0 ? "inputs" : "weights") +
               " as nm_indices, which hold N:M data only; this operand is " + toString(s) +
               " (unstructured)";
      }
    }
  }
  return "";
}

SparseEffect sparseEffect(const Problem& p, const Hardware& hw) {
  SparseEffect e;
  e.active = p.sparse();
  if (!e.active) return e;
  e.density = {p.sparsity[0].density, p.sparsity[1].density};
  const arch::SparseSupport& sp = hw.sparse;
  for (int t = 0; t < 2; ++t) {
    const Sparsity& s = p.sparsity[size_t(t)];
    if (s.dense()) continue;
    if (const arch::SparseSupport::Pattern* hw_pattern = sp.acceleratedAs(s, t)) {
      // The datapath computes n of every m (1:4 data on a 2:4 datapath: 2 of 4, one a zero).
      e.keep_n = hw_pattern->n;
      e.keep_m = hw_pattern->m;
      e.structured_operand = t;
      e.reduce_keep = static_cast<double>(hw_pattern->n) / hw_pattern->m;
      e.mac_density *= e.reduce_keep;
    } else if (sp.skip[size_t(t)]) {
      e.skip_density *= s.density;
      e.skipped[size_t(t)] = s.density;
      e.mac_density *= s.density;
    } else if (sp.gate[size_t(t)]) {
      e.mac_density *= s.density;
    }
  }
  const size_t nl = hw.levels.size();
  e.scale.assign(nl, {1.0, 1.0});
  e.metadata.assign(nl, {0.0, 0.0});
  for (size_t l = 0; l < nl; ++l) {
    for (int t = 0; t < 2; ++t) {
      const Sparsity& s = p.sparsity[size_t(t)];
      const arch::SparseFormat f = hw.levels[l].format[size_t(t)];
      if (s.dense() || f == arch::SparseFormat::None) continue;
      const double vb = sizeOf(t == 0 ? p.input_dtype : p.weight_dtype);
      e.scale[l][size_t(t)] = storedScale(p, hw, static_cast<int>(l), t);
      e.metadata[l][size_t(t)] = metadataBytesPerValue(f, s, fiberOf(p, t), sp.run_bits) / vb;
    }
  }
  return e;
}

void applyGatedReads(const SparseEffect& e, const Hardware& hw, Cost& c) {
  if (!e.active) return;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    const Level& lv = hw.levels[l];
    for (size_t t = 0; t < 2; ++t) {
      if (lv.per_pe || lv.gate_reads[t] < 0) continue;
      c.reads[l][t] = std::round(c.reads[l][t] * e.density[size_t(lv.gate_reads[t])]);
    }
  }
}

double skipScale(const Problem& p, const Mapping& m, const Hardware& hw, const SparseEffect& e) {
  double scale = 1;
  Factors per_pe = kOnes;  // one PE's share of a local tile
  for (Dim d : kAllDims) {
    for (size_t l = size_t(hw.local()); l < m.levels.size(); ++l) per_pe[at(d)] *= m.levels[l].factor[at(d)];
  }
  for (int t = 0; t < 2; ++t) {
    const double d = e.skipped[size_t(t)];
    if (d >= 1) continue;
    if (p.sparsity[size_t(t)].structured()) {
      scale *= d;
      continue;
    }
    const auto x = static_cast<Operand>(t);
    const auto w = static_cast<int64_t>(std::max(1.0, std::round(p.footprint(x, per_pe))));
    int64_t streams = 1;  // PEs of the array that read distinct values of the operand
    for (Dim dim : kAllDims) {
      if (Problem::relevant(x, dim)) streams *= m.spatial(dim);
    }
    if (x == Operand::Weight && p.sparsity[1].channels) {
      // Output channels of their own densities: the PEs along the spatial channel dim differ.
      const int64_t sk = m.spatial(Dim::K);
      scale *= channelSkipScale(p.sparsity[1].channels, w, per_pe[at(Dim::K)], sk, streams / sk);
      continue;
    }
    scale *= expectedMaxBinomial(w, d, streams) / static_cast<double>(w);
  }
  return scale;
}

void applySparseTransfers(const SparseEffect& e, const Hardware& hw, Cost& c) {
  if (!e.active) return;
  const int array = hw.array();
  // Expected bytes, rounded to whole bytes as a transfer moves them (both engines spread these).
  const auto scale = [](double& bytes, double by) { bytes = std::round(bytes * by); };
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    const Level& lv = hw.levels[l];
    for (size_t t = 0; t < 2; ++t) {
      if (lv.per_pe) {
        // Operand reads feeding the MACs happen only for the MACs that do; what arrives is
        // what the array's level sends, or what a compressed register file keeps.
        scale(c.reads[l][t], e.mac_density);
        const bool own = lv.format[t] != arch::SparseFormat::None;
        const double in = own ? e.scale[l][t] : e.scale[size_t(array)][t];
        if (own) c.metadata_bytes += c.writes[l][t] * e.metadata[l][t];
        scale(c.writes[l][t], in);
        scale(c.fills[l][t], in);
        continue;
      }
      const double s = e.scale[l][t];
      c.metadata_bytes += (c.reads[l][t] + c.writes[l][t]) * e.metadata[l][t];
      scale(c.reads[l][t], s);
      // Reads skipped where the leader operand is zero: neither slot nor energy.
      if (lv.skip_reads[t] >= 0) scale(c.reads[l][t], e.density[size_t(lv.skip_reads[t])]);
      scale(c.writes[l][t], s);
      scale(c.fills[l][t], s);
      scale(c.fanout_sent[l][t], s);
      scale(c.fanout_delivered[l][t], s);
    }
  }
  for (size_t t = 0; t < 2; ++t) {
    scale(c.noc_bytes[t], e.scale[size_t(array)][t]);
    scale(c.delivered[t], e.scale[size_t(array)][t]);
  }
  if (e.reduce_keep < 1) {
    // An accelerated N:M reduction takes N/M of its passes: the partial sums on chip come and go
    // that much less often (the outputs leaving the chip do not change).
    constexpr size_t out = 2;
    for (size_t l = 0; l < hw.levels.size(); ++l) {
      if (hw.levels[l].off_chip) continue;
      for (auto* v : {&c.reads[l][out], &c.writes[l][out], &c.fills[l][out], &c.updates[l][out]}) {
        scale(*v, e.reduce_keep);
      }
    }
    scale(c.noc_bytes[out], e.reduce_keep);
    scale(c.delivered[out], e.reduce_keep);
  }
}

}  // namespace tessel::dataflows::nest
