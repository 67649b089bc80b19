#include "chain_fixture.h"

#include "kernels/elementwise.h"
#include "kernels/ibert.h"
#include "kernels/normalization.h"
#include "kernels/quantize.h"
#include "kernels/requantize.h"
#include "reference.h"

namespace tessel::kernels::testing {

std::string RandomChain::describe() const {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " -> ") + n;
  return s;
}

ChainOperands::ChainOperands(int64_t r, int64_t c, uint32_t seed)
    : rows(r),
      cols(c),
      res_f(ref::floatTensor({r, c}, -1.0f, 1.0f, seed)),
      res_i(Tensor::fromInt32({r, c}, std::vector<int32_t>(static_cast<size_t>(r * c), 0))),
      gamma(ref::floatTensor({c}, 0.5f, 1.5f, seed + 1)),
      beta(ref::floatTensor({c}, -0.5f, 0.5f, seed + 2)),
      bias(ref::randomFloats(static_cast<size_t>(c), -0.5f, 0.5f, seed + 3)),
      colscale(ref::randomFloats(static_cast<size_t>(c), 0.5f, 2.0f, seed + 4)) {
  std::mt19937 rng(seed);
  for (int64_t i = 0; i < r * c; ++i) res_i.i32()[i] = static_cast<int32_t>(rng() % 2001) - 1000;
  for (int64_t i = 0; i < c; ++i) bias_i.push_back(static_cast<int32_t>(rng() % 4001) - 2000);
}

namespace {

std::vector<float> vec(const Tensor& t) { return {t.f32(), t.f32() + t.numel()}; }

QuantParams perColumn(int64_t cols, float base, int32_t zp) {
  QuantParams q;
  q.scale.clear();
  q.zero_point.clear();
  for (int64_t c = 0; c < cols; ++c) {
    q.scale.push_back(base * (1.0f + 0.01f * static_cast<float>(c % 7)));
    q.zero_point.push_back(zp + static_cast<int32_t>(c % 3));
  }
  return q;
}

Tensor withQuant(Tensor t, QuantParams q) {
  t.quant = std::move(q);
  return t;
}

void floatStage(RandomChain& ch, const ChainOperands& o, int pick) {
  auto& f = ch.fused;
  auto& u = ch.unfused;
  switch (pick) {
    case 0: f.bias(o.bias); u.push_back([&o](Tensor t) { return biasAdd(t, Tensor::fromFloats({o.cols}, o.bias)); }); ch.names.push_back("bias"); break;
    case 1: f.mul(1.7f); u.push_back([](Tensor t) { return mul(t, 1.7f); }); ch.names.push_back("mul"); break;
    case 2: f.mul(o.colscale); u.push_back([&o](Tensor t) { return applyChain(OpChain(Domain::Float).mul(o.colscale), t); }); ch.names.push_back("mulCols"); break;
    case 3: f.add(o.res_f); u.push_back([&o](Tensor t) { Tensor r = o.res_f; r.reshape(t.shape()); return add(t, r); }); ch.names.push_back("add"); break;
    case 4: f.relu(); u.push_back([](Tensor t) { return relu(t); }); ch.names.push_back("relu"); break;
    case 5: f.gelu(true); u.push_back([](Tensor t) { return gelu(t, true); }); ch.names.push_back("geluTanh"); break;
    case 6: f.gelu(false); u.push_back([](Tensor t) { return gelu(t, false); }); ch.names.push_back("geluErf"); break;
    case 7: f.roundTo(FloatFormat::FP16); u.push_back([](Tensor t) { return castTo(castTo(t, FloatFormat::FP16), FloatFormat::FP32); }); ch.names.push_back("fp16"); break;
    case 8: f.roundTo(FloatFormat::BF16); u.push_back([](Tensor t) { return castTo(castTo(t, FloatFormat::BF16), FloatFormat::FP32); }); ch.names.push_back("bf16"); break;
    case 9: f.softmax(); u.push_back([](Tensor t) { return softmax(t); }); ch.names.push_back("softmax"); break;
    case 10: f.layerNorm(vec(o.gamma), vec(o.beta), 1e-5f); u.push_back([&o](Tensor t) { return layerNorm(t, o.gamma, o.beta, 1e-5f); }); ch.names.push_back("layerNorm"); break;
    case 11: f.quantize(QuantParams::perTensor(0.02f, 3)); u.push_back([](Tensor t) { return quantize(t, QuantParams::perTensor(0.02f, 3)); }); ch.names.push_back("quantize"); break;
    default: { const QuantParams q = perColumn(o.cols, 0.03f, -2); f.quantize(q); u.push_back([q](Tensor t) { return quantize(t, q); }); ch.names.push_back("quantizeCols"); }
  }
}

void int32Stage(RandomChain& ch, const ChainOperands& o, int pick) {
  auto& f = ch.fused;
  auto& u = ch.unfused;
  const QuantParams unit = QuantParams::perTensor(1.0f, 0, INT32_MIN, INT32_MAX);
  switch (pick) {
    case 0: f.biasInt(o.bias_i); u.push_back([&o](Tensor t) { return applyChain(OpChain(Domain::Int32).biasInt(o.bias_i), t); }); ch.names.push_back("biasInt"); break;
    case 1: f.relu(); u.push_back([](Tensor t) { return relu(t); }); ch.names.push_back("reluInt"); break;
    case 2: f.add(o.res_i); u.push_back([&o](Tensor t) { t.quant = o.res_i.quant; return add(t, o.res_i); }); ch.names.push_back("addInt"); break;
    case 3: f.iGelu(0.01f); u.push_back([](Tensor t) { return iGelu(withQuant(t, QuantParams::perTensor(0.01f))); }); ch.names.push_back("iGelu"); break;
    case 4: { const Requant r = makeRequant({0.002f}, QuantParams::perTensor(0.05f, 5)); f.requantize(r); u.push_back([r](Tensor t) { return requantize(t, r); }); ch.names.push_back("requantize"); break; }
    case 5: { const Requant r = makeRequant(perColumn(o.cols, 0.001f, 0).scale, QuantParams::perTensor(0.05f, -7)); f.requantize(r); u.push_back([r](Tensor t) { return requantize(t, r); }); ch.names.push_back("requantizeCols"); break; }
    case 6: f.dequantize(QuantParams::perTensor(1e-3f)); u.push_back([](Tensor t) { return dequantize(withQuant(t, QuantParams::perTensor(1e-3f))); }); ch.names.push_back("dequantize"); break;
    case 7: { QuantParams q = perColumn(o.cols, 1e-3f, 0); q.zero_point = {0}; f.dequantize(q); u.push_back([q](Tensor t) { return dequantize(withQuant(t, q)); }); ch.names.push_back("dequantizeCols"); break; }
    case 8: f.iSoftmax(0.01f); u.push_back([](Tensor t) { return iSoftmax(withQuant(t, QuantParams::perTensor(0.01f))); }); ch.names.push_back("iSoftmax"); break;
    case 9: f.iLayerNorm(vec(o.gamma), vec(o.beta)); u.push_back([&o, unit](Tensor t) { return iLayerNorm(withQuant(t, unit), vec(o.gamma), vec(o.beta)); }); ch.names.push_back("iLayerNorm"); break;
    default: f.causalMask(0); u.push_back([](Tensor t) { return applyChain(OpChain(Domain::Int32).causalMask(0), t); }); ch.names.push_back("causalMask");
  }
}

void int8Stage(RandomChain& ch, int pick) {
  // relu on int8 needs one zero point for all columns.
  const bool per_tensor = ch.fused.outputQuant({}).zero_point.size() == 1;
  if (pick == 0 && per_tensor) {
    ch.fused.relu();
    ch.unfused.push_back([](Tensor t) { return relu(t); });
    ch.names.push_back("relu8");
    return;
  }
  const QuantParams q = QuantParams::perTensor(0.05f, 4);
  ch.fused.dequantize(q);
  ch.unfused.push_back([q](Tensor t) { return dequantize(withQuant(t, q)); });
  ch.names.push_back("dequantize8");
}

}  // namespace

RandomChain randomChain(Domain start, const ChainOperands& ops, std::mt19937& rng,
                        std::optional<QuantParams> input_quant, int max_len) {
  RandomChain ch{OpChain(start, std::move(input_quant)), {}, {}};
  Domain d = start;
  const int len = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_len));
  for (int i = 0; i < len; ++i) {
    if (d == Domain::Float) floatStage(ch, ops, static_cast<int>(rng() % 13));
    if (d == Domain::Int32) int32Stage(ch, ops, static_cast<int>(rng() % 11));
    if (d == Domain::Int8) int8Stage(ch, static_cast<int>(rng() % 2));
    d = ch.fused.outputDomain(start);
  }
  return ch;
}

}  // namespace tessel::kernels::testing
