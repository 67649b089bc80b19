// Internal to the ONNX importer: the Graph's weight_values for an imported model.
#pragma once

#include <memory>
#include <string>

#include "models/graph.h"
#include "models/onnx/context.h"

namespace tessel::models::onnx {

// Reads initializers on demand (never during import) and computes the importer's derived
// weights (folded BatchNorm scale/shift, constants, scaled Gemm operands) from them.
std::shared_ptr<const WeightSource> makeWeightSource(std::shared_ptr<const OnnxModel> model,
                                                     const Context& ctx);

// Whether an external-data initializer's file exists (nothing is read).
bool externalDataPresent(const std::string& model_path, const Initializer& init);
// A warning naming the external data files the model refers to and that are absent, or "".
std::string missingWeightsWarning(const OnnxModel& model);

}  // namespace tessel::models::onnx
