// Internal to the ONNX importer: values for the graph inputs' symbolic dimensions.
#pragma once

#include <string>
#include <vector>

#include "models/onnx/onnx_model.h"
#include "models/workload.h"

namespace tessel::models::onnx {

// --dim NAME=VALUE bindings, and --batch for a symbolic leading dimension --dim does not name.
// ConfigError for a negative dimension, a --dim the inputs do not have, a value below 1, or a
// dimension left unbound (naming it and the inputs using it).
Bindings bindDims(const std::string& path, const std::vector<ValueInfo>& inputs,
                  const WorkloadOptions& options);

}  // namespace tessel::models::onnx
