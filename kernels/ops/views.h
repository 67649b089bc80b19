// Imported graphs alias views (Reshape, Flatten, Squeeze, ...) to their source tensor, whose
// stored shape stays the source's (models/onnx/import.h): a reader takes the shape from its own
// attributes. Both the executor and the double reference read inputs through this rule.
#pragma once

#include <cstdint>
#include <vector>

#include "models/graph.h"

namespace tessel::kernels {

// The shape `op` reads input i as: a Transpose's is its output permuted back, a Slice's or
// Concat's the output's with the axis extent from the element count, a Conv2d's activation its
// ConvShape's [N, C, H, W] (or NHWC), an elementwise op's input
// holding as many elements as the output the output's shape; otherwise the tensor's own.
std::vector<int64_t> readShape(const models::Graph& g, const models::Op& op, size_t i);

}  // namespace tessel::kernels
