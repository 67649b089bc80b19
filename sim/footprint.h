// How much DRAM a workload occupies: every weight, every graph input, and the largest set of
// activations alive at once (an activation lives from the op that writes it to the last op that
// reads it; graph outputs live to the end). A design whose dram.capacity is smaller cannot run
// the workload, and saying so beats printing a run that could not happen.
#pragma once

#include <cstdint>

#include "arch/accelerator.h"
#include "models/graph.h"

namespace tessel::sim {

struct Footprint {
  int64_t weights = 0;
  int64_t inputs = 0;
  int64_t peak_activations = 0;
  int64_t total() const { return weights + inputs + peak_activations; }
};

Footprint dramFootprint(const models::Graph& graph);

// InfeasibleError with the numbers when dram.capacity (0 = unbounded) is smaller than the
// footprint.
void checkFitsDram(const models::Graph& graph, const arch::Accelerator& acc);

}  // namespace tessel::sim
