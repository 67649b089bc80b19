// A sweep over several processes or machines: `mpirun -n N tessel sweep SPEC -o DIR`. Rank 0
// writes DIR; every rank runs its share of the points (a fixed split of the pending points in
// chunks) and sends each result line to rank 0. DIR must be on a file system all ranks see.
// The result lines are the same as a local run's.
#pragma once

#include <string>

#include "sweep/runner.h"

namespace tessel::sweep {

// The number of ranks mpirun started this process among (from its environment), 1 when not
// started by mpirun.
int mpiWorldSize();
// Whether this build has the MPI runner.
bool mpiBuilt();

// Runs the sweep across the ranks. `options.progress` is called on rank 0 only; `rank0` tells
// the caller whether this process is rank 0 (the one that reports). Throws what ResultsDir
// throws, on every rank alike.
Outcome runMpi(const Spec& spec, const PointSet& points, const std::string& dir, bool resume,
               const RunnerOptions& options, bool& rank0);

}  // namespace tessel::sweep
