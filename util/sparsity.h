// How sparse a tensor's values are: dense, N:M structured (in every group of M consecutive values
// along the reduction axis at most N are non-zero, as NVIDIA's sparse tensor cores take 2:4), or
// unstructured with a density (the fraction of values that are non-zero).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

struct Sparsity {
  double density = 1.0;  // fraction of non-zero values; n / m for an N:M pattern
  int n = 0, m = 0;      // N:M when m > 0
  // The values already hold these zeros (read from a model file: --sparsity weights=measured),
  // so nothing prunes them. Where the pattern came from, not part of it: == ignores it.
  bool measured = false;
  // Unstructured weights whose output channels differ (measured from a file's values): each
  // channel's density, in channel order; `density` is their mean. Null: every channel at
  // `density`. Shared, never changed once made (problems copy it per mapping candidate).
  std::shared_ptr<const std::vector<double>> channels;

  bool structured() const { return m > 0; }
  bool dense() const { return !structured() && density >= 1.0; }
  bool operator==(const Sparsity& o) const {
    return density == o.density && n == o.n && m == o.m &&
           (channels == o.channels || (channels && o.channels && *channels == *o.channels));
  }
  bool operator!=(const Sparsity& o) const { return !(*this == o); }

  static Sparsity nm(int n, int m);         // N:M, 1 <= n < m
  static Sparsity uniform(double density);  // unstructured, density in (0, 1]
};

// "2:4" (N:M, 1 <= N <= M <= 64; N == M is dense), "0.5" or "50%" (a density in (0, 1]). False
// with `why` set (a sentence naming the bad text) on anything else.
bool parseSparsity(std::string_view text, Sparsity& out, std::string& why);
std::string toString(const Sparsity& s);  // "2:4", "0.5", "0.37 per channel", "dense"
// toString, and for per-channel densities a hash of them: a cache key that tells two apart.
std::string sparsityKey(const Sparsity& s);
// For test failures: the text above.
inline void PrintTo(const Sparsity& s, std::ostream* os) { *os << toString(s); }

}  // namespace tessel
