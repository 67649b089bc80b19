// The OpStats::mapping keys under which the scalesim engine leaves, per array op, the figures
// SCALE-Sim reports and OpStats has no field for; reports/scalesim_report reads them.
#pragma once

namespace tessel::sim::scalesim {
// OpStats::mapping keys the engine adds to an array op.
inline constexpr const char* kKnobsKey = "scalesim_knobs";
inline constexpr const char* kFoldsKey = "scalesim_folds";                  // "rows x cols"
inline constexpr const char* kStallKey = "scalesim_stall_cycles";
inline constexpr const char* kMappingEffKey = "scalesim_mapping_efficiency";  // fraction
inline constexpr const char* kComputeUtilKey = "scalesim_compute_utilization";  // fraction
inline constexpr const char* kIfmapReadsKey = "scalesim_ifmap_sram_reads";
inline constexpr const char* kFilterReadsKey = "scalesim_filter_sram_reads";
inline constexpr const char* kOfmapWritesKey = "scalesim_ofmap_sram_writes";
}  // namespace tessel::sim::scalesim
