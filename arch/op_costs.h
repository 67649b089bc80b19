// Internal to arch/: the default of host.cycles_per_element and how given entries merge over
// it, for the schema's host section. arch/op_costs.cpp also defines sfuOpNames() and
// layoutOpDefaults(), which arch/schema.h declares.
#pragma once

#include <string>

#include "arch/schema.h"

namespace tessel::arch {

// The default of host.cycles_per_element, as YAML.
std::string hostCostDefaults();
// Given entries replace the defaults for those ops only (maps merge over their default).
Apply costsApply();

}  // namespace tessel::arch
