// Number formats through the timing engine: weights move at their stored width (scales
// included), and a mixed plan costs what its ops cost alone in their formats.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/precision.h"
#include "models/workload.h"
#include "sim/run.h"

namespace tessel {
namespace {

const std::string kTinyLlama = std::string(TESSEL_SOURCE_DIR) + "/tests/serve/llm/data/tiny-llama.json";

arch::Accelerator tpuV4() {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml",
                        {"array.throughput={bf16: 1, int8: 1, fp8_e4m3: 2, bf16*int4: 1}"});
}

models::Graph decodeStep(const std::string& plan_yaml) {
  models::WorkloadOptions wo;
  wo.phase = "decode";
  wo.seq = 64;
  wo.dtype = DType::BF16;
  return models::applyPrecision(models::build(kTinyLlama, wo), models::parsePrecisionPlan(plan_yaml, "plan.yaml"));
}

sim::RunStats simulate(const models::Graph& g) {
  sim::RunOptions o;
  o.plan.mapper_options.budget = 300;
  return sim::simulate(g, tpuV4(), dataflows::loadDataflow("ws"), o);
}

int64_t matmulWeightBytes(const models::Graph& g) {
  int64_t bytes = 0;
  for (const models::Op& op : g.ops()) {
    if (op.kind != models::OpKind::MatMul || op.inputs.size() < 2) continue;
    const models::Tensor& w = g.tensor(op.inputs[1]);
    if (w.role == models::TensorRole::Weight) bytes += w.bytes();
  }
  return bytes;
}

// tests/serve/llm/data/tiny-llama.json: hidden 256, 8 heads x 32, 2 KV heads, FFN 512, 3 layers,
// vocabulary 1,024, untied LM head. Matmul weights per layer: q 256x256 = 65,536, k and v
// 256x64 = 16,384 each, o 65,536, gate/up/down 256x512 = 131,072 each: 557,056; x 3 layers =
// 1,671,168, + LM head 256 x 1,024 = 262,144: 1,933,312 weights.
constexpr int64_t kWeights = 1'933'312;

TEST(NumberFormats, W4A16DecodeStepWeightBytesByHand) {
  // int4 in groups of 128 with an fp16 scale: 4 bits + 16/128 bits = 0.515625 bytes a weight
  // (every reduction length here is a multiple of 128).
  EXPECT_EQ(matmulWeightBytes(decodeStep("default: {dtype: bf16, weights: int4_g128_fp16}")), kWeights * 33 / 64);
  EXPECT_EQ(matmulWeightBytes(decodeStep("default: {dtype: bf16, weights: int8}")), kWeights);
  EXPECT_EQ(matmulWeightBytes(decodeStep("default: {dtype: bf16, weights: mxfp4}")), kWeights * 17 / 32);
  EXPECT_EQ(matmulWeightBytes(decodeStep("default: bf16")), kWeights * 2);
}

TEST(NumberFormats, DecodeDramTrafficDropsByTheWeightBytes) {
  // A decode step reads every weight once from DRAM; the activations, the KV cache and the
  // embedding row are bf16 in every plan, so the DRAM bytes differ by the weights' bytes alone.
  const int64_t bf16 = simulate(decodeStep("default: bf16")).bytesAt("dram");
  const int64_t w8 = simulate(decodeStep("default: {dtype: bf16, weights: int8}")).bytesAt("dram");
  const int64_t w4 = simulate(decodeStep("default: {dtype: bf16, weights: int4_g128_fp16}")).bytesAt("dram");
  EXPECT_EQ(bf16 - w8, kWeights);
  EXPECT_EQ(w8 - w4, kWeights - kWeights * 33 / 64);
}

TEST(NumberFormats, MixedPlanCostsWhatItsOpsCostInTheirFormats) {
  // Two attention projections in fp8 at twice the bf16 rate, one FFN projection weight-only
  // int4, the rest bf16: every op's cycles equal its own in the uniform run of its format, and
  // the step is their sum.
  const std::string mixed =
      "default: bf16\nops:\n"
      "  layers.0.attn.q_proj: fp8_e4m3\n  layers.1.attn.q_proj: fp8_e4m3\n"
      "  layers.0.mlp.down_proj: {dtype: bf16, weights: int4}\n";
  const sim::RunStats run = simulate(decodeStep(mixed));
  const sim::RunStats bf16 = simulate(decodeStep("default: bf16"));
  const sim::RunStats fp8 = simulate(decodeStep("default: fp8_e4m3"));
  const sim::RunStats w4 = simulate(decodeStep("default: {dtype: bf16, weights: int4}"));
  const std::map<std::string, const sim::RunStats*> format_of = {
      {"layers.0.attn.q_proj", &fp8}, {"layers.1.attn.q_proj", &fp8}, {"layers.0.mlp.down_proj", &w4}};
  const auto cyclesIn = [](const sim::RunStats& r, const std::string& name) {
    for (const sim::OpStats& o : r.ops)
      if (o.name == name) return o.cycles;
    ADD_FAILURE() << name << " is not in the uniform run";
    return 0.0;
  };
  // A conversion the planner fuses into its producer's epilogue (the fp8 output widened back
  // to bf16 as it drains) is charged to that producer: those anchors may only cost more.
  std::set<int> anchors_of_conversions;
  for (const sim::OpStats& o : run.ops) {
    if (o.name.find(".to_") != std::string::npos && o.placement == sim::Placement::Fused) {
      anchors_of_conversions.insert(o.fused_into);
    }
  }
  EXPECT_FALSE(anchors_of_conversions.empty());
  double sum = 0;
  int conversions = 0;
  for (const sim::OpStats& o : run.ops) {
    sum += o.cycles;
    if (o.name.find(".to_") != std::string::npos) {  // where the dtype changes: the mixed run's own
      ++conversions;
      continue;
    }
    const auto f = format_of.find(o.name);
    const double alone = cyclesIn(f == format_of.end() ? bf16 : *f->second, o.name);
    if (anchors_of_conversions.count(o.op_id)) {
      EXPECT_GE(o.cycles, alone) << o.name;
    } else {
      EXPECT_DOUBLE_EQ(o.cycles, alone) << o.name;
    }
  }
  EXPECT_DOUBLE_EQ(run.totalCycles(), sum);
}

}  // namespace
}  // namespace tessel
