// The SystemC engine: each op's plan is lowered to commands (lower/) and executed by the SystemC
// blocks (platform.h); its OpStats carry the bytes the commands moved and the cycles the blocks
// took. Registered by the executables that link SystemC (its library owns `main`).
#pragma once

namespace tessel::sim::systemc {

// Adds "systemc" to sim::makeEngine's registry.
void registerEngine();

}  // namespace tessel::sim::systemc
