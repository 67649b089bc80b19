#include "chain_fixture.h"

#include "kernels/ops/elementwise.h"
#include "kernels/ibert/ibert.h"
#include "kernels/ops/normalization.h"
#include "kernels/numeric/quantize.h"
#include "kernels/numeric/requantize.h"
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

// One stage, fused and unfused. The unfused form is the standalone op over a whole tensor
// (applyChain with that single stage where no standalone op exists).
struct StageDef {
  const char* name;
  std::function<void(OpChain&)> fused;
  std::function<Tensor(Tensor)> unfused;
};

Tensor alone(const OpChain& one_stage, const Tensor& t) { return applyChain(one_stage, t); }

std::vector<StageDef> floatStages(const ChainOperands& o) {
  const QuantParams qt = QuantParams::perTensor(0.02f, 3), qc = perColumn(o.cols, 0.03f, -2);
  const Tensor bias = Tensor::fromFloats({o.cols}, o.bias);
  return {
      {"bias", [&o](OpChain& c) { c.bias(o.bias); }, [bias](Tensor t) { return biasAdd(t, bias); }},
      {"mul", [](OpChain& c) { c.mul(1.7f); }, [](Tensor t) { return mul(t, 1.7f); }},
      {"mulCols", [&o](OpChain& c) { c.mul(o.colscale); },
       [&o](Tensor t) { return alone(OpChain(Domain::Float).mul(o.colscale), t); }},
      {"add", [&o](OpChain& c) { c.add(o.res_f); },
       [&o](Tensor t) {
         Tensor r = o.res_f;
         r.reshape(t.shape());
         return add(t, r);
       }},
      {"relu", [](OpChain& c) { c.relu(); }, [](Tensor t) { return relu(t); }},
      {"geluTanh", [](OpChain& c) { c.gelu(true); }, [](Tensor t) { return gelu(t, true); }},
      {"geluErf", [](OpChain& c) { c.gelu(false); }, [](Tensor t) { return gelu(t, false); }},
      {"fp16", [](OpChain& c) { c.roundTo(FloatFormat::FP16); },
       [](Tensor t) { return castTo(castTo(t, FloatFormat::FP16), FloatFormat::FP32); }},
      {"bf16", [](OpChain& c) { c.roundTo(FloatFormat::BF16); },
       [](Tensor t) { return castTo(castTo(t, FloatFormat::BF16), FloatFormat::FP32); }},
      {"softmax", [](OpChain& c) { c.softmax(); }, [](Tensor t) { return softmax(t); }},
      {"layerNorm", [&o](OpChain& c) { c.layerNorm(vec(o.gamma), vec(o.beta), 1e-5f); },
       [&o](Tensor t) { return layerNorm(t, o.gamma, o.beta, 1e-5f); }},
      {"quantize", [qt](OpChain& c) { c.quantize(qt); },
       [qt](Tensor t) { return quantize(t, qt); }},
      {"quantizeCols", [qc](OpChain& c) { c.quantize(qc); },
       [qc](Tensor t) { return quantize(t, qc); }},
  };
}

std::vector<StageDef> int32Stages(const ChainOperands& o) {
  const QuantParams unit = QuantParams::perTensor(1.0f, 0, INT32_MIN, INT32_MAX);
  const QuantParams s01 = QuantParams::perTensor(0.01f), s1m = QuantParams::perTensor(1e-3f);
  QuantParams cols = perColumn(o.cols, 1e-3f, 0);
  cols.zero_point = {0};
  const Requant rt = makeRequant({0.002f}, QuantParams::perTensor(0.05f, 5));
  const Requant rc =
      makeRequant(perColumn(o.cols, 0.001f, 0).scale, QuantParams::perTensor(0.05f, -7));
  return {
      {"biasInt", [&o](OpChain& c) { c.biasInt(o.bias_i); },
       [&o](Tensor t) { return alone(OpChain(Domain::Int32).biasInt(o.bias_i), t); }},
      {"reluInt", [](OpChain& c) { c.relu(); }, [](Tensor t) { return relu(t); }},
      {"addInt", [&o](OpChain& c) { c.add(o.res_i); },
       [&o](Tensor t) { return add(withQuant(t, o.res_i.quant), o.res_i); }},
      {"iGelu", [](OpChain& c) { c.iGelu(0.01f); },
       [s01](Tensor t) { return iGelu(withQuant(t, s01)); }},
      {"requantize", [rt](OpChain& c) { c.requantize(rt); },
       [rt](Tensor t) { return requantize(t, rt); }},
      {"requantizeCols", [rc](OpChain& c) { c.requantize(rc); },
       [rc](Tensor t) { return requantize(t, rc); }},
      {"dequantize", [s1m](OpChain& c) { c.dequantize(s1m); },
       [s1m](Tensor t) { return dequantize(withQuant(t, s1m)); }},
      {"dequantizeCols", [cols](OpChain& c) { c.dequantize(cols); },
       [cols](Tensor t) { return dequantize(withQuant(t, cols)); }},
      {"iSoftmax", [](OpChain& c) { c.iSoftmax(0.01f); },
       [s01](Tensor t) { return iSoftmax(withQuant(t, s01)); }},
      {"iLayerNorm", [&o](OpChain& c) { c.iLayerNorm(vec(o.gamma), vec(o.beta)); },
       [&o, unit](Tensor t) { return iLayerNorm(withQuant(t, unit), vec(o.gamma), vec(o.beta)); }},
      {"causalMask", [](OpChain& c) { c.causalMask(0); },
       [](Tensor t) { return alone(OpChain(Domain::Int32).causalMask(0), t); }},
  };
}

std::vector<StageDef> int8Stages(const RandomChain& ch) {
  const QuantParams q = QuantParams::perTensor(0.05f, 4);
  StageDef deq{"dequantize8", [q](OpChain& c) { c.dequantize(q); },
               [q](Tensor t) { return dequantize(withQuant(t, q)); }};
  // relu on int8 needs one zero point for all columns.
  if (ch.fused.outputQuant({}).zero_point.size() > 1) return {deq};
  return {{"relu8", [](OpChain& c) { c.relu(); }, [](Tensor t) { return relu(t); }}, deq};
}

}  // namespace

RandomChain randomChain(Domain start, const ChainOperands& ops, std::mt19937& rng,
                        std::optional<QuantParams> input_quant, int max_len) {
  RandomChain ch{OpChain(start, std::move(input_quant)), {}, {}};
  const std::vector<StageDef> float_stages = floatStages(ops), int32_stages = int32Stages(ops);
  const int len = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_len));
  for (int i = 0; i < len; ++i) {
    const Domain d = ch.fused.outputDomain(start);
    const std::vector<StageDef> int8_stages = int8Stages(ch);
    const auto& menu = d == Domain::Float   ? float_stages
                       : d == Domain::Int32 ? int32_stages
                                            : int8_stages;
    const StageDef& s = menu[rng() % menu.size()];
    s.fused(ch.fused);
    ch.unfused.push_back(s.unfused);
    ch.names.push_back(s.name);
  }
  return ch;
}

}  // namespace tessel::kernels::testing
