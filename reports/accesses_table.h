// `tessel run --accesses`: per array op, the accesses of every level of its loop nest and tensor
// in Timeloop's terms (reads, fills, updates, in words), and the bytes each network carried. For
// reading beside a Timeloop stats file or a ZigZag result; scripts read the JSON's `accesses`.
#pragma once

#include <ostream>

#include "sim/stats.h"

namespace tessel::reports {

// One section per op with accesses (array ops with a loop-nest mapping), in graph order. Writes
// nothing when no op has any.
void writeAccesses(const sim::RunStats& run, std::ostream& os);

}  // namespace tessel::reports
