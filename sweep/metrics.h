// The metrics a sweep point keeps, from its RunStats (names: sweep/metric_names.h).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "sim/stats.h"

namespace tessel::sweep {

// On-chip SRAM the design spends: the capacities of its local memories (every storage level
// but DRAM and the L2), in bytes.
uint64_t sramBytes(const arch::Accelerator& acc);

// The listed metrics (canonical names) as a JSON object, in metricNames() order, numbers
// rounded like the run report's (12 significant digits for quantities, 6 decimals for
// ratios). The metrics marked `always` (offchip_limit, offchip_bytes_per_cycle) are there
// whatever the list.
nlohmann::ordered_json metricsJson(const sim::RunStats& run, const arch::Accelerator& acc,
                                   const std::vector<std::string>& metrics);

}  // namespace tessel::sweep
