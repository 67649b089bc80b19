// The committed ONNX fixtures (tests/models/data/onnx), imported and recognized: the patterns
// torch 1.13 really exports, and MACs against the counts torch's forward hooks gave.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "models/onnx/import.h"
#include "models/passes/recognize.h"
#include "tests/models/passes/pass_checks.h"

namespace tessel::models::testing {
namespace {

const std::string kDir = std::string(TESSEL_SOURCE_DIR) + "/tests/models/data/onnx/";

Graph importFixture(const std::string& name) {
  WorkloadOptions options;
  options.dtype = DType::FP32;
  return onnx::importFile(kDir + name + ".onnx", options);
}

int64_t expectedMacs(const std::string& name) {
  std::ifstream in(kDir + "expected.json");
  return nlohmann::json::parse(in).at(name).at("macs").get<int64_t>();
}

// Score matmuls the pass folded a scale of 1/sqrt(16) and a causal mask into.
int causalScores(const Graph& g) {
  int n = 0;
  for (const Op& op : g.ops()) {
    n += op.kind == OpKind::BatchMatMul && op.attn.causal && op.attn.scale == 0.25f;
  }
  return n;
}

TEST(RecognizeFixtures, TinyGptBecomesLayerNormsGelusAndCausalScores) {
  const Graph g = importFixture("tiny_gpt");
  const Graph r = recognizePatterns(g);
  expectWellFormed(r);
  EXPECT_EQ(countKind(r, OpKind::LayerNorm), 5);  // 2 per block and ln_f
  EXPECT_EQ(countKind(r, OpKind::Gelu), 2);
  for (const Op& op : r.ops()) {
    if (op.kind == OpKind::Gelu) {
      EXPECT_FALSE(op.gelu_tanh);
    }
    if (op.kind == OpKind::LayerNorm) {
      EXPECT_FLOAT_EQ(op.eps, 1e-5f);
    }
  }
  EXPECT_EQ(causalScores(r), 2);
  // Nothing of the patterns is left: no Div/Pow/Sqrt/Erf/Where, no Mul.
  EXPECT_EQ(countKind(r, OpKind::Elementwise), 0);
  EXPECT_EQ(countKind(r, OpKind::Mul), 0);
  EXPECT_EQ(r.totalMacs(), expectedMacs("tiny_gpt"));
  EXPECT_EQ(r.warnings.size(), g.warnings.size());
}

TEST(RecognizeFixtures, LlamaBlockBecomesRmsNormsSiluAndACausalScore) {
  const Graph g = importFixture("tiny_llama_block");
  const Graph r = recognizePatterns(g);
  expectWellFormed(r);
  EXPECT_EQ(countKind(r, OpKind::RmsNorm), 2);
  EXPECT_EQ(countKind(r, OpKind::Silu), 1);
  EXPECT_EQ(countKind(r, OpKind::Sigmoid), 0);
  EXPECT_EQ(causalScores(r), 1);
  for (const Op& op : r.ops()) {
    if (op.kind == OpKind::RmsNorm) {
      EXPECT_FLOAT_EQ(op.eps, 1e-6f);
    }
  }
  EXPECT_EQ(r.totalMacs(), expectedMacs("tiny_llama_block"));
}

TEST(RecognizeFixtures, ConvNetsHaveNothingToRecognize) {
  for (const char* name : {"resnet18", "mobilenet_v2"}) {
    const Graph g = importFixture(name);
    const Graph r = recognizePatterns(g);
    EXPECT_EQ(opList(r), opList(g)) << name;
    EXPECT_EQ(r.totalMacs(), expectedMacs(name)) << name;
  }
}

}  // namespace
}  // namespace tessel::models::testing
