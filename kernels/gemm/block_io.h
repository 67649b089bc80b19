// Scratch buffers for blocks, block planning, and copies between blocks and matrices
// (kernels-internal).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/chain/op_chain.h"
#include "kernels/gemm/block.h"

namespace tessel::kernels::detail {

Domain domainOf(DType t);

struct BlockPlan {
  int64_t mc = 0;  // rows per block
  int64_t nc = 0;  // columns per block (all of them for row-wise chains)
};
// Blocks of about `budget` elements, mc a multiple of `mr`, nc = min(n, nc_target) (nc_target a
// multiple of 16) or all n columns for row-wise chains.
BlockPlan planBlocks(int64_t m, int64_t n, bool whole_rows, int64_t mr, int64_t budget,
                     int64_t nc_target = 256);

// One buffer per domain, each `rows x ld`.
class BlockBuffers {
 public:
  BlockBuffers(int64_t rows, int64_t ld);
  Block at(int64_t row0, int64_t col0, int64_t rows, int64_t cols, int64_t total_cols,
           SaturationStats* sat);

 private:
  int64_t ld_;
  std::vector<float> f_;
  std::vector<int32_t> i_;
  std::vector<int8_t> q_;
};

// Copies rows x cols values of domain d between a block buffer and a matrix with row stride ld
// whose element (0, 0) is at `m` (already offset to the block's origin).
void loadBlock(Block& b, Domain d, const void* m, int64_t ld);
void storeBlock(const Block& b, Domain d, void* m, int64_t ld);
// Pointer to element (r, c) of a matrix of domain d.
const void* offsetOf(const void* m, Domain d, int64_t r, int64_t c, int64_t ld);
void* offsetOf(void* m, Domain d, int64_t r, int64_t c, int64_t ld);
const void* dataOf(const Tensor& t);
void* dataOf(Tensor& t);

}  // namespace tessel::kernels::detail
