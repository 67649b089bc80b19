// The loop nest of one compute op, in one vocabulary for every op: a (grouped) convolution
//   O[g][n][k][p][q] += I[g][n][c][p*sh + r*dh][q*sw + s*dw] * W[g][k][c][r][s]
// A GEMM C[m][n] = A[m][k] B[k][n] is the case p = m, k = n, c = k (q = r = s = 1), and a batched
// GEMM (attention over heads) puts the batch on g, where each group has its own "weights".
// Convolutions keep their window (r, s, strides, dilation) so halos are counted where reused.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dataflows/operand.h"
#include "util/dtype.h"
#include "util/sparsity.h"

namespace tessel::models {
class Graph;
struct Op;
}  // namespace tessel::models

namespace tessel::dataflows::nest {

enum class Dim : uint8_t { G, N, K, C, P, Q, R, S };
inline constexpr int kDims = 8;
inline constexpr std::array<Dim, kDims> kAllDims{Dim::G, Dim::N, Dim::K, Dim::C,
                                                 Dim::P, Dim::Q, Dim::R, Dim::S};
inline constexpr int kTensors = 3;  // Operand::Input, Weight, Output

// One value per dim, indexed by Dim.
using Factors = std::array<int64_t, kDims>;
inline constexpr Factors kOnes{1, 1, 1, 1, 1, 1, 1, 1};
inline size_t at(Dim d) { return static_cast<size_t>(d); }
inline size_t at(Operand t) { return static_cast<size_t>(t); }

// Conv names "G".."S": what dataflow files and pinned mappings of convolutions use.
std::string_view convName(Dim d);
std::optional<Dim> dimFromConvName(std::string_view name);  // case-insensitive
// Timeloop's names "G N M C P Q R S" (M = tessel's K), for any problem (a GEMM is the
// convolution Timeloop writes for it: P = m, M = n, C = k, G = b).
std::string_view timeloopName(Dim d);

struct Problem {
  Factors extent = kOnes;
  int64_t stride_h = 1, stride_w = 1;
  int64_t dilation_h = 1, dilation_w = 1;
  // The input's rows and columns without padding: a halo tile never reads more than these.
  // 0 = unclipped.
  int64_t input_h = 0, input_w = 0;
  bool gemm = false;  // name dims as a GEMM: b (g), m (p), n (k), k (c)
  // Name dims as Timeloop does (timeloopName), whatever `gemm` says: messages about a mapping
  // the user wrote in Timeloop's map.yaml speak its names.
  bool timeloop_names = false;
  // A convolution run as its im2col GEMM (Gemmini): unique input elements per im2col element.
  // The DMA moves raw input rows and the im2col unit expands them on the way to the array, so
  // off-chip input transfers scale by this; the array still sees the expanded stream. 1 else.
  double im2col_unique = 1;
  DType input_dtype = DType::Int8;
  DType weight_dtype = DType::Int8;
  DType output_dtype = DType::Int8;
  // How sparse the input (0) and the weights (1) are (util/sparsity.h); outputs are dense.
  std::array<Sparsity, 2> sparsity{};
  bool sparse() const { return !sparsity[0].dense() || !sparsity[1].dense(); }

  int64_t of(Dim d) const { return extent[at(d)]; }
  int64_t macs() const;
  // Does tensor t's footprint change along d? (the input along p and r through its rows)
  // Inline: the cost model asks it for every loop of every candidate.
  static bool relevant(Operand t, Dim d) {
    switch (t) {
      case Operand::Input:
        return d != Dim::K;
      case Operand::Weight:
        return d == Dim::G || d == Dim::K || d == Dim::C || d == Dim::R || d == Dim::S;
      case Operand::Output:
        return d == Dim::G || d == Dim::N || d == Dim::K || d == Dim::P || d == Dim::Q;
    }
    return false;
  }
  // Distinct rows (or columns) of the input a tile of `p` output rows and `r` filter rows reads:
  // rows a stride or a dilation skips are not counted.
  int64_t inputRows(int64_t p, int64_t r) const;
  int64_t inputCols(int64_t q, int64_t s) const;
  // Elements of tensor t in a tile of these extents (the input with its halo).
  double footprint(Operand t, const Factors& tile) const;
  // Elements of the whole tensor.
  double elements(Operand t) const { return footprint(t, extent); }
  // The name users see: GEMMs "b m n k", convolutions "G N K C P Q R S"; "" for a GEMM's
  // unused dims; with timeloop_names, timeloopName.
  std::string dimName(Dim d) const;
  std::optional<Dim> dimByName(std::string_view name) const;
  // "gemm m=128 n=768 k=768" / "conv N=1 K=64 C=3 P=112 Q=112 R=7 S=7 stride 2".
  std::string describe() const;
};

// The nest of a MatMul, BatchMatMul or Conv2d op (tessel::Error for other kinds).
Problem problemOf(const models::Op& op, const models::Graph& graph);
// A GEMM of the given extents (batch on g).
Problem gemmProblem(int64_t batch, int64_t m, int64_t n, int64_t k, DType in = DType::Int8,
                    DType w = DType::Int8, DType out = DType::Int8);

}  // namespace tessel::dataflows::nest
