// Schedules the search must never lose to, built for any dataflow and array: the search starts
// from them (seeds), and returns a mapping none of them beats in both cycles and energy.
#pragma once

#include <vector>

#include "dataflows/nest/constraints.h"
#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

// Fold after fold, as SCALE-Sim runs every layer: the array holds one fold of the stationary
// tensor (the dataflow's row and column dims, as many as fit) while the PEs' loops stream the
// rest of the op past it in full; then the next fold, the folds in each tensor's stationary order
// off chip. The local memories hold one fold's stream; when they cannot, the stream is cut in
// halves until it fits. Only mappings that fit and that the constraints allow are returned.
std::vector<Mapping> foldAfterFold(const Problem& p, const Hardware& hw, const Constraints& c);

}  // namespace tessel::dataflows::nest
