// What a dataflow allows, in loop-nest terms: which dims each array axis may unroll, which
// tensors a PE keeps in its register file, and which dims a PE may loop over. Read from the
// `nest:` section of configs/dataflows/*.yaml, or derived from a GEMM-only file's
// stationary/spatial/stream keys.
#pragma once

#include <array>
#include <vector>

#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

struct Constraints {
  std::vector<Dim> rows;  // dims that may be unrolled across array rows (first = preferred)
  std::vector<Dim> cols;  // and across columns
  std::array<bool, kTensors> pe_keeps{};  // tensors a PE may hold while its loops run
  std::vector<Dim> pe_loops;              // dims a PE may iterate over locally
};

}  // namespace tessel::dataflows::nest
