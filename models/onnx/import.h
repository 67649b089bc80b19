// ONNX import: a .onnx file -> a models::Graph the engines time and the executor runs.
//
// The file is parsed by libonnx behind one translation unit (onnx_reader.cpp) into the plain
// OnnxModel of onnx_model.h; everything after that (shape propagation, op conversion, pattern
// rewrites) is plain C++ and never sees protobuf. Weights are never read for timing: the graph's
// weight_values reads initializers lazily when a functional run asks.
#pragma once

#include <string>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models::onnx {

// Throws ConfigError naming the file (and node and op where one is at fault) for a file that is
// not ONNX, is truncated, is newer than supported, has an unbound or negative dimension, a
// cycle, a shape that cannot be inferred, an op without a model under options.strict, or counts
// that would overflow. Ops without a model are costed generically and listed in g.warnings.
Graph importFile(const std::string& path, const WorkloadOptions& options);

}  // namespace tessel::models::onnx
