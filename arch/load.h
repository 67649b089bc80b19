// Building an Accelerator from YAML. Every failure is a ConfigError naming file:line:column
// and the YAML path; nothing here prints or exits.
#pragma once

#include <string>
#include <vector>

#include "arch/accelerator.h"

namespace tessel::arch {

// `overrides` are "-p" strings "dotted.yaml.path=value" applied to the YAML tree before
// validation (e.g. "accumulator.capacity=256KiB"); an unknown path is a ConfigError. A path
// ending in .cfg is a SCALE-Sim config, converted as arch/scalesim_config.h says.
Accelerator loadFile(const std::string& path, const std::vector<std::string>& overrides = {});
// Same, from text; `source_name` stands in for the file name in errors.
Accelerator loadString(const std::string& yaml, const std::string& source_name,
                       const std::vector<std::string>& overrides = {});

// A one-screen human summary of a valid accelerator (for `tessel arch check`).
std::string summary(const Accelerator& acc);
// Documentation of every YAML parameter: path, required/default, unit, one-line description.
std::string schemaDoc();

}  // namespace tessel::arch
