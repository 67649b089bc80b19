// Standalone (unfused) elementwise ops. Float results keep the input's format: an FP16/BF16
// tensor's result is rounded back to it, as a low-precision unit would store it.
#pragma once

#include "kernels/numeric/float_format.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

Tensor biasAdd(const Tensor& x, const Tensor& bias);  // bias [cols], float
// Residual add of two same-shape tensors: float (result in a's format), or Int32 with equal
// per-tensor quant params.
Tensor add(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& x, float s);
Tensor relu(const Tensor& x);                  // float, Int32, or Int8 (max with the zero point)
Tensor gelu(const Tensor& x, bool tanh_form);  // tanh form (GPT-2) or erf form (BERT)
// Converts between float formats (round to nearest even).
Tensor castTo(const Tensor& x, FloatFormat f);

}  // namespace tessel::kernels
