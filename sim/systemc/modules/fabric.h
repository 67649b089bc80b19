// The SystemC fabric (fabric.cpp): built with the platform in the process's one elaboration.
#pragma once

namespace tessel::sim::systemc {

// Constructs the fabric module; called while the platform elaborates.
void elaborateFabric();
// The platform and the fabric elaborated (once per process).
void ensureElaborated();
// Adds the fabric to sim::fabricRunner().
void registerFabric();

}  // namespace tessel::sim::systemc
