// A float's IEEE-754 bits and back (std::bit_cast before C++20): the narrow-format codecs and
// their tests decide rounding on these.
#pragma once

#include <cstdint>
#include <cstring>

namespace tessel::kernels {

inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace tessel::kernels
