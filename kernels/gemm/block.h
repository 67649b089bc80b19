// A block of a [rows_total, total_cols] matrix held in scratch buffers, one per value domain
// (kernels-internal). Chains transform it in place; drivers fill and store it.
#pragma once

#include <cstdint>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels::detail {

struct Block {
  int64_t row0 = 0, col0 = 0;  // where the block sits in the full matrix
  int64_t rows = 0, cols = 0;  // valid extent
  int64_t ld = 0;              // row stride of the buffers
  int64_t total_cols = 0;      // columns of the full matrix (row-wise stages need them all)
  float* f = nullptr;          // Float domain values
  int32_t* i = nullptr;        // Int32 domain values
  int8_t* q = nullptr;         // Int8 domain values
  SaturationStats* sat = nullptr;
};

}  // namespace tessel::kernels::detail
