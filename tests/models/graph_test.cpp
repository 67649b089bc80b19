// The graph IR itself: tensor sizes, op validation, the producer/consumer indexes.
#include "models/graph.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace tessel::models {
namespace {

Op opNamed(const std::string& name, OpKind kind, std::vector<int> in, std::vector<int> out) {
  Op op;
  op.name = name;
  op.kind = kind;
  op.inputs = std::move(in);
  op.outputs = std::move(out);
  return op;
}

TEST(ModelsGraph, TensorElementsAndBytes) {
  Tensor t;
  t.shape = {2, 3, 4};
  t.dtype = DType::FP16;
  EXPECT_EQ(t.elements(), 24);
  EXPECT_EQ(t.bytes(), 48);  // 2 bytes per fp16 element
  t.shape = {};
  EXPECT_EQ(t.elements(), 1);  // a scalar
}

TEST(ModelsGraph, OpClassMapping) {
  EXPECT_EQ(classOf(OpKind::MatMul), OpClass::MatMul);
  EXPECT_EQ(classOf(OpKind::BatchMatMul), OpClass::MatMul);
  EXPECT_EQ(classOf(OpKind::Conv2d), OpClass::Conv);
  EXPECT_EQ(classOf(OpKind::Softmax), OpClass::Softmax);
  EXPECT_EQ(classOf(OpKind::LayerNorm), OpClass::LayerNorm);
  EXPECT_EQ(classOf(OpKind::Gelu), OpClass::GELU);
  EXPECT_EQ(classOf(OpKind::Add), OpClass::ResidualAdd);
  EXPECT_EQ(classOf(OpKind::Quantize), OpClass::QuantDequant);
  EXPECT_EQ(classOf(OpKind::Dequantize), OpClass::QuantDequant);
  EXPECT_EQ(classOf(OpKind::MaxPool), OpClass::Pool);
  EXPECT_EQ(classOf(OpKind::AvgPool), OpClass::Pool);
  EXPECT_EQ(classOf(OpKind::GlobalAvgPool), OpClass::Pool);
  EXPECT_EQ(classOf(OpKind::Relu), OpClass::Other);
  EXPECT_EQ(classOf(OpKind::BatchNorm), OpClass::Other);
  EXPECT_EQ(classOf(OpKind::Embedding), OpClass::Other);
  EXPECT_EQ(nameOf(OpKind::BatchMatMul), "BatchMatMul");
  EXPECT_EQ(nameOf(OpClass::ResidualAdd), "ResidualAdd");
}

// x -> relu -> a; (a, a) -> add -> b; w is a weight read by two ops.
struct Small {
  Graph g;
  int x, w, a, b, c;
  int relu, add, mm;
  Small() {
    x = g.addTensor("x", {4, 8}, DType::Int8, TensorRole::Input);
    w = g.addTensor("w", {8, 8}, DType::Int8, TensorRole::Weight);
    a = g.addTensor("a", {4, 8}, DType::Int8, TensorRole::Activation);
    b = g.addTensor("b", {4, 8}, DType::Int8, TensorRole::Activation);
    c = g.addTensor("c", {4, 8}, DType::Int8, TensorRole::Activation);
    relu = g.addOp(opNamed("relu", OpKind::Relu, {x}, {a}));
    add = g.addOp(opNamed("add", OpKind::Add, {a, a}, {b}));
    Op m = opNamed("mm", OpKind::MatMul, {b, w}, {c});
    m.macs = 4 * 8 * 8;
    mm = g.addOp(m);
  }
};

TEST(ModelsGraph, AddOpAssignsIdsAndIndexes) {
  Small s;
  EXPECT_EQ(s.relu, 0);
  EXPECT_EQ(s.add, 1);
  EXPECT_EQ(s.g.producerOf(s.x), -1);  // inputs and weights have no producer
  EXPECT_EQ(s.g.producerOf(s.w), -1);
  EXPECT_EQ(s.g.producerOf(s.a), s.relu);
  EXPECT_EQ(s.g.producerOf(s.c), s.mm);
  EXPECT_EQ(s.g.consumersOf(s.a), std::vector<int>{s.add});  // read twice, listed once
  EXPECT_EQ(s.g.consumersOf(s.b), std::vector<int>{s.mm});
  EXPECT_TRUE(s.g.consumersOf(s.c).empty());
  EXPECT_EQ(s.g.findOp("add"), s.add);
  EXPECT_EQ(s.g.findOp("nope"), -1);
  EXPECT_EQ(s.g.totalMacs(), 256);      // only the MatMul: 4*8*8
  EXPECT_EQ(s.g.parameterCount(), 64);  // the one 8x8 weight
}

// The one rule every loader shares: an op dimension below 1 (a 0 written in an ONNX file, a
// config, a topology) is a ConfigError naming the op and where it came from.
TEST(ModelsGraph, AddOpRejectsAZeroDimensionWhereverItCameFrom) {
  Small s;
  const int z = s.g.addTensor("z", {4, 0}, DType::Int8, TensorRole::Activation);
  Op op = opNamed("conv7", OpKind::Relu, {s.a}, {z});
  op.source = "model.onnx: node 'conv7' (Relu)";
  try {
    s.g.addOp(op);
    FAIL() << "a [4, 0] output was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.where().yaml_path, "model.onnx: node 'conv7' (Relu)");
    EXPECT_NE(e.message().find("op 'conv7': output 'z' [4, 0] has a dimension below 1"),
              std::string::npos)
        << e.what();
  }
  const int c2 = s.g.addTensor("c2", {4, 8}, DType::Int8, TensorRole::Activation);
  Op mm = opNamed("mm0", OpKind::MatMul, {s.b, s.w}, {c2});
  mm.gemm.batch = 1;
  mm.gemm.m = 4;
  mm.gemm.n = 8;
  mm.gemm.k = 0;
  EXPECT_THROW(s.g.addOp(mm), ConfigError);
  EXPECT_EQ(s.g.ops().size(), 3u);
}

TEST(ModelsGraph, AddOpRejectsBadWiring) {
  Small s;
  int d = s.g.addTensor("d", {4, 8}, DType::Int8, TensorRole::Activation);
  int e = s.g.addTensor("e", {4, 8}, DType::Int8, TensorRole::Activation);
  // Missing input id, output that is a weight, output already produced, unproduced input.
  EXPECT_THROW(s.g.addOp(opNamed("o1", OpKind::Relu, {99}, {d})), Error);
  EXPECT_THROW(s.g.addOp(opNamed("o2", OpKind::Relu, {s.a}, {s.w})), Error);
  EXPECT_THROW(s.g.addOp(opNamed("o3", OpKind::Relu, {s.a}, {s.b})), Error);
  EXPECT_THROW(s.g.addOp(opNamed("o4", OpKind::Relu, {e}, {d})), Error);
  EXPECT_THROW(s.g.addOp(opNamed("o5", OpKind::Relu, {s.a}, {})), Error);
  EXPECT_THROW(s.g.addOp(opNamed("o6", OpKind::Relu, {s.a}, {-1})), Error);
  EXPECT_THROW(s.g.addOp(opNamed("relu", OpKind::Relu, {s.a}, {d})), Error);  // duplicate name
  EXPECT_THROW(s.g.addOp(opNamed("", OpKind::Relu, {s.a}, {d})), Error);
  EXPECT_THROW(s.g.addTensor("neg", {-1}, DType::Int8, TensorRole::Input), Error);
  EXPECT_EQ(s.g.ops().size(), 3u);  // failed adds leave the graph untouched
  EXPECT_EQ(s.g.producerOf(d), -1);
  s.g.addOp(opNamed("o7", OpKind::Relu, {s.a}, {d}));
  EXPECT_EQ(s.g.consumersOf(s.a), (std::vector<int>{s.add, 3}));
}

TEST(ModelsGraph, ReindexAfterEdits) {
  Small s;
  s.g.op(s.mm).inputs[0] = s.a;  // rewire the MatMul to read the ReLU output
  s.g.reindex();
  EXPECT_EQ(s.g.consumersOf(s.a), (std::vector<int>{s.add, s.mm}));
  EXPECT_TRUE(s.g.consumersOf(s.b).empty());
  s.g.op(s.relu).inputs[0] = s.c;  // would read a later op's output
  EXPECT_THROW(s.g.reindex(), Error);
}

}  // namespace
}  // namespace tessel::models
