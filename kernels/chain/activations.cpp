// The OpChain stages of today's decoders: sigmoid, SiLU, hard swish, a tensor product (SwiGLU's
// gate) and RMSNorm. Same row kernels fused or alone, so both give the same bits.
#include <string>

#include "kernels/chain/op_chain.h"
#include "kernels/gemm/block.h"
#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using detail::Block;

template <class F>
void forRows(const Block& b, F&& f) {
  for (int64_t r = 0; r < b.rows; ++r) f(b.f + r * b.ld, r);
}

}  // namespace

OpChain& OpChain::sigmoid() {
  return push(Domain::Float, Domain::Float, false, "sigmoid", [](Block& b) {
    forRows(b, [&](float* x, int64_t) { detail::sigmoidRow(x, b.cols); });
  });
}

OpChain& OpChain::silu() {
  return push(Domain::Float, Domain::Float, false, "silu",
              [](Block& b) { forRows(b, [&](float* x, int64_t) { detail::siluRow(x, b.cols); }); });
}

OpChain& OpChain::hardSwish() {
  return push(Domain::Float, Domain::Float, false, "hardSwish", [](Block& b) {
    forRows(b, [&](float* x, int64_t) { detail::hardSwishRow(x, b.cols); });
  });
}

OpChain& OpChain::mulTensor(const Tensor& other) {
  if (!other.isFloat()) throw Error("OpChain: mulTensor needs a float tensor");
  const int64_t rows = other.rows(), cols = other.cols();
  const float* p = other.f32();
  return push(Domain::Float, Domain::Float, false, "mulTensor", [=](Block& b) {
    if (cols != b.total_cols || b.row0 + b.rows > rows)
      throw Error("OpChain: mulTensor's tensor shape does not match the chain's matrix");
    forRows(b, [&](float* x, int64_t r) {
      detail::mulVec(x, b.cols, p + (b.row0 + r) * cols + b.col0);
    });
  });
}

OpChain& OpChain::rmsNorm(std::vector<float> gamma, float eps) {
  return push(Domain::Float, Domain::Float, true, "rmsNorm", [g = std::move(gamma), eps](Block& b) {
    if (b.col0 != 0 || b.cols != b.total_cols)
      throw Error("OpChain: rmsNorm needs blocks of whole rows");
    if (static_cast<int64_t>(g.size()) != b.total_cols)
      throw Error("OpChain: rmsNorm has " + std::to_string(g.size()) + " gammas for " +
                  std::to_string(b.total_cols) + " columns");
    forRows(b, [&](float* x, int64_t) { detail::rmsNormRow(x, b.cols, g.data(), eps); });
  });
}

}  // namespace tessel::kernels
