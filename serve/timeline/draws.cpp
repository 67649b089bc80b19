#include "serve/timeline/draws.h"

#include <cmath>

namespace tessel::serve::systemc {

namespace {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr double kTwoPi = 6.283185307179586;

// splitmix64's output function: position i of the stream seeded s is mix(s + (i + 1) * golden).
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

Draws::Draws(uint64_t seed, double jitter) : seed_(mix(seed + kGolden)) {
  if (jitter > 0) {  // lognormal: E = exp(mu + sigma^2/2) = 1, CV^2 = exp(sigma^2) - 1
    sigma_ = std::sqrt(std::log1p(jitter * jitter));
    mu_ = -0.5 * sigma_ * sigma_;
  }
}

double Draws::uniform(uint64_t index, Draw kind, uint64_t n) const {
  const uint64_t position = (index * 4 + static_cast<uint64_t>(kind)) * 2 + n;
  return static_cast<double>((mix(seed_ + (position + 1) * kGolden) >> 11) + 1) * 0x1.0p-53;
}

double Draws::factor(uint64_t job, Draw kind) const {
  if (sigma_ == 0) return 1;
  // Box-Muller: one standard normal from two uniforms.
  const double r = std::sqrt(-2 * std::log(uniform(job, kind, 0)));
  const double z = r * std::cos(kTwoPi * uniform(job, kind, 1));
  return std::exp(mu_ + sigma_ * z);
}

double Draws::exponential(uint64_t index) const { return -std::log(uniform(index, Draw::Gap, 0)); }

}  // namespace tessel::serve::systemc
