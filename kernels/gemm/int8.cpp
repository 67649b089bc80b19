// matmul on INT8 activations and packed INT8 weights.
#include "kernels/gemm/int8.h"

#include <string>

#include "kernels/gemm/driver.h"
#include "util/error.h"

namespace tessel::kernels {

Tensor matmul(const Tensor& a, const PackedWeights& w, const OpChain& epilogue,
              const OpChain& prologue) {
  if (a.rank() < 1 || a.cols() != w.k())
    throw Error("int8 matmul: activation's last dim must equal K = " + std::to_string(w.k()));
  if (a.quant.perChannel()) throw Error("int8 matmul: activations need a per-tensor scale");
  detail::ASource src;
  src.domain = detail::domainOf(a.dtype());
  src.m = a.rows();
  src.k = a.cols();
  src.data = detail::dataOf(a);
  src.ld = a.cols();
  src.zero_point = a.quant.zero_point.at(0);
  const QuantParams a_quant = prologue.outputQuant(a.quant);
  std::vector<int64_t> shape = a.shape();
  shape.back() = w.n();
  Tensor out = Tensor::uninitialized(shape, epilogue.outputDType(DType::Int32));
  out.quant = epilogue.outputQuant(w.accumulatorQuant(a_quant.scale.at(0)));
  detail::runInt8Gemm(src, w, prologue, epilogue, {detail::dataOf(out), w.n()}, out.saturation);
  return out;
}

}  // namespace tessel::kernels
