// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one track per hardware
// block, one complete ("X") slice per command with its op, tensor and bytes in args.
#pragma once

#include <string>
#include <vector>

#include "sim/stats.h"

namespace tessel::reports {

// `slices` start and last in accelerator cycles; the trace is in microseconds at `clock_hz`.
std::string chromeTraceString(const std::vector<sim::TraceSlice>& slices, double clock_hz,
                              const sim::RunStats& run);

}  // namespace tessel::reports
