// A GEMM tile mapping (gemmini-auto's) as a loop nest: array blocks across rows and columns, the
// stream dim inside the PEs, the blocks of one tile in the local level, the tiles in DRAM in the
// tile's loop order. The search starts from it; tests cost both under one model.
#pragma once

#include <optional>

#include "dataflows/dataflow.h"
#include "dataflows/mapping.h"
#include "dataflows/nest/hardware.h"

namespace tessel::dataflows {

// nullopt when `p` is not a GEMM view, the dataflow has none, or the nest does not fit.
std::optional<nest::Mapping> tileAsNest(const Mapping& tile, const Problem& p,
                                        const nest::Hardware& hw, const Dataflow& df);

}  // namespace tessel::dataflows
