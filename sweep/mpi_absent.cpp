// Builds without MPI: the runner exists and says why it cannot run.
#include "sweep/mpi.h"

namespace tessel::sweep {

bool mpiBuilt() { return false; }

Outcome runMpi(const Spec&, const PointSet&, const std::string&, bool, const RunnerOptions&,
               bool& rank0) {
  rank0 = true;
  throw ConfigError({"", 0, 0, ""},
                    "this tessel was built without MPI (install libopenmpi-dev and rebuild); "
                    "run the sweep without mpirun, with --workers");
}

}  // namespace tessel::sweep
