// Recognizes patterns an ONNX export spells out in primitive ops and rewrites each into the
// one op the engines, the fusion pass and the reports know:
//
//   LayerNorm  ReduceMean(x, last axis) -> Sub -> Pow 2 (or Mul d*d) -> ReduceMean -> Add eps
//              -> Sqrt -> Div (or Reciprocal / Div(1, .) then Mul) -> Mul gamma -> Add beta
//              => LayerNorm(x, gamma, beta), eps from the constant
//   RmsNorm    Pow 2 (or Mul x*x) -> ReduceMean(last axis) -> Add eps -> Sqrt -> Div (or
//              Reciprocal / Div(1, .) then Mul) -> Mul gamma   => RmsNorm(x, gamma)
//   Gelu       0.5 * x * (1 + erf(x / sqrt 2))  (or x * (1/sqrt 2)), any association order of
//              the outer product                               => Gelu(x), gelu_tanh = false
//              0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), x^3 as Pow(x, 3) or
//              x*x*x, any association of each product          => Gelu(x), gelu_tanh = true
//   Silu       x * Sigmoid(x)                                   => Silu(x)
//   HardSwish  x * HardSigmoid(x) with alpha 1/6, beta 0.5      => HardSwish(x)
//   attention  BatchMatMul(heads 0) -> [Mul / Div by a constant] -> [Add mask | Where] ->
//              Softmax -> BatchMatMul(heads 0): the scale folds into the first matmul's
//              attn.scale and an exactly causal constant mask into attn.causal; the Mul/Div
//              and mask ops go, the matmuls and the Softmax stay.
// On a BatchMatMul with heads == 0 the folded attn.scale and attn.causal mean what they mean
// for the score: out = scale * A x B, then -inf above the diagonal of the last two dims
// [S, T] offset by T - S. (graph.h's heads == 0 comment should say so; consumers of heads == 0
// matmuls must apply them.)
// Operands of Add and Mul may come in either order. A pattern applies only when every
// intermediate tensor is read by the pattern alone (a second reader keeps the ops as they are).
// The new op takes the name, outputs and layer of the pattern's last op, and its `source`
// lists the sources (or names) of every op it replaces. MACs do not change.
//
// What the pass needs from the importer (models/onnx):
//   - Constants: every initializer and every Constant node's value is a Weight tensor (no op
//     produces it) named as in the file; a scalar is any Weight of one element (shape [] or
//     [1]). g.weight_values->values(name) returns the values of such small constants, and of
//     attention masks up to a few thousand elements, without the external weight file (bool
//     as 0/1). The causal masks of the fixtures in tests/models/data/onnx are inline.
//   - Ops: Add -> OpKind::Add and Mul -> OpKind::Mul (also when broadcasting); Sub, Div, Pow,
//     Sqrt, Reciprocal, Erf, Tanh, Where, HardSigmoid -> Elementwise with fn "sub", "div",
//     "pow", "sqrt", "reciprocal", "erf", "tanh", "where", "hardsigmoid" (elt.alpha/beta set,
//     ONNX defaults filled in); ReduceMean -> Reduce "mean" with non-negative axes and
//     keepdims; Sigmoid -> Sigmoid; Softmax over the last axis -> Softmax; a MatMul of two
//     activations -> BatchMatMul with attn.heads = 0. ONNX's input order is kept.
// When a pattern's structure matches but a constant's value is unknown (no weight_values, or
// none for that tensor), the ops stay and a line in g.warnings says so: the math never
// changes silently. A constant known to differ (Pow 3, another HardSigmoid) is simply not
// that pattern.
#pragma once

#include "models/graph.h"

namespace tessel::models {

// The graph with every recognized pattern rewritten; the input is not modified. Throws
// tessel::Error only if the result fails Graph's own checks (a bug, not bad input).
Graph recognizePatterns(const Graph& g);

}  // namespace tessel::models
