// Internal to the ONNX importer: checks that must pass before libonnx's shape inference runs
// (it trusts attribute values and operand ranks, and crashes or divides by zero otherwise).
#pragma once

#include "models/onnx/onnx_model.h"

namespace tessel::models::onnx {

// ConfigError naming the node for: conv/pool strides, dilations, kernel sizes or groups below
// 1, negative pads, attribute lists of inconsistent lengths, a conv weight whose rank differs
// from its input's (where both are graph inputs or initializers), block sizes below 1.
void checkBeforeInference(const OnnxModel& m);

}  // namespace tessel::models::onnx
