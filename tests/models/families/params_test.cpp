// Parameter counts of every preset against the published numbers, derived by hand from each
// config (RMSNorm/LayerNorm weights count; rotary embeddings have none).
#include <gtest/gtest.h>

#include "family_checks.h"
#include "models/families/hf_config.h"

namespace tessel::models {
namespace {

int64_t params(const std::string& preset) { return build(preset, opts(16)).parameterCount(); }

// Llama-3.1-8B (meta-llama/Llama-3.1-8B; 8,030,261,248 on its model card's safetensors count):
// embed 128256*4096 = 525,336,576, untied lm_head the same; per layer q,o 4096^2 and k,v
// 4096*1024 (41,943,040), MLP 3*4096*14336 (176,160,768), 2 norms 8,192 -> 218,112,000; x32
// = 6,979,584,000; final norm 4,096.
TEST(FamiliesParams, Llama31_8b) { EXPECT_EQ(params("llama-3.1-8b"), 8030261248); }

// Llama-3.2-1B (meta-llama/Llama-3.2-1B, 1,235,814,400): tied embed 128256*2048 = 262,668,288;
// per layer q,o 2048^2, k,v 2048*512, MLP 3*2048*8192, norms 4,096 -> 60,821,504; x16; + 2,048.
TEST(FamiliesParams, Llama32_1b) { EXPECT_EQ(params("llama-3.2-1b"), 1235814400); }

// Mistral-7B-v0.1 (mistralai/Mistral-7B-v0.1, 7,241,732,096): the llama-8B layer (218,112,000)
// x32 + 2 * 32000*4096 + 4,096.
TEST(FamiliesParams, Mistral7b) { EXPECT_EQ(params("mistral-7b"), 7241732096); }

// Llama-2-7B (meta-llama/Llama-2-7b-hf, 6,738,415,616): per layer attention 4 x 4096^2 =
// 67,108,864 + MLP 3 x 4096 x 11008 = 135,266,304 + two norms 8,192 = 202,383,360; x32 +
// 2 x 32000 x 4096 + 4,096.
TEST(FamiliesParams, Llama2_7b) { EXPECT_EQ(params("llama-2-7b"), 6738415616); }

// Llama-2-70B (meta-llama/Llama-2-70b-hf, 68,976,648,192): per layer q and o 2 x 8192^2 +
// k and v 2 x 8192 x 1024 (8 KV heads of 128) = 150,994,944 + MLP 3 x 8192 x 28672 =
// 704,643,072 + norms 16,384 = 855,654,400; x80 + 2 x 32000 x 8192 + 8,192.
TEST(FamiliesParams, Llama2_70b) { EXPECT_EQ(params("llama-2-70b"), 68976648192); }

// Mixtral-8x7B (mistralai/Mixtral-8x7B-v0.1, 46,702,792,704): per layer attention 41,943,040 +
// 8 experts * 176,160,768 + router 4096*8 + norms 8,192 = 1,451,270,144; x32 + 2*32000*4096 +
// 4,096. Idle experts (no routed tokens) keep their weights.
TEST(FamiliesParams, Mixtral8x7b) {
  EXPECT_EQ(params("mixtral-8x7b"), 46702792704);
  WorkloadOptions o = opts(4);
  o.expert_load = {1, 0, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(build("mixtral-8x7b", o).parameterCount(), 46702792704);
}

// Qwen2-7B (Qwen/Qwen2-7B, 7,615,616,512): embed and head 152064*3584 each; per layer q,o
// 3584^2, k,v 3584*512, q/k/v biases 3584+512+512, MLP 3*3584*18944, norms 7,168 ->
// 233,057,792; x28; + 3,584.
TEST(FamiliesParams, Qwen2_7b) { EXPECT_EQ(params("qwen2-7b"), 7615616512); }

// gemma-2b (google/gemma-2b, 2,506,172,416): tied embed 256000*2048; per layer q,o 2048*2048,
// k,v 2048*256 (MQA), MLP 3*2048*16384, norms 4,096 -> 110,104,576; x18; + 2,048.
TEST(FamiliesParams, Gemma2b) { EXPECT_EQ(params("gemma-2b"), 2506172416); }

// Phi-3-mini-4k (microsoft/Phi-3-mini-4k-instruct, 3,821,079,552): embed and head 32064*3072;
// per layer qkv 3072*9216, o 3072^2, gate_up 3072*16384, down 8192*3072, norms 6,144 ->
// 113,252,352; x32; + 3,072.
TEST(FamiliesParams, Phi3Mini) { EXPECT_EQ(params("phi-3-mini"), 3821079552); }

// GPT-2 (openai-community/gpt2, 124,439,808 with wpe): the built-in formula of docs/workloads.md.
// The config-built graph is the built-in gpt2-small graph op for op.
TEST(FamiliesParams, Gpt2MatchesBuiltin) {
  EXPECT_EQ(params("gpt2-hf"), 124439808);
  for (const std::string phase : {"prefill", "decode"}) {
    const Graph a = build("gpt2-hf", opts(64, 2, phase));
    const Graph b = build("gpt2", opts(64, 2, phase));
    ASSERT_EQ(a.ops().size(), b.ops().size());
    for (size_t i = 0; i < a.ops().size(); ++i) {
      EXPECT_EQ(a.ops()[i].name, b.ops()[i].name);
      EXPECT_EQ(a.ops()[i].macs, b.ops()[i].macs) << a.ops()[i].name;
    }
    EXPECT_EQ(a.name, "gpt2-hf " + phase + " seq=64 batch=2");
  }
}

// bert-base-uncased (google-bert/bert-base-uncased, 109,482,240 for BertModel): the built-in
// encoder's 108,891,648 plus the pooler 768*768 + 768 = 590,592.
TEST(FamiliesParams, BertBaseUncased) {
  EXPECT_EQ(params("bert-base-uncased"), 109482240);
  const Graph a = build("bert-base-uncased", opts(128));
  const Graph b = build("bert-base", opts(128));
  EXPECT_EQ(a.parameterCount() - b.parameterCount(), 590592);
  EXPECT_EQ(a.totalMacs() - b.totalMacs(), 768 * 768);  // the pooler on [CLS]
}

// ViT-B/16 (google/vit-base-patch16-224, 86,567,656 with its 1000-class head): patch conv
// 16*16*3*768 + 768 = 590,592; [CLS] 768; positions 197*768 = 151,296; per layer 7,087,872 (as
// BERT's) x12 = 85,054,464; final LayerNorm 1,536; classifier 768*1000 + 1000 = 769,000.
TEST(FamiliesParams, VitB16) {
  WorkloadOptions o;
  const Graph g = build("vit-b-16", o);
  EXPECT_EQ(g.parameterCount(), 86567656);
  EXPECT_EQ(g.name, "vit-b-16 image=224 batch=1");
  // Patch conv: 196 patches x 768 filters x 768 taps; then 197 tokens through the encoder.
  EXPECT_EQ(opNamed(g, "embeddings.patch").macs, 196LL * 768 * 768);
  EXPECT_EQ(g.tensor(opNamed(g, "layer0.attn.qkv").outputs[0]).shape,
            (std::vector<int64_t>{1, 197, 2304}));
  EXPECT_EQ(opNamed(g, "classifier").gemm.m, 1);
}

// Without ViTForImageClassification the config is a ViTModel: its pooler (768*768 + 768) replaces
// the classifier, 86,567,656 - 769,000 + 590,592 = 86,389,248 (google/vit-base-patch16-224-in21k).
TEST(FamiliesParams, VitModelHasAPooler) {
  const std::string text = edited(presetText("vit-b-16"), "ViTForImageClassification", "ViTModel");
  const Graph g = hf::buildFromText(text, "vit.json", WorkloadOptions{});
  EXPECT_EQ(g.parameterCount(), 86389248);
  EXPECT_EQ(opNamed(g, "pooler.tanh").elt.fn, "tanh");
}

// Llama with attention_bias: q, k, v and o biases, 4096 + 1024 + 1024 + 4096 = 10,240 per layer;
// mlp_bias adds 14336 * 2 + 4096 = 32,768 per layer.
TEST(FamiliesParams, LlamaBiases) {
  std::string text =
      edited(presetText("llama-3.1-8b"), "\"attention_bias\": false", "\"attention_bias\": true");
  EXPECT_EQ(hf::buildFromText(text, "b.json", opts(8)).parameterCount(), 8030261248 + 32 * 10240);
  text = edited(text, "\"mlp_bias\": false", "\"mlp_bias\": true");
  EXPECT_EQ(hf::buildFromText(text, "b.json", opts(8)).parameterCount(),
            8030261248 + 32 * (10240 + 32768));
}

// Gemma's hidden_activation, when set, overrides hidden_act: "gelu" is the erf form.
TEST(FamiliesParams, GemmaHiddenActivation) {
  const std::string text = edited(presetText("gemma-2b"), "\"hidden_act\": \"gelu\"",
                                  "\"hidden_act\": \"gelu\", \"hidden_activation\": \"gelu\"");
  const Graph g = hf::buildFromText(text, "g.json", opts(8));
  EXPECT_FALSE(opNamed(g, "layers.0.mlp.act").gelu_tanh);
  EXPECT_TRUE(opNamed(build("gemma-2b", opts(8)), "layers.0.mlp.act").gelu_tanh);
}

// A field tessel does not know is a graph warning, never silently dropped.
TEST(FamiliesParams, UnknownFieldWarns) {
  const std::string text =
      edited(presetText("llama-3.2-1b"), "\"use_cache\": true", "\"frobnicate\": 3");
  const Graph g = hf::buildFromText(text, "x.json", opts(8));
  bool warned = false;
  for (const std::string& w : g.warnings)
    warned = warned || w.find("'frobnicate'") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(FamiliesParams, PresetsAreWorkloads) {
  for (const std::string& name : hf::presetNames()) {
    EXPECT_TRUE(hf::isPreset(name));
    const std::vector<std::string> all = workloadNames();
    EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;
    // The shipped configs raise no "field not read" warnings.
    for (const std::string& w : build(name, WorkloadOptions{}).warnings) {
      EXPECT_EQ(w.find("not read"), std::string::npos) << name << ": " << w;
    }
  }
  // The built-in names still build the hand-written graphs.
  EXPECT_EQ(build("gpt2", opts(8)).name, "gpt2-small prefill seq=8 batch=1");
  EXPECT_EQ(build("bert-base", opts(8)).name, "bert-base seq=8 batch=1");
}

}  // namespace
}  // namespace tessel::models
