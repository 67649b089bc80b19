// The host computes in floating point. On an integer accelerator, an op the host runs gets an
// explicit Dequantize (int -> fp32) on each integer input and a Quantize (fp32 -> int) on its
// integer output: graph ops of their own (class QuantDequant), placed and charged like any
// other op, so the conversion cost and the wider tensors it moves are visible. Host ops that
// feed each other keep fp32 between them: conversions sit only where a tensor crosses between
// integer accelerator ops and host FP ops.
#pragma once

#include <vector>

#include "arch/accelerator.h"
#include "models/graph.h"

namespace tessel::dataflows {

// By op id: whether the host runs the op element by element in floating point (a vector op
// placed on the host; not one that folds into a GEMM's epilogue when `fuse`, nor a GEMM, whose
// host cost is its FLOPs, nor a conversion itself, nor a layout op, which only moves bytes).
std::vector<bool> hostFloatOps(const models::Graph& graph, const arch::Accelerator& acc, bool fuse);

// The graph with those conversions inserted (models::retype). The host ops then read and write
// fp32 (their weights arrive in fp32); every other op keeps its dtypes. Idempotent: a graph it
// returned comes back unchanged. dataflows::plan requires it for graphs with such host ops
// (with the same `fuse` as PlanOptions::fuse); the plans point into the graph it returns, so
// the caller keeps that graph alive.
models::Graph withHostConversions(const models::Graph& graph, const arch::Accelerator& acc,
                                  bool fuse = true);

}  // namespace tessel::dataflows
