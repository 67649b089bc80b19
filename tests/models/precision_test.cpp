// The precision pass: one dtype per op, conversions exactly where dtypes change.
#include "models/precision.h"

#include <gtest/gtest.h>

#include "models/workload.h"
#include "util/error.h"

namespace tessel::models {
namespace {

int countKind(const Graph& g, OpKind k) {
  int n = 0;
  for (const auto& op : g.ops()) n += op.kind == k;
  return n;
}

TEST(ModelsPrecision, UniformPlanInsertsNothing) {
  const Graph g = build("gpt2-small", WorkloadOptions{});
  PrecisionPlan plan;
  plan.default_dtype = DType::Int8;
  const Graph p = applyPrecision(g, plan);
  EXPECT_EQ(p.ops().size(), g.ops().size());
  EXPECT_EQ(p.totalMacs(), g.totalMacs());
  EXPECT_EQ(p.parameterCount(), g.parameterCount());
}

TEST(ModelsPrecision, OneFp32SoftmaxGetsADequantizeAndAQuantize) {
  // h0.attn.softmax in fp32 inside an int8 model: its input (the int8 score) is dequantized,
  // and its consumer (the int8 context matmul) needs its output quantized: +2 ops.
  const Graph g = build("gpt2-small", WorkloadOptions{});
  PrecisionPlan plan;
  plan.set("h0.attn.softmax", DType::FP32);
  const Graph p = applyPrecision(g, plan);
  EXPECT_EQ(p.ops().size(), g.ops().size() + 2);
  EXPECT_EQ(countKind(p, OpKind::Dequantize), 1);
  EXPECT_EQ(countKind(p, OpKind::Quantize), 1);
  const Op& sm = p.op(p.findOp("h0.attn.softmax"));
  EXPECT_EQ(p.tensor(sm.inputs[0]).dtype, DType::FP32);
  EXPECT_EQ(p.tensor(sm.outputs[0]).dtype, DType::FP32);
  // Topological order holds: every input is produced before its consumer.
  for (const auto& op : p.ops()) {
    for (int t : op.inputs) EXPECT_LT(p.producerOf(t), op.id);
  }
}

// A weight-only entry: the matmul reads its weights as stored (int4 in groups of 128), everything
// else in bf16; `dequantize: op` stores them narrow and widens them in a conversion op instead.
TEST(ModelsPrecision, WeightOnlyEntries) {
  const PrecisionPlan p = parsePrecisionPlan(
      "default: {dtype: bf16, weights: int4_g128_fp16}\n"
      "ops:\n  h0.mlp.fc: {dtype: bf16, weights: int8, dequantize: op}\n  lm_head: bf16\n",
      "w4.yaml");
  EXPECT_EQ(nameOf(*p.precisionOf("h0.attn.qkv").weights), "int4_g128_fp16");
  EXPECT_FALSE(p.precisionOf("lm_head").weights.has_value());
  EXPECT_EQ(p.precisionOf("h0.mlp.fc").dequantize, Dequantize::Op);
  const PrecisionPlan back = parsePrecisionPlan(toYaml(p), "back.yaml");
  for (const char* op : {"h0.attn.qkv", "h0.mlp.fc", "lm_head"}) EXPECT_EQ(back.precisionOf(op), p.precisionOf(op)) << op;

  WorkloadOptions o;
  o.seq = 16;
  o.layers = 1;
  o.dtype = DType::BF16;
  const Graph g = applyPrecision(build("gpt2", o), p);
  const auto weightOf = [&](const char* op) { return g.tensor(g.op(g.findOp(op)).inputs.at(1)); };
  EXPECT_EQ(nameOf(weightOf("h0.attn.qkv").dtype), "int4_g128_fp16");
  EXPECT_EQ(weightOf("h0.attn.qkv").role, TensorRole::Weight);  // read as stored
  // Dequantized by an op: the matmul reads a bf16 activation converted from int8 weights.
  const Tensor& fc_w = weightOf("h0.mlp.fc");
  EXPECT_EQ(fc_w.dtype, DType::BF16);
  const Op& conv = g.op(g.producerOf(fc_w.id));
  EXPECT_EQ(conv.kind, OpKind::Dequantize);
  EXPECT_EQ(g.tensor(conv.inputs.at(0)).dtype, DType::Int8);
  // The embedding table is no matmul weight: bf16.
  EXPECT_EQ(g.tensor(g.op(g.findOp("wte")).inputs.at(1)).dtype, DType::BF16);
}

// A plan may say how sparse each matmul's weights are: the default for all, an op's own, or
// `dense` to keep one dense (here the tied LM head); a weight a Dequantize op widens keeps it.
TEST(ModelsPrecision, SparsityPerOpAndByDefault) {
  const PrecisionPlan p = parsePrecisionPlan(
      "default: {dtype: bf16, sparsity: \"2:4\"}\n"
      "ops:\n  h0.mlp.fc: {dtype: bf16, weights: int8, dequantize: op, sparsity: 0.5}\n"
      "  lm_head: {dtype: bf16, sparsity: dense}\n",
      "sparse.yaml");
  const PrecisionPlan back = parsePrecisionPlan(toYaml(p), "back.yaml");
  for (const char* op : {"h0.attn.qkv", "h0.mlp.fc", "lm_head"}) {
    EXPECT_EQ(back.precisionOf(op), p.precisionOf(op)) << op;
  }
  WorkloadOptions o;
  o.seq = 16;
  o.layers = 1;
  o.dtype = DType::BF16;
  const Graph g = applyPrecision(build("gpt2", o), p);
  const auto weightOf = [&](const char* op) { return g.tensor(g.op(g.findOp(op)).inputs.at(1)); };
  EXPECT_EQ(weightOf("h0.attn.qkv").sparsity, Sparsity::nm(2, 4));
  EXPECT_TRUE(weightOf("lm_head").sparsity.dense());
  const Tensor& fc = weightOf("h0.mlp.fc");  // the Dequantize op's output, and its int8 source
  EXPECT_EQ(fc.sparsity, Sparsity::uniform(0.5));
  EXPECT_EQ(g.tensor(g.op(g.producerOf(fc.id)).inputs.at(0)).sparsity, Sparsity::uniform(0.5));
  try {
    parsePrecisionPlan("default: {dtype: bf16, sparsity: 5:4}", "p.yaml");
    FAIL() << "5:4 parsed";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("p.yaml:1:"), std::string::npos) << e.what();
  }
}

TEST(ModelsPrecision, WeightOnlyErrorsAreLocated) {
  const auto error = [](const std::string& text) {
    try {
      parsePrecisionPlan(text, "p.yaml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("default: {dtype: bf16, dequantize: op}").find("give weights too"), std::string::npos);
  EXPECT_NE(error("default: {dtype: bf16, weights: int4, dequantize: maybe}").find("expected datapath or op"),
            std::string::npos);
  EXPECT_NE(error("default: {weights: int4}").find("dtype"), std::string::npos);
  EXPECT_NE(error("default: {dtype: bf16, weight: int4}").find("p.yaml:1:"), std::string::npos);
}

TEST(ModelsPrecision, ParsesYamlAndJsonAndLocatesErrors) {
  PrecisionPlan a = parsePrecisionPlan("default: fp16\nops:\n  lm_head: fp32\n", "p.yaml");
  EXPECT_EQ(a.default_dtype, DType::FP16);
  EXPECT_EQ(a.dtypeOf("lm_head"), DType::FP32);
  EXPECT_EQ(a.dtypeOf("h0.mlp.fc"), DType::FP16);
  PrecisionPlan b =
      parsePrecisionPlan(R"({"default": "int8", "ops": {"lm_head": "bf16"}})", "p.json");
  EXPECT_EQ(b.dtypeOf("lm_head"), DType::BF16);
  // Round trip through the writer.
  EXPECT_EQ(parsePrecisionPlan(toYaml(a), "x").dtypeOf("lm_head"), DType::FP32);
  try {
    parsePrecisionPlan("default: int8\nops:\n  lm_head: fp7\n", "bad.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:3:12"), std::string::npos) << e.what();
  }
  const Graph g = build("gpt2-small", WorkloadOptions{});
  try {
    applyPrecision(g, parsePrecisionPlan("ops:\n  lm_haed: fp32\n", "typo.yaml"));
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("typo.yaml:2:3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean 'lm_head'"), std::string::npos) << e.what();
  }
}

TEST(ModelsPrecision, AnOpListedTwiceIsAnErrorAtTheSecond) {
  try {
    parsePrecisionPlan("default: int8\nops:\n  h0.attn.softmax: fp32\n  h0.attn.softmax: int8\n",
                       "p.yaml");
    FAIL() << "a plan listing one op twice was accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "p.yaml:4:3: at 'ops.h0.attn.softmax': duplicate key 'h0.attn.softmax' (first "
                 "given on line 3)");
  }
}

TEST(ModelsPrecision, AWrittenPlanReadsBackWhateverItsOpNames) {
  PrecisionPlan plan;
  plan.default_dtype = DType::FP16;
  for (const char* name :
       {"h0.attn.qkv", "a: b", "#x", "q\"uote", "back\\slash", "new\nline", "- dash"}) {
    plan.set(name, DType::Int8);
  }
  const PrecisionPlan back = parsePrecisionPlan(toYaml(plan), "p.yaml");
  EXPECT_EQ(back.default_dtype, DType::FP16);
  ASSERT_EQ(back.ops.size(), plan.ops.size());
  for (size_t i = 0; i < plan.ops.size(); ++i) {
    EXPECT_EQ(back.ops[i].op, plan.ops[i].op);
    EXPECT_EQ(back.ops[i].dtype, DType::Int8);
  }
}

}  // namespace
}  // namespace tessel::models
