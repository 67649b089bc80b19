#include <cstdlib>

#include "sweep/mpi.h"

namespace tessel::sweep {

int mpiWorldSize() {
  // Open MPI, then the PMI variables MPICH and Slurm set.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* v = std::getenv(name)) {
      const int n = std::atoi(v);
      if (n > 0) return n;
    }
  }
  return 1;
}

}  // namespace tessel::sweep
