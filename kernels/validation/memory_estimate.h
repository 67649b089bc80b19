// How much memory the executor will hold for a graph, before it allocates any: `validate` and
// `precision` compare it with what the machine has and refuse a run that would die of it
// minutes later.
#pragma once

#include <cstdint>

#include "models/graph.h"

namespace tessel::kernels {

// Bytes the run cannot do without: the FP32 reference run keeps every activation and input it
// computes (4 B each); weights are held in FP32 and once more converted/packed for the lowered
// run; the lowered run keeps as many activations again for comparison; plus the largest im2col
// buffer of a convolution. Allocator overhead and caches come on top (GPT-2 small at seq 128:
// this says about 1.1 GiB, the process peaks at 1.35 GiB), so a run refused on it would surely
// fail; one just under it may still run out, which the CLI reports as such (exit 2).
// ConfigError (util/checked.h) when the count itself overflows.
int64_t estimateMemoryBytes(const models::Graph& graph);

}  // namespace tessel::kernels
