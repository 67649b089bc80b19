// A workload's sparsity: which tensors are sparse and how (util/sparsity.h). `--sparsity
// weights=2:4` makes every matmul's and convolution's weights 2:4 along the reduction axis;
// `--sparsity weights=0.5,inputs=0.4` makes the weights 50 % and the activations those ops read
// 40 % non-zero (uniform random). The cost model and the executor read the tensors' sparsity.
#pragma once

#include <string>
#include <vector>

#include "models/graph.h"
#include "models/weight_layout.h"
#include "util/sparsity.h"

namespace tessel::models {

struct SparsitySpec {
  Sparsity weights, inputs;
  // weights=measured: each weight's own zeros, read from the model file's values (an ONNX
  // file's initializers): the sparsest N:M pattern every group satisfies, else its density.
  bool weights_measured = false;
  bool dense() const { return weights.dense() && inputs.dense() && !weights_measured; }
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

// What the values of a weight laid out as `layout` are: the sparsest of 1:8, 1:4, 2:8, 1:2,
// 2:4, 4:8 (fewest non-zeros kept, then the shortest group) whose M divides the reduction and
// that every group of every channel satisfies (at most N non-zeros), else their density (dense
// when none is zero).
Sparsity measureSparsity(const std::vector<float>& values, const WeightLayout& layout);

}  // namespace tessel::models
