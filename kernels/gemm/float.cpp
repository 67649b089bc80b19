#include "kernels/gemm/float.h"

#include <string>

#include "kernels/gemm/driver.h"
#include "util/error.h"

namespace tessel::kernels {

FloatWeights::FloatWeights(const Tensor& w, FloatGemmConfig cfg, bool transposed) : cfg_(cfg) {
  if (!w.isFloat() || w.rank() != 2)
    throw Error("FloatWeights: weights must be a 2-D float tensor");
  k_ = transposed ? w.dim(1) : w.dim(0);
  n_ = transposed ? w.dim(0) : w.dim(1);
  data_.resize(static_cast<size_t>(k_ * n_));
  const float* src = w.f32();
  for (int64_t k = 0; k < k_; ++k)
    for (int64_t n = 0; n < n_; ++n)
      data_[static_cast<size_t>(k * n_ + n)] =
          roundTo(transposed ? src[n * k_ + k] : src[k * n_ + n], cfg.operands);
}

Tensor matmul(const Tensor& a, const FloatWeights& w, const OpChain& epilogue,
              const OpChain& prologue) {
  if (a.rank() < 1 || a.cols() != w.k())
    throw Error("float matmul: activation's last dim must equal K = " + std::to_string(w.k()));
  detail::ASource src;
  src.domain = detail::domainOf(a.dtype());
  src.m = a.rows();
  src.k = a.cols();
  src.data = detail::dataOf(a);
  src.ld = a.cols();
  std::vector<int64_t> shape = a.shape();
  shape.back() = w.n();
  Tensor out = Tensor::uninitialized(shape, epilogue.outputDType(dtypeOf(w.config().accumulate)));
  out.quant = epilogue.outputQuant(out.quant);
  detail::runFloatGemm(src, {w.data(), w.k(), w.n(), w.n(), false}, w.config(), prologue, epilogue,
                       {detail::dataOf(out), w.n()}, out.saturation);
  return out;
}

}  // namespace tessel::kernels
