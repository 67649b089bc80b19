// What one op of a graph costs in memory, for the readers that size a graph from their input
// (a config's num_hidden_layers, a topology's rows, an ONNX file's nodes): they check the count
// against util/budget.h with it before building anything.
#pragma once

#include <cstdint>

namespace tessel::models {

// What a run holds per op beyond the graph itself: its plan (mapping, loop nest, per-level
// tiles) and statistics (bytes and energy by level and tensor, cycles by cause), measured on
// `tessel run` of large SCALE-Sim topologies (peak RSS over ops).
inline constexpr int64_t kRunBytesPerOp = 8 * 1024;

// Bytes one op costs from reading to report: the op, its output tensor and weight, its graph
// indexes, and kRunBytesPerOp.
int64_t bytesPerOp();

}  // namespace tessel::models
