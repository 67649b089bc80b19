// How sparse a tensor's values are: dense, N:M structured (in every group of M consecutive values
// along the reduction axis at most N are non-zero, as NVIDIA's sparse tensor cores take 2:4), or
// unstructured with a density (the fraction of values that are non-zero).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace tessel {

struct Sparsity {
  double density = 1.0;  // fraction of non-zero values; n / m for an N:M pattern
  int n = 0, m = 0;      // N:M when m > 0
  // The values already hold these zeros (read from a model file: --sparsity weights=measured),
  // so nothing prunes them. Where the pattern came from, not part of it: == ignores it.
  bool measured = false;

  bool structured() const { return m > 0; }
  bool dense() const { return !structured() && density >= 1.0; }
  bool operator==(const Sparsity& o) const { return density == o.density && n == o.n && m == o.m; }
  bool operator!=(const Sparsity& o) const { return !(*this == o); }

  static Sparsity nm(int n, int m);         // N:M, 1 <= n < m
  static Sparsity uniform(double density);  // unstructured, density in (0, 1]
};

// "2:4" (N:M, 1 <= N <= M <= 64; N == M is dense), "0.5" or "50%" (a density in (0, 1]). False
// with `why` set (a sentence naming the bad text) on anything else.
bool parseSparsity(std::string_view text, Sparsity& out, std::string& why);
std::string toString(const Sparsity& s);  // "2:4", "0.5", "dense"
// For test failures: the text above.
inline void PrintTo(const Sparsity& s, std::ostream* os) { *os << toString(s); }

}  // namespace tessel
