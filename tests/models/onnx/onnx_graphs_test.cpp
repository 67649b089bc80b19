// Graphs built with the ONNX protobuf API: conversion, views, shape folding, dims, weights.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/onnx/import.h"
#include "models/onnx/tensor_data.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "util/error.h"

namespace tessel::models::onnx::test {
namespace {

TEST(OnnxGraphs, MatMulOnWeightFoldsRowsAndBias) {
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{5}, int64_t{8}});
  b.init("W", {8, 16});
  b.init("bias", {16});
  b.node("MatMul", {"x", "W"}, {"xw"});
  b.node("Add", {"xw", "bias"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);  // the Add is the MatMul's bias
  const Op& op = g.ops()[0];
  EXPECT_EQ(op.kind, OpKind::MatMul);
  EXPECT_EQ(op.inputs.size(), 3u);
  // rows 2*5 = 10 fold into m; 10 x 16 x 8 = 1280 MACs.
  EXPECT_EQ(op.gemm.batch, 1);
  EXPECT_EQ(op.gemm.m, 10);
  EXPECT_EQ(op.gemm.n, 16);
  EXPECT_EQ(op.gemm.k, 8);
  EXPECT_EQ(op.macs, 1280);
  EXPECT_EQ(g.tensor(op.outputs[0]).shape, (std::vector<int64_t>{2, 5, 16}));
  EXPECT_EQ(g.tensor(op.inputs[1]).role, TensorRole::Weight);
  EXPECT_EQ(op.source, "node 'xw' (MatMul)");
  EXPECT_EQ(g.tensor(0).name, "x");  // inputs first
}

TEST(OnnxGraphs, SymbolicDimsBoundByDimAndBatch) {
  ModelBuilder b;
  b.input("x", {std::string("batch"), std::string("seq"), int64_t{8}});
  b.node("Relu", {"x"}, {"y"});
  b.output("y");
  WorkloadOptions o;
  o.batch = 3;
  o.dims = {{"seq", 7}};
  const Graph g = importModel(b, o);
  EXPECT_EQ(g.tensor(0).shape, (std::vector<int64_t>{3, 7, 8}));
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).shape, (std::vector<int64_t>{3, 7, 8}));
  EXPECT_NE(g.name.find("batch=3"), std::string::npos) << g.name;
  EXPECT_NE(g.name.find("seq=7"), std::string::npos) << g.name;
}

TEST(OnnxGraphs, UnboundSymbolicDimNamesDimAndInputs) {
  ModelBuilder b;
  b.input("ids", {int64_t{1}, std::string("seq")}, 7);
  b.input("mask", {int64_t{1}, std::string("seq")}, 7);
  b.node("Add", {"ids", "mask"}, {"y"});
  b.output("y", 7);
  try {
    importModel(b);
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'seq'"), std::string::npos) << m;
    EXPECT_NE(m.find("ids, mask"), std::string::npos) << m;
    EXPECT_NE(m.find("--dim seq=VALUE"), std::string::npos) << m;
  }
}

// x [B, 6, 4] -> Reshape to [B, 6 / 2, 8] computed as Concat(Shape(x)[0], Shape(x)[1] / 2, 8):
// ONNX 1.12's data propagation stops at Div, tessel's folding finishes it. The Reshape is a
// view, the shape arithmetic creates no op: one MatMul, rows B*3 = 6, 6 x 5 x 8 = 240 MACs.
TEST(OnnxGraphs, ReshapeAfterShapeChainFolds) {
  ModelBuilder b;
  b.input("x", {std::string("B"), int64_t{6}, int64_t{4}});
  b.initInts("i0", {1}, {0});
  b.initInts("i1", {1}, {1});
  b.initInts("two", {1}, {2});
  b.initInts("eight", {1}, {8});
  b.init("W", {8, 5});
  b.node("Shape", {"x"}, {"s"});
  b.node("Gather", {"s", "i0"}, {"b"});
  b.node("Gather", {"s", "i1"}, {"six"});
  b.node("Div", {"six", "two"}, {"three"});
  b.node("Concat", {"b", "three", "eight"}, {"target"});
  attrInt(b.g().mutable_node()->at(4), "axis", 0);
  b.node("Reshape", {"x", "target"}, {"r"});
  b.node("MatMul", {"r", "W"}, {"y"});
  b.output("y");
  WorkloadOptions o;
  o.batch = 2;
  const Graph g = importModel(b, o);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].gemm.m, 6);
  EXPECT_EQ(g.ops()[0].gemm.k, 8);
  EXPECT_EQ(g.ops()[0].macs, 240);
  EXPECT_EQ(g.ops()[0].inputs[0], 0);  // reads x itself: the view aliases it
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).shape, (std::vector<int64_t>{2, 3, 5}));
}

TEST(OnnxGraphs, ViewsCostNothing) {
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{3}, int64_t{4}});
  b.initInts("axes", {1}, {0});
  b.node("Relu", {"x"}, {"a"});
  b.node("Flatten", {"a"}, {"f"});
  b.node("Identity", {"f"}, {"i"});
  b.node("Dropout", {"i"}, {"d"});
  b.node("Unsqueeze", {"d", "axes"}, {"u"});
  b.node("Squeeze", {"u", "axes"}, {"s"});
  b.node("Relu", {"s"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 2u);
  EXPECT_EQ(g.ops()[1].inputs[0], g.ops()[0].outputs[0]);
  EXPECT_EQ(g.tensor(g.ops()[1].outputs[0]).shape, (std::vector<int64_t>{2, 12}));
  EXPECT_TRUE(g.warnings.empty());
}

TEST(OnnxGraphs, UnknownOpsWarnOncePerTypeAndFailUnderStrict) {
  ModelBuilder b;
  b.input("x", {int64_t{4}, int64_t{4}});
  b.node("Sin", {"x"}, {"s1"});
  b.node("Sin", {"s1"}, {"s2"});
  b.node("Cos", {"s2"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 3u);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Elementwise);
  EXPECT_EQ(g.ops()[0].elt.fn, "sin");
  ASSERT_EQ(g.warnings.size(), 2u);
  EXPECT_EQ(g.warnings[1], "2 ops of type Sin costed as generic elementwise ops: nodes s1, s2");
  WorkloadOptions strict;
  strict.strict = true;
  try {
    importModel(b, strict);
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("node 's1' (Sin)"), std::string::npos) << e.what();
  }
}

TEST(OnnxGraphs, ExternalDataIsNotReadForTiming) {
  ModelBuilder b;
  b.input("x", {int64_t{3}, int64_t{4}});
  b.initExternal("W", {4, 2}, "no_such_weights.bin");
  b.node("MatMul", {"x", "W"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].macs, 3 * 2 * 4);
  ASSERT_TRUE(g.weight_values);
  // The file is absent: no values (a functional run synthesizes them), and a warning says so.
  EXPECT_FALSE(g.weight_values->values("W").has_value());
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_NE(g.warnings[0].find("'no_such_weights.bin' not found"), std::string::npos);
  EXPECT_NE(g.warnings[0].find("1 initializer(s)"), std::string::npos);
}

// A weights file that is present but too short for its initializer is an error when read.
TEST(OnnxGraphs, ATruncatedWeightsFileIsAnErrorWhenRead) {
  ModelBuilder b;
  b.input("x", {int64_t{3}, int64_t{4}});
  b.initExternal("W", {4, 2}, "short_weights.bin");
  b.node("MatMul", {"x", "W"}, {"y"});
  b.output("y");
  const std::string path = b.write();
  const std::string data =
      (std::filesystem::path(path).parent_path() / "short_weights.bin").string();
  { std::ofstream(data, std::ios::binary) << "abc"; }  // 3 bytes of the 32 the shape needs
  const Graph g = importFile(path, {});
  EXPECT_TRUE(g.warnings.empty());
  EXPECT_THROW(g.weight_values->values("W"), Error);
  std::filesystem::remove(data);
}

// External data next to the model, at an offset; raw_data fp16 inside the model; Gemm's alpha
// scales its weight's values.
TEST(OnnxGraphs, WeightValuesFromExternalRawAndScaled) {
  const std::string dir = tempPath("_dir");
  std::filesystem::create_directory(dir);
  const float w[6] = {1, 2, 3, 4, 5, 6};
  std::ofstream(dir + "/w.bin", std::ios::binary)
      .write("padding!", 8)
      .write(reinterpret_cast<const char*>(w), sizeof w);
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{3}});
  b.initExternal("W", {3, 2}, "w.bin", 8);
  auto* h = b.g().add_initializer();  // fp16 [2]: 1.0, -2.5 as raw little-endian bits
  h->set_name("H");
  h->set_data_type(::onnx::TensorProto::FLOAT16);
  h->add_dims(2);
  h->set_raw_data(std::string("\x00\x3c\x00\xc1", 4));
  b.init("G", {2, 2}, {1, 2, 3, 4});
  b.node("MatMul", {"x", "W"}, {"xw"});
  b.node("Mul", {"xw", "H"}, {"m"});
  attrFloat(b.node("Gemm", {"m", "G"}, {"y"}), "alpha", 0.5f);
  b.output("y");
  const Graph g = importFile(b.write(dir + "/model.onnx"), {});
  EXPECT_EQ(*g.weight_values->values("W"), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(*g.weight_values->values("H"), (std::vector<float>{1.0f, -2.5f}));
  EXPECT_EQ(*g.weight_values->values("G"), (std::vector<float>{0.5f, 1, 1.5f, 2}));
  ASSERT_EQ(g.ops().size(), 3u);
  EXPECT_EQ(g.ops()[2].kind, OpKind::MatMul);
}

TEST(OnnxGraphs, WeightValuesAndFoldedBatchNorm) {
  ModelBuilder b;
  b.input("x", {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{3}});
  b.init("scale", {2}, {1, 2});
  b.init("B", {2}, {0.5f, 1});
  b.init("mean", {2}, {1, 0});
  b.init("var", {2}, {3, 15});
  auto& bn = b.node("BatchNormalization", {"x", "scale", "B", "mean", "var"}, {"y"}, "bn");
  attrFloat(bn, "epsilon", 1.0f);
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);
  const Op& op = g.ops()[0];
  EXPECT_EQ(op.kind, OpKind::BatchNorm);
  EXPECT_TRUE(op.channels_first);
  // scale' = scale / sqrt(var + 1) = {1/2, 2/4}; shift' = B - mean * scale' = {0, 1}.
  auto scale = g.weight_values->values(g.tensor(op.inputs[1]).name);
  auto shift = g.weight_values->values(g.tensor(op.inputs[2]).name);
  ASSERT_TRUE(scale && shift);
  EXPECT_EQ(*scale, (std::vector<float>{0.5f, 0.5f}));
  EXPECT_EQ(*shift, (std::vector<float>{0.0f, 1.0f}));
  EXPECT_EQ(*g.weight_values->values("B"), (std::vector<float>{0.5f, 1.0f}));
  EXPECT_FALSE(g.weight_values->values("x"));
}

// x [1, 4, 10, 10], W [8, 2, 3, 3], group 2, dilation 2 (span 5), pads top 1, left 0, bottom 2,
// right 1: P = (10 + 1 + 2 - 5) + 1 = 9, Q = (10 + 0 + 1 - 5) + 1 = 7; per group im2col
// m = 63, n = 4, k = 2 * 9 = 18: 2 * 63 * 4 * 18 = 9072 MACs.
TEST(OnnxGraphs, ConvGroupsDilationAsymmetricPads) {
  ModelBuilder b;
  b.input("x", {int64_t{1}, int64_t{4}, int64_t{10}, int64_t{10}});
  b.init("W", {8, 2, 3, 3});
  auto& c = b.node("Conv", {"x", "W"}, {"y"});
  attrInt(c, "group", 2);
  attrInts(c, "dilations", {2, 2});
  attrInts(c, "pads", {1, 0, 2, 1});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);
  const Op& op = g.ops()[0];
  EXPECT_EQ(op.conv.p, 9);
  EXPECT_EQ(op.conv.q, 7);
  EXPECT_EQ(op.conv.groups, 2);
  EXPECT_EQ(op.conv.dilation, 2);
  EXPECT_EQ(op.gemm.batch, 2);
  EXPECT_EQ(op.gemm.m, 63);
  EXPECT_EQ(op.gemm.n, 4);
  EXPECT_EQ(op.gemm.k, 18);
  EXPECT_EQ(op.macs, 9072);
  EXPECT_TRUE(op.channels_first);
  EXPECT_EQ(g.tensor(op.outputs[0]).shape, (std::vector<int64_t>{1, 8, 9, 7}));
}

TEST(OnnxGraphs, NonSquareStrideIsAClearError) {
  ModelBuilder b;
  b.input("x", {int64_t{1}, int64_t{1}, int64_t{8}, int64_t{8}});
  b.init("W", {1, 1, 3, 3});
  attrInts(b.node("Conv", {"x", "W"}, {"y"}), "strides", {1, 2});
  b.output("y");
  try {
    importModel(b);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("node 'y' (Conv)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("strides"), std::string::npos) << e.what();
  }
}

// ConvTranspose x [1, 2, 3, 3], W [2, 4, 3, 3]: each of the 9 input pixels times the
// [2, 4*3*3] weight: 9 * 36 * 2 = 648 MACs (= N*H*W * C * K*R*S).
TEST(OnnxGraphs, ConvTransposeAsItsGemm) {
  ModelBuilder b;
  b.input("x", {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{3}});
  b.init("W", {2, 4, 3, 3});
  b.node("ConvTranspose", {"x", "W"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Conv2d);
  EXPECT_EQ(g.ops()[0].macs, 648);
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).shape, (std::vector<int64_t>{1, 4, 5, 5}));
}

TEST(OnnxGraphs, LayoutOpsRunOnTheAccelerator) {
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{6}});
  b.initInts("sizes", {2}, {2, 4});
  attrInt(b.node("Split", {"x", "sizes"}, {"a", "c"}, "split"), "axis", 1);
  attrInts(b.node("Transpose", {"c"}, {"t"}), "perm", {1, 0});
  b.node("Transpose", {"a"}, {"ta"});
  attrInt(b.node("Concat", {"t", "ta"}, {"y"}), "axis", 0);
  b.output("y");
  const Graph g = importModel(b);
  const auto slices = opsOf(g, OpKind::Slice);
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[1]->layout.start, 2);
  EXPECT_EQ(slices[1]->layout.end, 6);
  EXPECT_EQ(slices[1]->layout.axis, 1);
  for (const Op& op : g.ops()) EXPECT_TRUE(op.layout.on_accelerator) << op.name;
  ASSERT_EQ(opsOf(g, OpKind::Concat).size(), 1u);
  EXPECT_EQ(g.tensor(opsOf(g, OpKind::Concat)[0]->outputs[0]).shape, (std::vector<int64_t>{6, 2}));
}

TEST(OnnxGraphs, GatherOnATableIsAnEmbedding) {
  ModelBuilder b;
  b.input("ids", {int64_t{1}, int64_t{5}}, 7);
  b.init("table", {100, 16});
  b.node("Gather", {"table", "ids"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Embedding);
  EXPECT_EQ(g.tensor(0).dtype, DType::Int32);
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).shape, (std::vector<int64_t>{1, 5, 16}));
}

TEST(OnnxGraphs, Opset18IsBestEffortWithAWarning) {
  ModelBuilder b(18);
  b.input("x", {int64_t{2}, int64_t{3}, int64_t{4}});
  b.initInts("axes", {1}, {-1});
  b.node("ReduceMean", {"x", "axes"}, {"y"});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Reduce);
  EXPECT_EQ(g.ops()[0].reduce.axes, (std::vector<int>{2}));
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).shape, (std::vector<int64_t>{2, 3, 1}));
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_NE(g.warnings[0].find("supported: IR ≤ 8, opset ≤ 17"), std::string::npos);
  WorkloadOptions strict;
  strict.strict = true;
  EXPECT_THROW(importModel(b, strict), ConfigError);
}

TEST(OnnxGraphs, GemmTransposedAWithMatrixC) {
  ModelBuilder b;
  b.input("a", {int64_t{6}, int64_t{3}});
  b.input("bm", {int64_t{6}, int64_t{4}});
  b.input("c", {int64_t{3}, int64_t{4}});
  attrInt(b.node("Gemm", {"a", "bm", "c"}, {"y"}), "transA", 1);
  b.output("y");
  const Graph g = importModel(b);
  // A' [3, 6] x B [6, 4]: 3 * 4 * 6 = 72 MACs; then + C.
  ASSERT_EQ(g.ops().size(), 3u);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Transpose);
  EXPECT_EQ(g.ops()[1].kind, OpKind::BatchMatMul);
  EXPECT_EQ(g.ops()[1].attn.heads, 0);
  EXPECT_EQ(g.ops()[1].macs, 72);
  EXPECT_EQ(g.ops()[2].kind, OpKind::Add);
}

// tessel infers Conv and pooling shapes itself (libonnx 1.12's inference of them crashes on
// malformed operands), and what follows them: Pad and Resize with constant operands.
// Conv 3x3 on 8x8 -> 6x6; Pad 1 on each side -> 8x8; Resize x2 -> 16x16; MaxPool 2/2 -> 8x8.
TEST(OnnxGraphs, ShapesAfterConvPadResizePool) {
  ModelBuilder b;
  b.input("x", {int64_t{1}, int64_t{2}, int64_t{8}, int64_t{8}});
  b.init("W", {4, 2, 3, 3});
  b.initInts("pads", {8}, {0, 0, 1, 1, 0, 0, 1, 1});
  b.init("scales", {4}, {1, 1, 2, 2});
  b.node("Conv", {"x", "W"}, {"c"});
  b.node("Pad", {"c", "pads"}, {"p"});
  b.node("Resize", {"p", "", "scales"}, {"r"});
  auto& pool = b.node("MaxPool", {"r"}, {"y"});
  attrInts(pool, "kernel_shape", {2, 2});
  attrInts(pool, "strides", {2, 2});
  b.output("y");
  const Graph g = importModel(b);
  ASSERT_EQ(g.ops().size(), 4u);
  EXPECT_EQ(g.ops()[0].macs, 36 * 4 * 18);  // 6x6 pixels, 4 filters, 2*3*3 taps
  EXPECT_EQ(g.tensor(g.ops()[2].outputs[0]).shape, (std::vector<int64_t>{1, 4, 16, 16}));
  EXPECT_EQ(g.tensor(g.ops()[3].outputs[0]).shape, (std::vector<int64_t>{1, 4, 8, 8}));
  EXPECT_EQ(g.ops()[2].elt.fn, "resize");
}

}  // namespace
}  // namespace tessel::models::onnx::test

namespace tessel::models::onnx::test {
namespace {

// The byte range of an embedded raw_data initializer is found in the serialized file, so a
// functional run reads just those bytes.
TEST(OnnxGraphs, RawDataRangesPointAtTheBytes) {
  ModelBuilder b;
  auto* t = b.g().add_initializer();
  t->set_name("R");
  t->set_data_type(::onnx::TensorProto::FLOAT);
  t->add_dims(2);
  const float v[2] = {1.5f, -3.0f};
  t->set_raw_data(std::string(reinterpret_cast<const char*>(v), sizeof v));
  b.init("T", {1}, {7});  // typed field: no range
  const std::string bytes = b.m.SerializeAsString();
  const auto ranges = rawDataRanges(bytes);
  ASSERT_EQ(ranges.size(), 1u);
  const auto [offset, length] = ranges.at("R");
  EXPECT_EQ(bytes.substr(static_cast<size_t>(offset), static_cast<size_t>(length)),
            std::string(reinterpret_cast<const char*>(v), sizeof v));
  EXPECT_TRUE(rawDataRanges("\xff\xff\xff garbage").empty());
}

}  // namespace
}  // namespace tessel::models::onnx::test
