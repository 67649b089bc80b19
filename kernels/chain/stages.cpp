// The stage builders of OpChain. Each returns a closure that runs one row kernel over every row
// of a block: dispatch once per block and stage, tight loops inside.
#include <limits>
#include <string>

#include "kernels/chain/op_chain.h"
#include "kernels/gemm/block.h"
#include "kernels/ibert/ibert.h"
#include "kernels/rows/rows.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using detail::Block;

// Per-column parameters must cover the full matrix width.
void checkWidth(size_t have, const Block& b, const char* what) {
  if (static_cast<int64_t>(have) != b.total_cols)
    throw Error(std::string("OpChain: ") + what + " has " + std::to_string(have) + " values for " +
                std::to_string(b.total_cols) + " columns");
}

void checkWholeRows(const Block& b, const char* what) {
  if (b.col0 != 0 || b.cols != b.total_cols)
    throw Error(std::string("OpChain: ") + what + " needs blocks of whole rows");
}

template <class T, class F>
void forRows(const Block& b, T* base, F&& f) {
  for (int64_t r = 0; r < b.rows; ++r) f(base + r * b.ld, r);
}

}  // namespace

OpChain& OpChain::bias(std::vector<float> v) {
  return push(Domain::Float, Domain::Float, false, "bias", [v = std::move(v)](Block& b) {
    checkWidth(v.size(), b, "bias");
    forRows(b, b.f, [&](float* x, int64_t) { detail::addVec(x, b.cols, v.data() + b.col0); });
  });
}

OpChain& OpChain::mul(float s) {
  return push(Domain::Float, Domain::Float, false, "mul", [s](Block& b) {
    forRows(b, b.f, [&](float* x, int64_t) { detail::mulScalar(x, b.cols, s); });
  });
}

OpChain& OpChain::mul(std::vector<float> v) {
  return push(Domain::Float, Domain::Float, false, "mul", [v = std::move(v)](Block& b) {
    checkWidth(v.size(), b, "mul");
    forRows(b, b.f, [&](float* x, int64_t) { detail::mulVec(x, b.cols, v.data() + b.col0); });
  });
}

OpChain& OpChain::add(const Tensor& res) {
  const int64_t rows = res.rows(), cols = res.cols();
  auto check = [rows, cols](const Block& b) {
    if (cols != b.total_cols || b.row0 + b.rows > rows)
      throw Error("OpChain: residual tensor shape does not match the chain's matrix");
  };
  if (res.dtype() == DType::Int32) {
    const int32_t* p = res.i32();
    return push(Domain::Int32, Domain::Int32, false, "add", [=](Block& b) {
      check(b);
      forRows(b, b.i, [&](int32_t* x, int64_t r) {
        detail::addVecInt(x, b.cols, p + (b.row0 + r) * cols + b.col0);
      });
    });
  }
  const float* p = res.f32();
  return push(Domain::Float, Domain::Float, false, "add", [=](Block& b) {
    check(b);
    forRows(b, b.f, [&](float* x, int64_t r) {
      detail::addVec(x, b.cols, p + (b.row0 + r) * cols + b.col0);
    });
  });
}

OpChain& OpChain::relu() {
  const Domain d = out_.value_or(Domain::Float);
  if (d == Domain::Int8 && (!quant_ || quant_->zero_point.size() > 1))
    throw Error("OpChain: relu on int8 needs a known per-tensor zero point");
  const int32_t zp = quant_ && d != Domain::Float ? quant_->zero_point.at(0) : 0;
  return push(d, d, false, "relu", [d, zp](Block& b) {
    if (d == Domain::Float) forRows(b, b.f, [&](float* x, int64_t) { detail::relu(x, b.cols); });
    if (d == Domain::Int32)
      forRows(b, b.i, [&](int32_t* x, int64_t) { detail::reluInt(x, b.cols, zp); });
    if (d == Domain::Int8)
      forRows(b, b.q,
              [&](int8_t* x, int64_t) { detail::reluInt8(x, b.cols, static_cast<int8_t>(zp)); });
  });
}

OpChain& OpChain::gelu(bool tanh_form) {
  return push(Domain::Float, Domain::Float, false, "gelu", [tanh_form](Block& b) {
    forRows(b, b.f, [&](float* x, int64_t) {
      tanh_form ? detail::geluTanh(x, b.cols) : detail::geluErf(x, b.cols);
    });
  });
}

OpChain& OpChain::roundTo(FloatFormat f) {
  push(Domain::Float, Domain::Float, false, "roundTo", [f](Block& b) {
    forRows(b, b.f, [&](float* x, int64_t) { detail::roundRow(x, b.cols, f); });
  });
  float_format_ = f;
  return *this;
}

OpChain& OpChain::causalMask(int64_t offset) {
  const Domain d = out_.value_or(Domain::Float);
  if (d == Domain::Int8) throw Error("OpChain: causalMask needs float or int32 values");
  return push(d, d, false, "causalMask", [d, offset](Block& b) {
    for (int64_t r = 0; r < b.rows; ++r) {
      const int64_t first = std::max<int64_t>(b.row0 + r + offset + 1 - b.col0, 0);
      for (int64_t c = first; c < b.cols; ++c) {
        if (d == Domain::Float) b.f[r * b.ld + c] = -std::numeric_limits<float>::infinity();
        if (d == Domain::Int32) b.i[r * b.ld + c] = std::numeric_limits<int32_t>::min();
      }
    }
  });
}

OpChain& OpChain::softmax() {
  return push(Domain::Float, Domain::Float, true, "softmax", [](Block& b) {
    checkWholeRows(b, "softmax");
    forRows(b, b.f, [&](float* x, int64_t) { detail::softmaxRow(x, b.cols); });
  });
}

OpChain& OpChain::layerNorm(std::vector<float> gamma, std::vector<float> beta, float eps) {
  if (gamma.size() != beta.size()) throw Error("OpChain: layerNorm gamma/beta sizes differ");
  return push(Domain::Float, Domain::Float, true, "layerNorm",
              [g = std::move(gamma), bt = std::move(beta), eps](Block& b) {
                checkWholeRows(b, "layerNorm");
                checkWidth(g.size(), b, "layerNorm");
                forRows(b, b.f, [&](float* x, int64_t) {
                  detail::layerNormRow(x, b.cols, g.data(), bt.data(), eps);
                });
              });
}

}  // namespace tessel::kernels
