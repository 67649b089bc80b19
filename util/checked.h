// Checked 64-bit arithmetic for the counts tessel reports (elements, MACs, bytes, cycles,
// energy). A count that would wrap is bad input: the error names the value and what it counts,
// so the user learns that the workload or design is beyond what 64-bit counters can hold.
#pragma once

#include <cstdint>
#include <string>

#include "util/error.h"

namespace tessel::checked {

// The largest count any report carries: 2^62, so that a sum of a few counts still fits int64.
inline constexpr int64_t kMaxCount = int64_t{1} << 62;

// a * b for non-negative a, b; ConfigError naming `what` when it exceeds kMaxCount.
int64_t mul(int64_t a, int64_t b, const std::string& what);
// a + b for non-negative a, b; ConfigError naming `what` when it exceeds kMaxCount.
int64_t add(int64_t a, int64_t b, const std::string& what);
// A double-valued count (bytes, cycles, picojoules) rounded to an integer; ConfigError naming
// `what` when it is NaN, infinite, negative or above kMaxCount.
int64_t toCount(double value, const std::string& what);
// Throws the same error when a double-valued quantity is not a finite, non-negative number of
// at most kMaxCount; returns it unchanged otherwise.
double finite(double value, const std::string& what);

}  // namespace tessel::checked
