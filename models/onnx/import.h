// ONNX import: a .onnx file -> a models::Graph the engines time and the executor runs.
//
// Pipeline (models/onnx/):
//   reader.cpp       the only file that sees libonnx/protobuf: ModelProto -> OnnxModel
//                    (onnx_model.h), ONNX shape inference with data propagation after the
//                    graph inputs' symbolic dims are bound (bind.cpp: --dim NAME=VALUE, else
//                    --batch for a symbolic leading dim). Before inference each node passes
//                    ONNX's schema check and tessel's attribute checks (validate.cpp), and
//                    Conv/ConvTranspose/pool nodes are hidden from libonnx, whose inference of
//                    them crashes on malformed operands: tessel infers those itself.
//   shapes.cpp       every value gets a concrete shape: ONNX's where complete, else tessel's
//                    own rules (infer.cpp) and integer constant folding of shape arithmetic
//                    (fold.cpp: Shape, Gather, Concat, Unsqueeze, Div, Slice, Range, ...).
//   convert_*.cpp    one converter per op type; ops without a model are costed as generic
//                    Elementwise ops (fn = the lowercased op type) and listed in one warning
//                    per op type, or rejected under options.strict.
//   weights.cpp      Graph::weight_values reads initializers lazily (embedded, or external data)
//                    and computes derived weights (folded BatchNorm, Gemm alpha/beta, constants).
//                    Timing never reads them: a model whose external data file is missing
//                    imports fine.
//
// Conventions of imported graphs:
//   - Tensors: graph inputs first (file order), then initializers as Weight tensors when an op
//     reads them, then op outputs. Float tensors get options.dtype; integer ids Int32; int8 and
//     uint8 tensors (quantized ops) Int8; int32 accumulators Int32.
//   - Ops keep ONNX layouts (channels_first for Conv, pools, BatchNorm); Op::source names the
//     node ("node 'conv1' (Conv)"). Ops a node expands into are named after it ("gemm.transA").
//   - Conv: ConvShape.p/q come from the exact (possibly asymmetric) pads; ConvShape.pad is the
//     leading (top, or left for 1-D) pad. 1-D convs are 2-D with height 1. Different strides or
//     dilations along height and width are rejected with a clear error.
//   - ConvTranspose is timed as the GEMM it performs: every input pixel times the weight
//     [C/g, K/g*R*S] (MACs N*H*W*C*K*R*S/g), i.e. a 1x1 Conv2d making K*R*S channels per
//     group; the col2im scatter-add into the [N, K, P, Q] output is not costed.
//   - MatMul/Gemm with a 2-D initializer B is a MatMul (rows folded into gemm.m; an Add of a
//     1-D initializer on its only reader folds in as the bias); otherwise a BatchMatMul with
//     attn.heads = 0 (gemm.batch = product of the broadcast batch dims).
//
// Views and aliasing. Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout, a Slice that
// keeps everything, and a Cast between types tessel stores alike create no op and no tensor:
// the view's ONNX name maps to its source's tessel tensor, whose shape stays the source's.
// Readers get the source tensor and take their attributes from the view's shape:
//   - MatMul folds all leading dims into rows, so [B, S, D] and [B*S, D] read the same;
//   - Transpose's input view shape is its output shape permuted back (in[perm[i]] = out[i]);
//   - Slice and Concat inputs' view shapes are the output's with the axis extent replaced by
//     elements / (product of the other dims);
//   - same-shape elementwise ops read elements in order whatever the shape.
// A reader whose semantics need the view's own shape (Softmax/LayerNorm over the last axis,
// BatchNorm, pools, Reduce, Gather's data, BatchMatMul operands, broadcasting elementwise ops)
// gets one Elementwise "reshape" copy of the view when the shapes differ (shared by every
// later reader, counted in one warning). Shape computations folded to constants (Shape ->
// Gather -> Concat -> Reshape chains) create nothing either.
//
// Versions: IR <= 8 and opset <= 17 are supported. IR 9-10 and opsets 18-21 import best effort
// (a warning; tessel's own shape rules must give every shape, else an error naming the node);
// newer versions, or any newer version under options.strict, are errors.
#pragma once

#include <string>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models::onnx {

// Throws ConfigError naming the file (and node and op where one is at fault) for a missing
// file or a directory, a file that is not ONNX or is truncated, a version newer than
// supported, an unbound or negative dimension, a cycle, a shape that cannot be inferred, an op
// without a model under options.strict, or counts that would overflow. Ops without a model
// are costed generically and listed in g.warnings.
Graph importFile(const std::string& path, const WorkloadOptions& options);

}  // namespace tessel::models::onnx
