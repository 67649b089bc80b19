// The blocked GEMM drivers behind matmul, attention and conv (kernels-internal). A driver
// computes one cache-sized output block at a time, runs the epilogue chain on it, and stores it:
// no full intermediate tensor is written.
#pragma once

#include <cstdint>
#include <functional>

#include "kernels/chain/op_chain.h"
#include "kernels/gemm/block_io.h"
#include "kernels/gemm/float.h"
#include "kernels/gemm/int8.h"

namespace tessel::kernels::detail {

// Where the rows of the A operand (M x K) come from.
struct ASource {
  Domain domain = Domain::Float;
  int64_t m = 0, k = 0;
  const void* data = nullptr;  // row-major, row stride ld (elements), when readable in place
  int64_t ld = 0;
  // Otherwise: writes rows [r0, r0 + rows) contiguously (row stride k) into dst (im2col).
  std::function<void(int64_t r0, int64_t rows, void* dst)> fill;
  int32_t zero_point = 0;  // of Int8 A (a prologue that quantizes sets its own)
};

// Element (0, 0) of the output matrix and its row stride; the element type follows the
// epilogue's output domain.
struct OutView {
  void* data = nullptr;
  int64_t ld = 0;
};

// B for the float driver: element (k, n) at data[k * ld + n], or data[n * ld + k] if transposed;
// values already rounded to the operand format.
struct FloatB {
  const float* data = nullptr;
  int64_t k = 0, n = 0, ld = 0;
  bool transposed = false;
};

// Rows of A in domain `want` after the prologue, via scratch owned by the caller.
class ARows {
 public:
  ARows(const ASource& a, const OpChain& prologue, Domain want, int64_t max_rows);
  // Pointer to rows [r0, r0 + rows) and their stride.
  const void* get(int64_t r0, int64_t rows, int64_t& ld, SaturationStats& sat);

 private:
  const ASource& a_;
  const OpChain& pro_;
  Domain want_;
  BlockBuffers buf_;
};

void runInt8Gemm(const ASource& a, const PackedWeights& w, const OpChain& prologue,
                 const OpChain& epilogue, OutView out, SaturationStats& sat);
void runFloatGemm(const ASource& a, const FloatB& b, const FloatGemmConfig& cfg,
                  const OpChain& prologue, const OpChain& epilogue, OutView out,
                  SaturationStats& sat);

}  // namespace tessel::kernels::detail
