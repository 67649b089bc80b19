// How long work reports its progress. Library code never prints: it calls this, and the CLI
// draws it (on a terminal only).
#pragma once

#include <cstdint>
#include <functional>

namespace tessel::kernels {

// phase ("reference", "lowered", "probes"), units done, units in the phase.
using Progress = std::function<void(const char* phase, int64_t done, int64_t total)>;

}  // namespace tessel::kernels
