// Checked 64-bit arithmetic for the counts tessel reports (elements, MACs, bytes, cycles,
// energy). A count that would wrap is bad input: the error names the value and what it counts,
// so the user learns that the workload or design is beyond what 64-bit counters can hold.
//
// `what` is a string, or a callable returning one: hot paths pass a lambda so the message is
// only built when a check fails.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "util/error.h"

namespace tessel::checked {

// The largest count any report carries: 2^62, so that a sum of a few counts still fits int64.
inline constexpr int64_t kMaxCount = int64_t{1} << 62;

namespace detail {
[[noreturn]] void tooLarge(const std::string& what, const std::string& value);
[[noreturn]] void notCountable(const std::string& what, double value);
inline std::string text(const std::string& s) { return s; }
inline std::string text(const char* s) { return s; }
template <class F, class = std::enable_if_t<std::is_invocable_v<const F&>>>
std::string text(const F& f) {
  return f();
}
}  // namespace detail

// True when `value` is a finite, non-negative number of at most kMaxCount (false for NaN).
inline bool countable(double value) {
  return value >= 0 && value <= static_cast<double>(kMaxCount);
}

// a * b for non-negative a, b; ConfigError naming `what` when it exceeds kMaxCount.
template <class What>
int64_t mul(int64_t a, int64_t b, const What& what) {
  int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r) || r > kMaxCount) {
    detail::tooLarge(detail::text(what), std::to_string(a) + " x " + std::to_string(b));
  }
  return r;
}

// a + b for non-negative a, b; ConfigError naming `what` when it exceeds kMaxCount.
template <class What>
int64_t add(int64_t a, int64_t b, const What& what) {
  int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &r) || r > kMaxCount) {
    detail::tooLarge(detail::text(what), std::to_string(a) + " + " + std::to_string(b));
  }
  return r;
}

// Returns `value` unchanged when countable(); else ConfigError naming `what`.
template <class What>
double finite(double value, const What& what) {
  if (!countable(value)) detail::notCountable(detail::text(what), value);
  return value;
}

// A double-valued count (bytes) rounded to an integer; ConfigError naming `what` when it is
// NaN, infinite, negative or above kMaxCount.
template <class What>
int64_t toCount(double value, const What& what) {
  return static_cast<int64_t>(std::llround(finite(value, what)));
}

}  // namespace tessel::checked
