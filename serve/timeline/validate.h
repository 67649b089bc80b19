// The checks a scenario passes before the timeline is built. Plain C++.
#pragma once

#include "serve/timeline.h"

namespace tessel::serve::systemc {

// The most requests one scenario may simulate (each keeps 8 bytes until the percentiles).
constexpr int64_t kMaxRequests = 100'000'000;
// The longest timeline, seconds, with every job run one after another: SystemC's time is 64-bit
// picoseconds (about 1.8e7 s), the statistics' signed (9.2e6 s); this leaves room for jitter.
constexpr double kMaxSpanSeconds = 1e6;
// Workers and cores are SystemC threads, each with its own stack.
constexpr int kMaxThreads = 100'000;

// ConfigError naming the scenario's label and the field when `s` cannot run.
void validate(const Scenario& s);

}  // namespace tessel::serve::systemc
