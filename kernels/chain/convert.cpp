// OpChain stages on integers: conversions, int32 bias, and the I-BERT integer-only ops.
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

void checkCols(size_t have, const Block& b, const char* what) {
  if (have > 1 && static_cast<int64_t>(have) != b.total_cols)
    throw Error(std::string("OpChain: ") + what + " has " + std::to_string(have) +
                " per-column values for " + std::to_string(b.total_cols) + " columns");
}

SaturationStats& satOf(Block& b) {
  static thread_local SaturationStats ignored;
  return b.sat ? *b.sat : ignored;
}

std::vector<int32_t> zeroPoints(const QuantParams& q) {
  std::vector<int32_t> zp(q.scale.size());
  for (size_t c = 0; c < zp.size(); ++c) zp[c] = q.zeroPointAt(static_cast<int64_t>(c));
  return zp;
}

constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();

}  // namespace

OpChain& OpChain::biasInt(std::vector<int32_t> v) {
  return push(Domain::Int32, Domain::Int32, false, "biasInt", [v = std::move(v)](Block& b) {
    if (static_cast<int64_t>(v.size()) != b.total_cols)
      throw Error("OpChain: biasInt needs one value per column");
    for (int64_t r = 0; r < b.rows; ++r)
      detail::addVecInt(b.i + r * b.ld, b.cols, v.data() + b.col0);
  });
}

OpChain& OpChain::quantize(QuantParams q) {
  if (q.qmin < -128 || q.qmax > 127) throw Error("OpChain: quantize needs an int8 range");
  auto zp = zeroPoints(q);
  auto scale = q.scale;
  const QuantParams qp = q;
  push(Domain::Float, Domain::Int8, false, "quantize", [qp, zp, scale](Block& b) {
    checkCols(scale.size(), b, "quantize");
    for (int64_t r = 0; r < b.rows; ++r) {
      const float* x = b.f + r * b.ld;
      int8_t* o = b.q + r * b.ld;
      if (scale.size() > 1)
        detail::quantizeRowPerCol(x, o, b.cols, scale.data() + b.col0, zp.data() + b.col0, qp.qmin,
                                  qp.qmax, satOf(b));
      else
        detail::quantizeRow(x, o, b.cols, scale[0], zp[0], qp.qmin, qp.qmax, satOf(b));
    }
  });
  quant_ = std::move(q);
  return *this;
}

OpChain& OpChain::dequantize(const QuantParams& q) {
  const Domain d = out_.value_or(Domain::Int32);
  if (d == Domain::Float) throw Error("OpChain: dequantize needs int8 or int32 values");
  auto zp = zeroPoints(q);
  auto scale = q.scale;
  return push(d, Domain::Float, false, "dequantize", [d, zp, scale](Block& b) {
    checkCols(scale.size(), b, "dequantize");
    const bool per_col = scale.size() > 1;
    for (int64_t r = 0; r < b.rows; ++r) {
      float* o = b.f + r * b.ld;
      const int64_t c0 = per_col ? b.col0 : 0;
      if (d == Domain::Int32 && per_col)
        detail::dequantizeRowPerCol(b.i + r * b.ld, o, b.cols, scale.data() + c0, zp.data() + c0);
      else if (d == Domain::Int32)
        detail::dequantizeRow(b.i + r * b.ld, o, b.cols, scale[0], zp[0]);
      else if (per_col)
        detail::dequantizeRow8PerCol(b.q + r * b.ld, o, b.cols, scale.data() + c0, zp.data() + c0);
      else
        detail::dequantizeRow8(b.q + r * b.ld, o, b.cols, scale[0], zp[0]);
    }
  });
}

OpChain& OpChain::requantize(const Requant& rq) {
  if (rq.multipliers.empty()) throw Error("OpChain: requantize without multipliers");
  const QuantParams out = rq.out;
  push(Domain::Int32, Domain::Int8, false, "requantize", [rq](Block& b) {
    const auto& m = rq.multipliers;
    checkCols(m.size(), b, "requantize");
    const int32_t zp = rq.out.zero_point.at(0);
    for (int64_t r = 0; r < b.rows; ++r) {
      if (m.size() > 1)
        detail::requantizeRowPerCol(b.i + r * b.ld, b.q + r * b.ld, b.cols, m.data() + b.col0, zp,
                                    rq.out.qmin, rq.out.qmax, satOf(b));
      else
        detail::requantizeRow(b.i + r * b.ld, b.q + r * b.ld, b.cols, m[0], zp, rq.out.qmin,
                              rq.out.qmax, satOf(b));
    }
  });
  quant_ = out;
  return *this;
}

OpChain& OpChain::iGelu(float input_scale) {
  const IGelu g(input_scale);
  push(Domain::Int32, Domain::Int32, false, "iGelu", [g](Block& b) {
    for (int64_t r = 0; r < b.rows; ++r) g.run(b.i + r * b.ld, b.cols, satOf(b));
  });
  quant_ = QuantParams::perTensor(g.outputScale(), 0, kI32Min, kI32Max);
  return *this;
}

OpChain& OpChain::iSoftmax(float input_scale) {
  const ISoftmax sm(input_scale);
  push(Domain::Int32, Domain::Int8, true, "iSoftmax", [sm](Block& b) {
    if (b.col0 != 0 || b.cols != b.total_cols)
      throw Error("OpChain: iSoftmax needs blocks of whole rows");
    for (int64_t r = 0; r < b.rows; ++r) sm.run(b.i + r * b.ld, b.q + r * b.ld, b.cols, satOf(b));
  });
  quant_ = ISoftmax::outputQuant();
  return *this;
}

OpChain& OpChain::iLayerNorm(std::vector<float> gamma, std::vector<float> beta) {
  return iNorm(ILayerNorm(std::move(gamma), std::move(beta)));
}

OpChain& OpChain::iRmsNorm(std::vector<float> gamma) {
  return iNorm(ILayerNorm::rms(std::move(gamma)));
}

OpChain& OpChain::iNorm(const ILayerNorm& ln) {
  push(Domain::Int32, Domain::Int32, true, "iLayerNorm", [ln](Block& b) {
    if (b.col0 != 0 || b.cols != b.total_cols)
      throw Error("OpChain: iLayerNorm needs blocks of whole rows");
    // ILayerNorm reads the whole row before writing, so in place is safe.
    for (int64_t r = 0; r < b.rows; ++r) ln.run(b.i + r * b.ld, b.i + r * b.ld, b.cols);
  });
  quant_ = ln.outputQuant();
  return *this;
}

}  // namespace tessel::kernels
