// A workload's sparsity: which tensors are sparse and how (util/sparsity.h). `--sparsity
// weights=2:4` makes every matmul's and convolution's weights 2:4 along the reduction axis;
// `--sparsity weights=0.5,inputs=0.4` makes the weights 50 % and the activations those ops read
// 40 % non-zero (uniform random). The cost model and the executor read the tensors' sparsity.
#pragma once

#include <string>

#include "models/graph.h"
#include "util/sparsity.h"

namespace tessel::models {

struct SparsitySpec {
  Sparsity weights, inputs;
  bool dense() const { return weights.dense() && inputs.dense(); }
};

// "weights=2:4", "weights=0.5,inputs=0.4", "inputs=60%". ConfigError naming `what` (the option
// or key) on a malformed spec, an unknown operand or one given twice.
SparsitySpec parseSparsitySpec(const std::string& text, const std::string& what = "--sparsity");
std::string toString(const SparsitySpec& s);  // "weights=2:4,inputs=0.4"; "dense"

// Sets the sparsity of every MatMul's and Conv2d's weight operand (a model parameter) and first
// input (the activation a weight layer reads: a ReLU network's zeros) as `spec` says; a dense
// part of the spec leaves those tensors as they are. Attention's activation x activation
// products (BatchMatMul) keep theirs.
void applySparsity(Graph& g, const SparsitySpec& spec);

// Where a GEMM-like op's operand runs along its reduction axis: true when `op` reads `tensor`
// as its weights (MatMul/Conv2d input 1).
bool isWeightOperand(const Op& op, int tensor);

}  // namespace tessel::models
