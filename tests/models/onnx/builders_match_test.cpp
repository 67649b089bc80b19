// tessel's hand-written GPT-2 small, BERT-base and ResNet-50 builders against ONNX exports of the
// same networks (tests/models/data/onnx/{gpt2_small,bert_base,resnet50}.onnx, made by
// scripts/make_onnx_fixtures.py): the same MACs in total and per op class, the same classes
// doing MACs, and the same parameters where the export keeps them.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models {
namespace {

struct Summary {
  int64_t macs = 0;
  std::map<OpClass, int64_t> macs_by_class;  // only classes with MACs
  std::map<OpClass, int64_t> ops_by_class;   // every op
  std::set<OpClass> classes() const {
    std::set<OpClass> s;
    for (const auto& [c, n] : ops_by_class) s.insert(c);
    return s;
  }
};

Summary summarize(const Graph& g) {
  Summary s;
  for (const Op& op : g.ops()) {
    ++s.ops_by_class[op.opClass()];
    if (op.macs == 0) continue;
    s.macs += op.macs;
    s.macs_by_class[op.opClass()] += op.macs;
  }
  EXPECT_EQ(s.macs, g.totalMacs());
  return s;
}

Graph fixture(const std::string& file) {
  return build(std::string(TESSEL_SOURCE_DIR) + "/tests/models/data/onnx/" + file, {});
}

std::set<OpClass> withMacs(const Summary& s) {
  std::set<OpClass> c;
  for (const auto& [k, v] : s.macs_by_class) c.insert(k);
  return c;
}

// Elements of the Weight tensors feeding ops of kind k at input position i (each once).
int64_t weightElements(const Graph& g, OpKind k, size_t i) {
  std::set<int> seen;
  int64_t n = 0;
  for (const Op& op : g.ops()) {
    if (op.kind != k || op.inputs.size() <= i) continue;
    const int t = op.inputs[i];
    if (g.tensor(t).role != TensorRole::Weight || !seen.insert(t).second) continue;
    n += g.tensor(t).elements();
  }
  return n;
}

int64_t count(const Summary& s, OpClass c) {
  auto it = s.ops_by_class.find(c);
  return it == s.ops_by_class.end() ? 0 : it->second;
}

TEST(BuildersMatchOnnx, Gpt2Small) {
  WorkloadOptions o;
  o.seq = 512;  // prefill: the LM head on the last position only, as the export's x[:, -1:, :]
  const Graph built = build("gpt2-small", o);
  const Graph onnx = fixture("gpt2_small.onnx");
  const Summary b = summarize(built), x = summarize(onnx);
  EXPECT_EQ(b.macs, 48356979456);
  EXPECT_EQ(x.macs, b.macs);
  EXPECT_EQ(x.macs_by_class, b.macs_by_class);
  EXPECT_EQ(withMacs(x), std::set<OpClass>{OpClass::MatMul});
  EXPECT_EQ(withMacs(x), withMacs(b));
  // 12 x (qkv, score, context, proj, fc, fc_out) + the LM head on both sides.
  EXPECT_EQ(count(x, OpClass::MatMul), 73);
  EXPECT_EQ(count(b, OpClass::MatMul), 73);
  // wte is one initializer read by the embedding Gather and the LM head's MatMul (the export
  // writes the head as wte @ x^T so no transposed copy of wte is folded in): counted once.
  EXPECT_EQ(b.macs_by_class.at(OpClass::MatMul), x.macs_by_class.at(OpClass::MatMul));
  EXPECT_EQ(built.parameterCount(), 124439808);
  EXPECT_EQ(onnx.parameterCount(), built.parameterCount());
  // The one class-level difference is Layout: copies the builder models as views. Per layer
  // the export has Split's 3 Slices of the fused qkv and 4 Transposes (q, k^T, v into heads,
  // the context back to [B, S, d]); then the Slice of the last position and the LM head's 2
  // Transposes (x^T and the logits back). The builder's attention reads Q, K and V at column
  // offsets of qkv and its LM head takes the last row and uses wte with transpose_b.
  std::set<OpClass> expected = b.classes();
  expected.insert(OpClass::Layout);
  EXPECT_EQ(x.classes(), expected);
  EXPECT_EQ(count(b, OpClass::Layout), 0);
  EXPECT_EQ(count(x, OpClass::Layout), 12 * (3 + 4) + 1 + 2);
  for (OpClass c : b.classes()) EXPECT_EQ(count(x, c), count(b, c)) << nameOf(c);
}

TEST(BuildersMatchOnnx, BertBase) {
  WorkloadOptions o;
  o.seq = 128;
  const Graph built = build("bert-base", o);
  const Graph onnx = fixture("bert_base.onnx");
  const Summary b = summarize(built), x = summarize(onnx);
  EXPECT_EQ(b.macs, 11173625856);
  EXPECT_EQ(x.macs, b.macs);
  EXPECT_EQ(x.macs_by_class, b.macs_by_class);
  EXPECT_EQ(withMacs(x), std::set<OpClass>{OpClass::MatMul});
  EXPECT_EQ(withMacs(x), withMacs(b));
  // Op counts differ, not MACs: the export has BertSelfAttention's separate query/key/value
  // Linears (3 MatMuls of d x d) where the builder fuses them into one d x 3d projection.
  EXPECT_EQ(count(b, OpClass::MatMul), 12 * 6);
  EXPECT_EQ(count(x, OpClass::MatMul), 12 * 8);
  // No pooler on either side; q/k/v separate or fused hold the same weights and biases.
  EXPECT_EQ(built.parameterCount(), 108891648);
  EXPECT_EQ(onnx.parameterCount(), built.parameterCount());
  // Layout: the export's 4 Transposes per layer (q, k^T, v into heads, the context back),
  // which the builder models as views.
  std::set<OpClass> expected = b.classes();
  expected.insert(OpClass::Layout);
  EXPECT_EQ(x.classes(), expected);
  EXPECT_EQ(count(b, OpClass::Layout), 0);
  EXPECT_EQ(count(x, OpClass::Layout), 12 * 4);
  for (OpClass c : b.classes()) {
    if (c == OpClass::MatMul) continue;
    EXPECT_EQ(count(x, c), count(b, c)) << nameOf(c);
  }
}

TEST(BuildersMatchOnnx, Resnet50) {
  const Graph built = build("resnet50", {});
  const Graph onnx = fixture("resnet50.onnx");
  const Summary b = summarize(built), x = summarize(onnx);
  EXPECT_EQ(b.macs, 4089184256);
  EXPECT_EQ(x.macs, b.macs);
  EXPECT_EQ(x.macs_by_class, b.macs_by_class);
  EXPECT_EQ(x.macs_by_class.at(OpClass::Conv), 4087136256);
  EXPECT_EQ(x.macs_by_class.at(OpClass::MatMul), 2048000);  // fc: 2048 x 1000
  EXPECT_EQ(withMacs(x), (std::set<OpClass>{OpClass::Conv, OpClass::MatMul}));
  EXPECT_EQ(count(x, OpClass::Conv), 53);
  EXPECT_EQ(count(b, OpClass::Conv), 53);
  EXPECT_EQ(x.classes(), b.classes());
  // The exporter folds every BatchNorm into its conv: the builder's 53 BatchNorm ops (class
  // Other, beside the 49 Relus both have) are gone from the export.
  EXPECT_EQ(count(b, OpClass::Other) - count(x, OpClass::Other), 53);
  // Parameters: conv weights and the fc's weight and bias are the same tensors on both sides.
  // BN folding turns each BN's scale and shift (2 per channel, builder) into the conv's bias
  // (1 per channel, export), so the builder has one parameter more per BN channel: 26,560.
  EXPECT_EQ(weightElements(onnx, OpKind::Conv2d, 1), weightElements(built, OpKind::Conv2d, 1));
  EXPECT_EQ(weightElements(onnx, OpKind::MatMul, 1), weightElements(built, OpKind::MatMul, 1));
  EXPECT_EQ(weightElements(onnx, OpKind::MatMul, 2), weightElements(built, OpKind::MatMul, 2));
  const int64_t bn_channels = weightElements(onnx, OpKind::Conv2d, 2);
  EXPECT_EQ(bn_channels, 26560);
  EXPECT_EQ(weightElements(built, OpKind::Conv2d, 2), 0);  // the builder's convs have no bias
  EXPECT_EQ(
      weightElements(built, OpKind::BatchNorm, 1) + weightElements(built, OpKind::BatchNorm, 2),
      2 * bn_channels);
  EXPECT_EQ(built.parameterCount(), 25557032);  // torchvision's sum of p.numel()
  EXPECT_EQ(onnx.parameterCount(), 25530472);   // expected.json's initializer_elements
  EXPECT_EQ(built.parameterCount() - onnx.parameterCount(), bn_channels);
}

}  // namespace
}  // namespace tessel::models
