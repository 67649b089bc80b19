#include "kernels/chain/op_chain.h"

#include <algorithm>
#include <string>

#include "kernels/gemm/block_io.h"
#include "util/error.h"

namespace tessel::kernels {

static const char* nameOf(Domain d) {
  switch (d) {
    case Domain::Float:
      return "float";
    case Domain::Int32:
      return "int32";
    case Domain::Int8:
      return "int8";
  }
  return "?";
}

OpChain& OpChain::push(Domain need, Domain produce, bool whole_rows, const char* what,
                       std::function<void(detail::Block&)> run) {
  if (!out_)
    throw Error(std::string("OpChain: ") + what + ": construct the chain with its input domain");
  if (*out_ != need)
    throw Error(std::string("OpChain: ") + what + " needs " + nameOf(need) +
                " values but the chain carries " + nameOf(*out_) + " here");
  auto stage = std::make_shared<Stage>();
  stage->run = std::move(run);
  stages_.push_back(std::move(stage));
  out_ = produce;
  whole_rows_ = whole_rows_ || whole_rows;
  if (produce == Domain::Float) float_format_ = FloatFormat::FP32;  // roundTo() sets it after
  return *this;
}

OpChain& OpChain::then(const OpChain& next) {
  if (next.stages_.empty()) return *this;
  if (stages_.empty() && !in_) return *this = next;
  if (!out_ || *out_ != *next.in_)
    throw Error(std::string("OpChain::then: the next chain takes ") + nameOf(*next.in_) +
                " values but this one produces " + (out_ ? nameOf(*out_) : "nothing yet"));
  stages_.insert(stages_.end(), next.stages_.begin(), next.stages_.end());
  out_ = next.out_;
  whole_rows_ = whole_rows_ || next.whole_rows_;
  if (*out_ == Domain::Float) float_format_ = next.float_format_;
  if (next.quant_) quant_ = next.quant_;
  return *this;
}

void OpChain::run(detail::Block& b) const {
  // All stages run on a slice of rows before the next slice: ~16 KiB per buffer keeps a
  // slice in L1 from one stage to the next. Stage dispatch stays once per slice.
  constexpr int64_t kSliceElems = 4096;
  const int64_t slice = std::max<int64_t>(1, kSliceElems / std::max<int64_t>(b.cols, 1));
  for (int64_t r = 0; r < b.rows; r += slice) {
    detail::Block s = b;
    s.row0 = b.row0 + r;
    s.rows = std::min(slice, b.rows - r);
    s.f = b.f + r * b.ld;
    s.i = b.i + r * b.ld;
    s.q = b.q + r * b.ld;
    for (const auto& st : stages_) st->run(s);
  }
}

DType OpChain::outputDType(DType input) const {
  if (stages_.empty()) return input;
  switch (*out_) {
    case Domain::Float:
      return dtypeOf(float_format_);
    case Domain::Int32:
      return DType::Int32;
    case Domain::Int8:
      return DType::Int8;
  }
  return input;
}

QuantParams OpChain::outputQuant(const QuantParams& input) const {
  return quant_ ? *quant_ : input;
}

Tensor applyChain(const OpChain& chain, const Tensor& x) {
  const Domain in = detail::domainOf(x.dtype());
  if (!chain.acceptsInput(in))
    throw Error("applyChain: the chain does not take this tensor's dtype");
  const Domain out_d = chain.outputDomain(in);
  Tensor out = Tensor::uninitialized(x.shape(), chain.outputDType(x.dtype()));
  out.quant = chain.outputQuant(x.quant);
  const int64_t m = x.rows(), n = x.cols();
  const detail::BlockPlan plan = detail::planBlocks(m, n, chain.needsWholeRows(), 1, 16384);
  detail::BlockBuffers buf(plan.mc, plan.nc);
  for (int64_t r0 = 0; r0 < m; r0 += plan.mc)
    for (int64_t c0 = 0; c0 < n; c0 += plan.nc) {
      detail::Block b =
          buf.at(r0, c0, std::min(plan.mc, m - r0), std::min(plan.nc, n - c0), n, &out.saturation);
      detail::loadBlock(b, in, detail::offsetOf(detail::dataOf(x), in, r0, c0, n), n);
      chain.run(b);
      detail::storeBlock(b, out_d, detail::offsetOf(detail::dataOf(out), out_d, r0, c0, n), n);
    }
  return out;
}

}  // namespace tessel::kernels
