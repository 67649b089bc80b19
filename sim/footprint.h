// How much DRAM a workload occupies: every weight, every graph input, and the largest set of
// activations alive at once (an activation lives from the op that writes it to the last op that
// reads it; graph outputs live to the end). A design whose dram.capacity is smaller cannot run
// the workload, and saying so beats printing a run that could not happen.
#pragma once

#include <cstdint>

#include <vector>

#include "arch/accelerator.h"
#include "dataflows/plan.h"
#include "models/graph.h"

namespace tessel::sim {

struct Footprint {
  int64_t weights = 0;
  int64_t inputs = 0;
  int64_t peak_activations = 0;
  int64_t total() const { return weights + inputs + peak_activations; }
};

// `on_chip` (by tensor id, may be empty): tensors a fused group keeps on chip, never in DRAM.
Footprint dramFootprint(const models::Graph& graph, const std::vector<bool>& on_chip = {});

// The tensors the plans' fused groups keep on chip: every member's output but the last's.
std::vector<bool> fusedTensors(const models::Graph& graph,
                               const std::vector<dataflows::OpPlan>& plans);

// InfeasibleError with the numbers when dram.capacity (0 = unbounded) is smaller than the
// footprint (of the tensors outside fused groups, when the plans are given).
void checkFitsDram(const models::Graph& graph, const arch::Accelerator& acc,
                   const std::vector<dataflows::OpPlan>* plans = nullptr);

}  // namespace tessel::sim
