// Internal to arch/: the storage levels' rows of the schema table, for arch/schema.cpp.
#pragma once

#include <string>
#include <vector>

#include "arch/schema.h"

namespace tessel::arch {

const std::vector<std::string>& tensorNames();  // inputs, weights, outputs

std::vector<ParamSpec> dramParams();
std::vector<ParamSpec> l2Params();
std::vector<ParamSpec> scratchpadParams();
std::vector<ParamSpec> accumulatorParams();
std::vector<ParamSpec> globalBufferParams();
std::vector<ParamSpec> clusterBufferParams();
// The sections under a level: its fan-out (when it may have one) and its per-tensor energies.
std::vector<SectionSpec> levelChildren(const std::string& key, bool fanout);
// `sparsity:` and its `formats.<level>` children (arch/schema_sparsity.cpp).
std::vector<SectionSpec> sparsitySections();

}  // namespace tessel::arch
