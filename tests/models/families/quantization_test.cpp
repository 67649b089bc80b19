// A quantized checkpoint's config.json: its matmul weights are stored as its quantization_config
// says, everything else as the run's dtype.
#include <gtest/gtest.h>

#include <set>

#include "family_checks.h"
#include "models/families/hf_config.h"

namespace tessel::models {
namespace {

const std::string kLlama = presetText("llama-3.1-8b");

Graph withQuantization(const std::string& config, DType dtype = DType::BF16) {
  WorkloadOptions o = opts(16, 1, "decode");
  o.dtype = dtype;
  return hf::buildFromText(edited(kLlama, "\"use_cache\": true", "\"quantization_config\": " + config), "cfg.json", o);
}

// Matmul weight bytes, and the dtypes they are stored in.
std::pair<int64_t, std::set<std::string>> matmulWeights(const Graph& g) {
  int64_t bytes = 0;
  std::set<std::string> dtypes;
  for (const Op& op : g.ops()) {
    if (op.kind != OpKind::MatMul || g.tensor(op.inputs.at(1)).role != TensorRole::Weight) continue;
    bytes += g.tensor(op.inputs[1]).bytes();
    dtypes.insert(std::string(nameOf(g.tensor(op.inputs[1]).dtype)));
  }
  return {bytes, dtypes};
}

// Llama-3.1-8B's matmul weights: per layer q and o 4096 x 4096, k and v 4096 x 1024, gate, up
// and down 4096 x 14336 = 218,103,808; x 32 layers + the LM head 4096 x 128,256 = 7,504,658,432.
constexpr int64_t kWeights = 7'504'658'432;

TEST(CheckpointQuantization, GptqInt4InGroupsOf128) {
  const Graph g = withQuantization(R"({"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false, "sym": true})");
  const auto [bytes, dtypes] = matmulWeights(g);
  EXPECT_EQ(bytes, kWeights / 64 * 33);  // 4 bits + an fp16 scale per 128: 33/64 bytes a weight
  EXPECT_EQ(dtypes, std::set<std::string>{"int4_g128_fp16"});
  // The embedding table and the activations keep the run's dtype.
  EXPECT_EQ(g.tensor(g.op(g.findOp("embed_tokens")).inputs.at(1)).dtype, DType::BF16);
  EXPECT_EQ(g.tensor(g.op(g.findOp("layers.0.attn.q_proj")).outputs.at(0)).dtype, DType::BF16);
}

TEST(CheckpointQuantization, AwqPerChannelFp8AndBitsandbytes) {
  EXPECT_EQ(matmulWeights(withQuantization(R"({"quant_method": "awq", "w_bit": 4, "q_group_size": -1})")).first,
            kWeights / 2);
  EXPECT_EQ(matmulWeights(withQuantization(R"({"quant_method": "fp8", "activation_scheme": "dynamic"})")).second,
            std::set<std::string>{"fp8_e4m3"});
  EXPECT_EQ(matmulWeights(withQuantization(R"({"quant_method": "bitsandbytes", "load_in_8bit": true})")).first,
            kWeights);
  // Run in int8 already: an int8 checkpoint changes nothing.
  EXPECT_EQ(matmulWeights(withQuantization(R"({"quant_method": "gptq", "bits": 8, "group_size": -1})", DType::Int8))
                .second,
            std::set<std::string>{"int8"});
}

}  // namespace
}  // namespace tessel::models
