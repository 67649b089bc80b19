#include "kernels/gemm/block_io.h"

#include <algorithm>
#include <cstring>

namespace tessel::kernels::detail {

Domain domainOf(DType t) {
  if (t == DType::Int8) return Domain::Int8;
  if (t == DType::Int32) return Domain::Int32;
  return Domain::Float;
}

static int64_t elemBytes(Domain d) { return d == Domain::Int8 ? 1 : 4; }

BlockPlan planBlocks(int64_t m, int64_t n, bool whole_rows, int64_t mr, int64_t budget,
                     int64_t nc_target) {
  BlockPlan p;
  p.nc = whole_rows ? n : std::min<int64_t>(n, nc_target);
  p.nc = std::max<int64_t>(p.nc, 1);
  const int64_t m_pad = (std::max<int64_t>(m, 1) + mr - 1) / mr * mr;
  int64_t rows = budget / p.nc;
  // Whole rows of a wide matrix would shrink blocks to a few rows, and every row block streams
  // all of B again: keep up to 64 rows while the block stays under 2^21 values (8 MiB int32).
  if (whole_rows) rows = std::max(rows, std::min<int64_t>(64, (int64_t{1} << 21) / p.nc));
  p.mc = std::clamp<int64_t>(rows / mr * mr, mr, m_pad);
  return p;
}

BlockBuffers::BlockBuffers(int64_t rows, int64_t ld)
    : ld_(ld),
      f_(static_cast<size_t>(rows * ld)),
      i_(static_cast<size_t>(rows * ld)),
      q_(static_cast<size_t>(rows * ld)) {}

Block BlockBuffers::at(int64_t row0, int64_t col0, int64_t rows, int64_t cols, int64_t total_cols,
                       SaturationStats* sat) {
  Block b;
  b.row0 = row0;
  b.col0 = col0;
  b.rows = rows;
  b.cols = cols;
  b.ld = ld_;
  b.total_cols = total_cols;
  b.f = f_.data();
  b.i = i_.data();
  b.q = q_.data();
  b.sat = sat;
  return b;
}

static void* bufferOf(const Block& b, Domain d) {
  if (d == Domain::Int8) return b.q;
  if (d == Domain::Int32) return b.i;
  return b.f;
}

void loadBlock(Block& b, Domain d, const void* m, int64_t ld) {
  const int64_t eb = elemBytes(d);
  auto* dst = static_cast<char*>(bufferOf(b, d));
  const auto* src = static_cast<const char*>(m);
  for (int64_t r = 0; r < b.rows; ++r)
    std::memcpy(dst + r * b.ld * eb, src + r * ld * eb, static_cast<size_t>(b.cols * eb));
}

void storeBlock(const Block& b, Domain d, void* m, int64_t ld) {
  const int64_t eb = elemBytes(d);
  const auto* src = static_cast<const char*>(bufferOf(b, d));
  auto* dst = static_cast<char*>(m);
  for (int64_t r = 0; r < b.rows; ++r)
    std::memcpy(dst + r * ld * eb, src + r * b.ld * eb, static_cast<size_t>(b.cols * eb));
}

const void* offsetOf(const void* m, Domain d, int64_t r, int64_t c, int64_t ld) {
  return static_cast<const char*>(m) + (r * ld + c) * elemBytes(d);
}

void* offsetOf(void* m, Domain d, int64_t r, int64_t c, int64_t ld) {
  return static_cast<char*>(m) + (r * ld + c) * elemBytes(d);
}

const void* dataOf(const Tensor& t) {
  if (t.dtype() == DType::Int8) return t.i8();
  if (t.dtype() == DType::Int32) return t.i32();
  return t.f32();
}

void* dataOf(Tensor& t) {
  if (t.dtype() == DType::Int8) return t.i8();
  if (t.dtype() == DType::Int32) return t.i32();
  return t.f32();
}

}  // namespace tessel::kernels::detail
