// OpChain: a fusable chain of elementwise, conversion and row-wise ops (any length, any order)
// that a GEMM runs as its epilogue (or prologue) on each cache-sized block right after the block
// is computed, or that runs alone over a tensor (applyChain). Each stage is applied to the whole
// block with one tight loop; stage dispatch happens once per block, never per element.
//
// Values flow in a domain (Float, Int32 or Int8); each stage states the domain it needs and the
// builder throws Error when the chain does not type-check, e.g. bias() right after an INT8 GEMM
// needs dequantize() (or biasInt()) first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/numeric/float_format.h"
#include "kernels/numeric/requantize.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels {

namespace detail {
struct Block;
}
class ILayerNorm;

enum class Domain : uint8_t { Float, Int32, Int8 };

class OpChain {
 public:
  OpChain() = default;  // the identity chain: no stages, accepts any domain
  // `input_quant` declares the input's integer params; only relu() on an Int8 input needs it
  // (the zero point is the integer "0"). Conversions inside the chain set their own.
  explicit OpChain(Domain input, std::optional<QuantParams> input_quant = std::nullopt)
      : in_(input), out_(input), quant_(std::move(input_quant)) {}

  // Float domain. Per-column vectors are indexed by output column.
  OpChain& bias(std::vector<float> per_column);
  OpChain& mul(float s);
  OpChain& mul(std::vector<float> per_column);
  // x += residual, a tensor of the chain's full [rows, cols] shape (Float or Int32 domain). The
  // chain keeps a pointer: the tensor must outlive every run of the chain.
  OpChain& add(const Tensor& residual);
  // Float; Int32 or Int8: max with the current per-tensor zero point (0 for accumulators; Int8
  // needs one known from input_quant or an earlier quantize/requantize/iSoftmax).
  OpChain& relu();
  OpChain& gelu(bool tanh_form);  // tanh form (GPT-2) or erf form (BERT)
  OpChain& roundTo(FloatFormat f);
  OpChain& causalMask(int64_t offset);  // c > r + offset -> -inf (Float) or INT32_MIN (Int32)
  OpChain& softmax();                   // row-wise
  OpChain& layerNorm(std::vector<float> gamma, std::vector<float> beta, float eps);  // row-wise
  OpChain& sigmoid();
  OpChain& silu();
  OpChain& hardSwish();
  // x *= other, a float tensor of the chain's full [rows, cols] shape (kept by pointer, as add).
  OpChain& mulTensor(const Tensor& other);
  OpChain& rmsNorm(std::vector<float> gamma, float eps);  // row-wise

  // Int32 domain.
  OpChain& biasInt(std::vector<int32_t> per_column);
  // I-BERT integer-only GELU on values of scale `input_scale`; output scale in outputQuant().
  OpChain& iGelu(float input_scale);
  // I-BERT integer-only softmax: Int32 -> Int8 probabilities (scale 1/256, zero point -128).
  OpChain& iSoftmax(float input_scale);
  // I-BERT integer-only layer norm (row-wise); output scales per column in outputQuant().
  OpChain& iLayerNorm(std::vector<float> gamma, std::vector<float> beta);
  // I-BERT's layer norm without the mean: integer-only RMSNorm, output scales per column.
  OpChain& iRmsNorm(std::vector<float> gamma);

  // Conversions.
  OpChain& quantize(QuantParams q);  // Float -> Int8, per tensor or per column; clips counted
  OpChain& dequantize(const QuantParams& q);  // Int32 or Int8 -> Float, per tensor or per column
  OpChain& requantize(const Requant& r);      // Int32 -> Int8, integer only; clips counted

  // Appends another chain's stages (its input domain must match this chain's output).
  OpChain& then(const OpChain& next);

  bool empty() const { return stages_.empty(); }
  size_t size() const { return stages_.size(); }
  bool acceptsInput(Domain d) const { return !in_ || *in_ == d; }
  Domain outputDomain(Domain input) const { return out_ ? *out_ : input; }
  bool needsWholeRows() const { return whole_rows_; }
  // Dtype and params of what the chain produces, given its input's.
  DType outputDType(DType input) const;
  QuantParams outputQuant(const QuantParams& input) const;

  // Runs every stage on the block (kernels-internal entry point used by the drivers).
  void run(detail::Block& b) const;

 private:
  struct Stage {
    std::function<void(detail::Block&)> run;
  };
  OpChain& iNorm(const ILayerNorm& ln);  // the row-wise stage of iLayerNorm and iRmsNorm
  OpChain& push(Domain need, Domain produce, bool whole_rows, const char* what,
                std::function<void(detail::Block&)> run);

  std::optional<Domain> in_, out_;
  bool whole_rows_ = false;
  FloatFormat float_format_ = FloatFormat::FP32;  // of Float outputs (set by a final roundTo)
  std::optional<QuantParams> quant_;              // of Int outputs, once a stage sets them
  std::vector<std::shared_ptr<const Stage>> stages_;
};

// Runs `chain` over x viewed as [rows, cols], one cache-sized block at a time. The result's
// saturation adds the clips of every conversion in the chain.
Tensor applyChain(const OpChain& chain, const Tensor& x);

}  // namespace tessel::kernels
