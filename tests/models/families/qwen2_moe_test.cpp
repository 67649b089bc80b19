// qwen2_moe (Qwen1.5-MoE-A2.7B): parameters, the shared expert and its gate, routed tokens and
// MACs, dense layers by decoder_sparse_step / mlp_only_layers, bad fields, the int8 footprint.
#include <gtest/gtest.h>

#include "family_checks.h"
#include "models/families/hf_config.h"
#include "sim/footprint.h"
#include "util/error.h"

namespace tessel::models {
namespace {

const char* kPreset = "qwen1.5-moe-a2.7b";
constexpr int64_t kParams = 14315784192;
constexpr int64_t kMoeOverDense = 519170048;  // MoE block minus the dense MLP, parameters

int64_t layerMacs(const Graph& g, int layer) {
  int64_t total = 0;
  for (const Op& op : g.ops()) total += op.layer == layer ? op.macs : 0;
  return total;
}

Graph fromText(const std::string& text, const WorkloadOptions& o = opts(16)) {
  return hf::buildFromText(text, "cfg.json", o);
}

// The ConfigError `text` raises must name the field `path` in cfg.json and say `contains`.
void expectField(const std::string& text, const std::string& path, const std::string& contains) {
  try {
    fromText(text);
    ADD_FAILURE() << "no ConfigError for " << path;
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.where().yaml_path, path);
    EXPECT_EQ(e.where().file, "cfg.json");
    EXPECT_NE(e.message().find(contains), std::string::npos) << e.message();
  }
}

// Qwen/Qwen1.5-MoE-A2.7B, 14,315,784,192 on its model card ("14.3B parameters in total"):
//   embed_tokens 151936*2048 = 311,164,928; untied lm_head the same
//   per layer: q, k, v, o 4 * 2048^2 = 16,777,216 (16 KV heads: no GQA) + q/k/v biases
//              3 * 2048 = 6,144 -> attention 16,783,360
//              router 2048*60 = 122,880 (no bias)
//              60 experts * 3 * 2048*1408 = 519,045,120
//              shared expert 3 * 2048*5632 = 34,603,008, shared_expert_gate 2048*1 = 2,048
//              input and post-attention RMSNorm 2 * 2048 = 4,096
//              -> 570,560,512; x24 = 13,693,452,288
//   final norm 2,048: 2 * 311,164,928 + 13,693,452,288 + 2,048 = 14,315,784,192.
TEST(FamiliesQwen2Moe, ParameterCount) {
  EXPECT_EQ(build(kPreset, opts(16)).parameterCount(), kParams);
  // Experts no token reaches keep their weights.
  WorkloadOptions o = opts(4);
  o.expert_load.assign(60, 0.0);
  for (int e : {0, 1, 2, 3}) o.expert_load[e] = 1.0;
  const Graph g = build(kPreset, o);
  EXPECT_LT(g.findOp("layers.0.moe.experts.4.dispatch"), 0);
  EXPECT_EQ(g.parameterCount(), kParams);
}

// Router without bias, top-4 of 60, then the shared expert on every token scaled by
// sigmoid(shared_expert_gate(x)) and added to the routed output.
TEST(FamiliesQwen2Moe, SharedExpertAndGate) {
  const Graph g = build(kPreset, opts(10));
  const Op& router = opNamed(g, "layers.0.moe.router");
  EXPECT_EQ(router.gemm.n, 60);
  EXPECT_EQ(router.inputs.size(), 2u);
  EXPECT_EQ(opNamed(g, "layers.0.moe.route").moe.top_k, 4);
  EXPECT_EQ(opNamed(g, "layers.0.moe.experts.7.gate_proj").gemm.n, 1408);
  EXPECT_EQ(opNamed(g, "layers.0.moe.shared_expert.gate_proj").gemm.m, 10);
  EXPECT_EQ(opNamed(g, "layers.0.moe.shared_expert.gate_proj").gemm.n, 5632);
  const Op& gate = opNamed(g, "layers.0.moe.shared_expert_gate");
  EXPECT_EQ(gate.gemm.n, 1);
  EXPECT_EQ(gate.inputs.size(), 2u);
  const Op& sigmoid = opNamed(g, "layers.0.moe.shared_expert_gate.sigmoid");
  EXPECT_EQ(sigmoid.kind, OpKind::Sigmoid);
  EXPECT_EQ(sigmoid.inputs[0], gate.outputs[0]);
  const Op& gated = opNamed(g, "layers.0.moe.shared_expert.gated");
  EXPECT_EQ(gated.kind, OpKind::Mul);
  EXPECT_EQ(gated.inputs[0], opNamed(g, "layers.0.moe.shared_expert.down_proj").outputs[0]);
  EXPECT_EQ(gated.inputs[1], sigmoid.outputs[0]);
  EXPECT_EQ(g.tensor(gated.inputs[1]).shape, (std::vector<int64_t>{1, 10, 1}));
  const Op& sum = opNamed(g, "layers.0.moe.shared_add");
  EXPECT_EQ(sum.inputs,
            (std::vector<int>{opNamed(g, "layers.0.moe.combine").outputs[0], gated.outputs[0]}));
  EXPECT_EQ(opNamed(g, "layers.0.mlp.residual").inputs[1], sum.outputs[0]);
  // Qwen2 attention: q/k/v biases, none on o_proj.
  EXPECT_EQ(opNamed(g, "layers.0.attn.v_proj").inputs.size(), 3u);
  EXPECT_EQ(opNamed(g, "layers.0.attn.o_proj").inputs.size(), 2u);
}

// Layer 0 at prefill S = 2048, B = 1 (d 2048, H = KV = 16, hd 128, 60 experts of 1408, top-4):
//   q, k, v, o_proj      4 * S*d*d           =  34,359,738,368
//   score, context       2 * H*S*S*hd        =  17,179,869,184
//   router               S*d*60              =     251,658,240
//   routed experts       S*4 * 3*d*1408      =  70,866,960,384 (8,192 routed rows in all)
//   shared expert        S * 3*d*5632        =  70,866,960,384
//   shared_expert_gate   S*d*1               =       4,194,304
//   total                                    = 193,529,380,864
// 8,192 routed rows over 60 experts: 136.53 each -> 136, and the 32 left over go to experts
// 0..31 (equal remainders, ties to the lower index).
TEST(FamiliesQwen2Moe, LayerMacsAtPrefill) {
  const Graph g = build(kPreset, opts(2048));
  EXPECT_EQ(layerMacs(g, 0), 193529380864);
  EXPECT_EQ(layerMacs(g, 23), 193529380864);
  int64_t rows = 0;
  for (int e = 0; e < 60; ++e) {
    const Op& d = opNamed(g, "layers.0.moe.experts." + std::to_string(e) + ".dispatch");
    const int64_t t = g.tensor(d.outputs[0]).shape[0];
    EXPECT_EQ(t, e < 32 ? 137 : 136) << e;
    rows += t;
  }
  EXPECT_EQ(rows, 2048 * 4);
  // Decode, B = 1: one token's 4 routes go to experts 0..3.
  const Graph d = build(kPreset, opts(100, 1, "decode"));
  EXPECT_EQ(opNamed(d, "layers.0.moe.combine").inputs.size(), 5u);
  EXPECT_LT(d.findOp("layers.0.moe.experts.4.dispatch"), 0);
  EXPECT_EQ(opNamed(d, "layers.0.moe.shared_expert.up_proj").gemm.m, 1);
}

// Dense layers replace the MoE block (553,773,056 parameters: router, experts, shared expert and
// gate) by an MLP of intermediate_size (3 * 2048*5632 = 34,603,008): 519,170,048 fewer each.
TEST(FamiliesQwen2Moe, DenseLayers) {
  const std::string text = presetText(kPreset);
  // decoder_sparse_step 2: MoE where (i + 1) % 2 == 0, so layers 1, 3, ..., 23; 12 dense.
  const Graph step =
      fromText(edited(text, "\"decoder_sparse_step\": 1", "\"decoder_sparse_step\": 2"));
  EXPECT_EQ(step.parameterCount(), kParams - 12 * kMoeOverDense);
  EXPECT_EQ(opNamed(step, "layers.0.mlp.up_proj").gemm.n, 5632);
  EXPECT_LT(step.findOp("layers.0.moe.router"), 0);
  EXPECT_GE(step.findOp("layers.1.moe.router"), 0);
  EXPECT_LT(step.findOp("layers.1.mlp.up_proj"), 0);
  // mlp_only_layers [0, 23]: those two are dense.
  const Graph only = fromText(edited(text, "\"decoder_sparse_step\": 1",
                                     "\"decoder_sparse_step\": 1, \"mlp_only_layers\": [0, 23]"));
  EXPECT_EQ(only.parameterCount(), kParams - 2 * kMoeOverDense);
  EXPECT_GE(only.findOp("layers.23.mlp.gate_proj"), 0);
  EXPECT_GE(only.findOp("layers.22.moe.shared_expert_gate"), 0);
}

TEST(FamiliesQwen2Moe, BadFields) {
  const std::string text = presetText(kPreset);
  const std::string step = "\"decoder_sparse_step\": 1";
  expectField(edited(text, step, "\"decoder_sparse_step\": 0"), "decoder_sparse_step", "positive");
  expectField(edited(text, step, step + ", \"mlp_only_layers\": [24]"), "mlp_only_layers",
              "names layer 24; the model has 24");
  expectField(edited(text, step, step + ", \"mlp_only_layers\": [-1]"), "mlp_only_layers",
              "non-negative integers");
  expectField(edited(text, step, step + ", \"mlp_only_layers\": 3"), "mlp_only_layers",
              "must be an array");
  expectField(edited(text, "\"num_experts_per_tok\": 4", "\"num_experts_per_tok\": 61"),
              "num_experts_per_tok", "exceeds num_experts 60");
  expectField(edited(text, "\"moe_intermediate_size\": 1408,", ""), "moe_intermediate_size",
              "missing");
  expectField(edited(text, "\"shared_expert_intermediate_size\": 5632",
                     "\"shared_expert_intermediate_size\": 0"),
              "shared_expert_intermediate_size", "positive");
  expectField(edited(text, "\"use_sliding_window\": false", "\"use_sliding_window\": true"),
              "use_sliding_window", "not modeled");
  expectField(edited(text, "\"norm_topk_prob\": false", "\"norm_topk_prob\": 1"), "norm_topk_prob",
              "true or false");
  // Outside qwen2_moe the shared-expert fields are still errors, not ignored.
  expectField(edited(presetText("mixtral-8x7b"), "\"use_cache\": true",
                     "\"shared_expert_intermediate_size\": 14336"),
              "shared_expert_intermediate_size", "not modeled");
}

// int8: every weight is one byte, so the weights are 14,315,784,192 B = 13.33 GiB; with decode's
// KV cache at L = 4096 (2 * 24 * 4097 * 2048 B = 0.38 GiB) or prefill's activations the model
// still fits a 16 GiB DRAM.
TEST(FamiliesQwen2Moe, Int8FootprintFits16GiB) {
  const int64_t gib16 = int64_t{16} << 30;
  for (const std::string phase : {"prefill", "decode"}) {
    WorkloadOptions o = opts(4096, 1, phase);
    o.dtype = DType::Int8;
    const sim::Footprint f = sim::dramFootprint(build(kPreset, o));
    EXPECT_EQ(f.weights, kParams) << phase;
    EXPECT_LT(f.total(), gib16) << phase << ": " << f.total();
  }
  WorkloadOptions o = opts(4096, 1, "decode");
  o.dtype = DType::Int8;
  EXPECT_EQ(sim::dramFootprint(build(kPreset, o)).inputs, 2LL * 24 * 4097 * 2048 + 4);
}

}  // namespace
}  // namespace tessel::models
