// The random numbers of one scenario, counter-based: the draw for (job, kind) is a pure function
// of the seed, so it does not depend on which worker or core happens to run the job, nor on the
// other scenarios simulated alongside. Plain C++; the same on every platform.
#pragma once

#include <cstdint>

namespace tessel::serve::systemc {

// What a draw is for: each job draws one factor per kind, each arrival one gap.
enum class Draw : uint8_t { Pre, Job, Post, Gap };

class Draws {
 public:
  // `jitter`: coefficient of variation of the service-time factors.
  Draws(uint64_t seed, double jitter);

  // A lognormal factor with mean 1 and coefficient of variation `jitter`; exactly 1 when
  // jitter is 0.
  double factor(uint64_t job, Draw kind) const;
  // An exponential gap with mean 1 for arrival `index`.
  double exponential(uint64_t index) const;

 private:
  // Uniform in (0, 1], the `n`-th number of the stream for (index, kind).
  double uniform(uint64_t index, Draw kind, uint64_t n) const;

  uint64_t seed_;
  double mu_ = 0, sigma_ = 0;  // of the normal whose exp is the factor
};

}  // namespace tessel::serve::systemc
