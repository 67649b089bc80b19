// The loop nest of one compute op, seen as a (batched) GEMM: C[b][m][n] += A[b][m][k] * B[b][k][n].
// Convolutions are lowered by im2col (m = N*P*Q, n = K, k = C*R*S), as Gemmini does in hardware.
#pragma once

#include <cstdint>
#include <string_view>

#include "dataflows/nest/problem.h"
#include "dataflows/operand.h"
#include "models/graph.h"

namespace tessel::dataflows {

enum class Dim : uint8_t { M, N, K };
std::string_view nameOf(Dim d);


struct Problem {
  int64_t batch = 1;
  int64_t m = 0, n = 0, k = 0;
  DType input_dtype = DType::Int8;
  DType weight_dtype = DType::Int8;
  DType output_dtype = DType::Int8;
  bool weight_is_activation = false;  // BatchMatMul: B is produced by another op
  // Unique elements of A in memory divided by im2col elements (conv input reuse; 1 for GEMM).
  double input_footprint_ratio = 1.0;
  // The op's own loop nest (a convolution keeps its window), which searching mappers map.
  nest::Problem loops;

  int64_t extent(Dim d) const { return d == Dim::M ? m : d == Dim::N ? n : k; }
  int64_t macs() const { return batch * m * n * k; }
  // Does operand x index dimension d? (A: m,k; B: k,n; C: m,n)
  static bool dependsOn(Operand x, Dim d);
  // Unique bytes each operand occupies in memory.
  int64_t inputBytes() const;
  int64_t weightBytes() const;
  int64_t outputBytes() const;
};

// The GEMM view of a MatMul, BatchMatMul or Conv2d op. Throws tessel::Error for other kinds.
Problem problemOf(const models::Op& op, const models::Graph& graph);

// The loops of p's im2col GEMM (what Gemmini's hardware im2col presents the array): a
// convolution's window flattened into k, the input's unique share kept, its operands' sparsity.
nest::Problem gemmView(const Problem& p);

}  // namespace tessel::dataflows
