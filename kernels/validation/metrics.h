// Accuracy metrics of a tensor against its FP32 reference: error magnitudes, direction and
// signal-to-quantization-noise ratio, plus task metrics on logits (top-1 agreement, KL).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

struct ErrorMetrics {
  int64_t count = 0;      // elements compared: those finite in the reference
  int64_t nonfinite = 0;  // of those, elements not finite in x (poison every metric below)
  double max_abs = 0.0;   // max |x - ref|
  double rel_l2 = 0.0;    // ||x - ref|| / ||ref||
  double cosine = 1.0;    // <x, ref> / (||x|| ||ref||); 1 when both are zero
  double sqnr_db = 0.0;   // 10 log10(||ref||^2 / ||x - ref||^2); +inf when x == ref
};

// Entries infinite in the reference (masked attention scores) carry no signal and are skipped.
ErrorMetrics compareValues(const float* ref, const float* x, int64_t n);
// Int8/Int32 tensors are dequantized first. Throws Error when the element counts differ.
ErrorMetrics compare(const Tensor& ref, const Tensor& x);

// Real values of any tensor: float values, or dequantized integers.
std::vector<float> realValues(const Tensor& t);

// Logits viewed as [rows, classes] (classes = last dim).
// Fraction of rows whose argmax (first maximum) agrees.
double top1Agreement(const Tensor& ref_logits, const Tensor& logits);
// Mean over rows of KL(softmax(ref) || softmax(x)), in nats, computed in double.
double meanKlDivergence(const Tensor& ref_logits, const Tensor& logits);

}  // namespace tessel::kernels
