#include "util/sparsity.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace tessel {

Sparsity Sparsity::nm(int n, int m) {
  Sparsity s;
  s.n = n;
  s.m = m;
  s.density = static_cast<double>(n) / m;
  return s;
}

Sparsity Sparsity::uniform(double density) {
  Sparsity s;
  s.density = density;
  return s;
}

namespace {

bool wholeInt(std::string_view t, int& v) {
  if (t.empty()) return false;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

bool wholeDouble(std::string_view t, double& v) {
  if (t.empty() || t.size() > 32) return false;
  const std::string s(t);
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(v);
}

}  // namespace

bool parseSparsity(std::string_view text, Sparsity& out, std::string& why) {
  const auto colon = text.find(':');
  if (colon != std::string_view::npos) {
    int n = 0, m = 0;
    if (!wholeInt(text.substr(0, colon), n) || !wholeInt(text.substr(colon + 1), m) || n < 1 ||
        m < 1 || m > 64) {
      why = "expected an N:M pattern of whole numbers 1 <= N <= M <= 64 such as 2:4, got '" +
            std::string(text) + "'";
      return false;
    }
    if (n > m) {
      why = "the pattern " + std::string(text) +
            " keeps more values (N) than each group has (M); expected N <= M";
      return false;
    }
    out = n == m ? Sparsity{} : Sparsity::nm(n, m);
    return true;
  }
  double d = 0;
  const bool percent = !text.empty() && text.back() == '%';
  if (!wholeDouble(percent ? text.substr(0, text.size() - 1) : text, d)) {
    why = "expected an N:M pattern such as 2:4 or a density in (0, 1] such as 0.5 (or 50%), got '" +
          std::string(text) + "'";
    return false;
  }
  if (percent) d /= 100;
  if (!(d > 0 && d <= 1)) {
    why = "a density is the fraction of values that are non-zero, in (0, 1]; got '" +
          std::string(text) + "'";
    return false;
  }
  out = Sparsity::uniform(d);
  return true;
}

std::string toString(const Sparsity& s) {
  if (s.structured()) return std::to_string(s.n) + ":" + std::to_string(s.m);
  if (s.dense()) return "dense";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", s.density);
  return s.channels ? std::string(buf) + " per channel" : std::string(buf);
}

std::string sparsityKey(const Sparsity& s) {
  if (!s.channels) return toString(s);
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the densities' bits
  for (double d : *s.channels) {
    uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    for (int i = 0; i < 8; ++i) {
      h ^= (bits >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "#%016llx", static_cast<unsigned long long>(h));
  return toString(s) + buf;
}

}  // namespace tessel
