// Internal to the ONNX importer: the Graph's weight_values for an imported model.
#pragma once

#include <memory>

#include "models/graph.h"
#include "models/onnx/context.h"

namespace tessel::models::onnx {

// Reads initializers on demand (never during import) and computes the importer's derived
// weights (folded BatchNorm scale/shift, constants, scaled Gemm operands) from them.
std::shared_ptr<const WeightSource> makeWeightSource(std::shared_ptr<const OnnxModel> model,
                                                     const Context& ctx);

}  // namespace tessel::models::onnx
