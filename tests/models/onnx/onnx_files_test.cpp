// Real single-op models from ONNX's own test data (Debian package libonnx-testdata; skipped
// when it is not installed). In these files the weights are graph inputs, not initializers, so
// a MatMul of two inputs is a BatchMatMul (heads = 0). MACs are derived from each model's shapes.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/onnx/import.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "util/error.h"

namespace tessel::models::onnx::test {
namespace {

const char kNodeDir[] = "/usr/share/libonnx-testdata/data/node/";

// The one op of the test model `name` (skips the test without the package).
#define IMPORT_ONE(name, graph)                                                          \
  const std::string path_ = std::string(kNodeDir) + name + "/model.onnx";                \
  if (!std::filesystem::exists(path_)) GTEST_SKIP() << "libonnx-testdata not installed"; \
  const Graph graph = importFile(path_, {});                                             \
  ASSERT_FALSE(graph.ops().empty())

using Shape = std::vector<int64_t>;

Shape outShape(const Graph& g, size_t op = 0) { return g.tensor(g.ops().at(op).outputs[0]).shape; }

// x [1,1,7,5], W [1,1,3,3], strides 2, pads 1 on every side: P = (7+2-3)/2+1 = 4,
// Q = (5+2-3)/2+1 = 3; 12 pixels x 9 taps = 108 MACs.
TEST(OnnxFiles, ConvWithStridesPadding) {
  IMPORT_ONE("test_conv_with_strides_padding", g);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Conv2d);
  EXPECT_EQ(g.ops()[0].macs, 108);
  EXPECT_EQ(outShape(g), (Shape{1, 1, 4, 3}));
}

// x [1,1,7,5], pads top 1, bottom 1, left 0, right 0, strides 2: P = (7+2-3)/2+1 = 4,
// Q = (5-3)/2+1 = 2; 8 x 9 = 72 MACs.
TEST(OnnxFiles, ConvAsymmetricPadding) {
  IMPORT_ONE("test_conv_with_strides_and_asymmetric_padding", g);
  EXPECT_EQ(g.ops()[0].conv.p, 4);
  EXPECT_EQ(g.ops()[0].conv.q, 2);
  EXPECT_EQ(g.ops()[0].macs, 72);
}

// auto_pad SAME_UPPER, stride 2 on 5x5: 3x3 output, 9 x 9 = 81 MACs.
TEST(OnnxFiles, ConvAutoPadSame) {
  IMPORT_ONE("test_conv_with_autopad_same", g);
  EXPECT_EQ(outShape(g), (Shape{1, 1, 3, 3}));
  EXPECT_EQ(g.ops()[0].macs, 81);
}

// ConvTranspose x [1,1,3,3], W [1,2,3,3]: 9 input pixels x (2*3*3) outputs x 1 channel = 162.
TEST(OnnxFiles, ConvTranspose) {
  IMPORT_ONE("test_convtranspose", g);
  EXPECT_EQ(g.ops()[0].macs, 162);
  EXPECT_EQ(outShape(g), (Shape{1, 2, 5, 5}));
}

// Gemm a [3,4] (transA of [4,3]... stored [4,3]) x b [5,4]^T: 3 x 5 x 4 = 60 MACs, then + c.
TEST(OnnxFiles, GemmAllAttributes) {
  IMPORT_ONE("test_gemm_all_attributes", g);
  const auto mm = opsOf(g, OpKind::BatchMatMul);
  ASSERT_EQ(mm.size(), 1u);
  EXPECT_EQ(mm[0]->macs, 60);
  EXPECT_TRUE(mm[0]->attn.transpose_b);
  EXPECT_EQ(opsOf(g, OpKind::Transpose).size(), 1u);
  EXPECT_EQ(opsOf(g, OpKind::Add).size(), 1u);
}

// a [2,10] x b [10,3]: 60 MACs.
TEST(OnnxFiles, GemmNoBias) {
  IMPORT_ONE("test_gemm_default_no_bias", g);
  ASSERT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(g.ops()[0].macs, 60);
}

// a [1,2,3,4] x b [1,2,4,3]: batch 1*2, 3 x 3 x 4 each: 72 MACs.
TEST(OnnxFiles, MatMul4d) {
  IMPORT_ONE("test_matmul_4d", g);
  const Op& op = g.ops()[0];
  EXPECT_EQ(op.kind, OpKind::BatchMatMul);
  EXPECT_EQ(op.attn.heads, 0);
  EXPECT_EQ(op.gemm.batch, 2);
  EXPECT_EQ(op.macs, 72);
}

// x uint8 [1,1,7,7], w [1,1,1,1]: 49 MACs, int8 in and out.
TEST(OnnxFiles, QLinearConv) {
  IMPORT_ONE("test_qlinearconv", g);
  const Op& op = g.ops()[0];
  EXPECT_EQ(op.kind, OpKind::Conv2d);
  EXPECT_EQ(op.macs, 49);
  EXPECT_EQ(g.tensor(op.inputs[0]).dtype, DType::Int8);
  EXPECT_EQ(g.tensor(op.inputs[1]).dtype, DType::Int8);
  EXPECT_EQ(g.tensor(op.outputs[0]).dtype, DType::Int8);
}

// a [2,2,4] x b [2,4,3]: batch 2, 2 x 3 x 4 each: 48 MACs.
TEST(OnnxFiles, QLinearMatMul3d) {
  IMPORT_ONE("test_qlinearmatmul_3D", g);
  EXPECT_EQ(g.ops()[0].gemm.batch, 2);
  EXPECT_EQ(g.ops()[0].macs, 48);
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).dtype, DType::Int8);
}

// A [4,3] x B [3,2] -> int32: 24 MACs.
TEST(OnnxFiles, MatMulInteger) {
  IMPORT_ONE("test_matmulinteger", g);
  EXPECT_EQ(g.ops()[0].macs, 24);
  EXPECT_EQ(g.tensor(g.ops()[0].inputs[0]).dtype, DType::Int8);
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).dtype, DType::Int32);
}

// x [1,1,3,3], w [1,1,2,2]: 2x2 output x 4 taps = 16 MACs, int32 out.
TEST(OnnxFiles, ConvInteger) {
  IMPORT_ONE("test_basic_convinteger", g);
  EXPECT_EQ(g.ops()[0].macs, 16);
  EXPECT_EQ(g.tensor(g.ops()[0].outputs[0]).dtype, DType::Int32);
}

TEST(OnnxFiles, LayerNormalizationLastAxis) {
  IMPORT_ONE("test_layer_normalization_4d_axis_negative_1", g);
  EXPECT_EQ(g.ops()[0].kind, OpKind::LayerNorm);
  EXPECT_EQ(g.ops()[0].inputs.size(), 3u);
}

TEST(OnnxFiles, SoftmaxAndPooling) {
  {
    IMPORT_ONE("test_softmax_default_axis", g);
    EXPECT_EQ(g.ops()[0].kind, OpKind::Softmax);
  }
  {
    IMPORT_ONE("test_maxpool_2d_pads", g);
    EXPECT_EQ(g.ops()[0].kind, OpKind::MaxPool);
    EXPECT_TRUE(g.ops()[0].channels_first);
    EXPECT_EQ(outShape(g), (Shape{1, 3, 30, 30}));
  }
  {
    IMPORT_ONE("test_globalaveragepool", g);
    EXPECT_EQ(g.ops()[0].kind, OpKind::GlobalAvgPool);
  }
}

TEST(OnnxFiles, ReduceTransposeConcatGatherSplit) {
  {
    IMPORT_ONE("test_reduce_mean_default_axes_keepdims_example", g);
    EXPECT_EQ(g.ops()[0].kind, OpKind::Reduce);
    EXPECT_EQ(g.ops()[0].reduce.axes, (std::vector<int>{0, 1, 2}));
  }
  {
    IMPORT_ONE("test_transpose_all_permutations_1", g);
    EXPECT_EQ(g.ops()[0].layout.perm, (std::vector<int>{0, 2, 1}));
    EXPECT_TRUE(g.ops()[0].layout.on_accelerator);
  }
  {
    IMPORT_ONE("test_concat_2d_axis_0", g);
    EXPECT_EQ(g.ops()[0].kind, OpKind::Concat);
    EXPECT_EQ(outShape(g), (Shape{4, 2}));
  }
  {
    IMPORT_ONE("test_gather_0", g);
    EXPECT_EQ(g.ops()[0].kind, OpKind::Gather);
    EXPECT_EQ(outShape(g), (Shape{3, 4, 3, 2}));
  }
  {
    IMPORT_ONE("test_split_equal_parts_1d", g);
    EXPECT_EQ(opsOf(g, OpKind::Slice).size(), 3u);
  }
}

// Slice bounds given as graph inputs are known only at run time: costed generically, warned.
TEST(OnnxFiles, RuntimeSliceIsGeneric) {
  IMPORT_ONE("test_slice", g);
  EXPECT_EQ(g.ops()[0].kind, OpKind::Elementwise);
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_NE(g.warnings[0].find("Slice"), std::string::npos);
  WorkloadOptions strict;
  strict.strict = true;
  try {
    importFile(path_, strict);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bounds known only at run time"), std::string::npos)
        << e.what();
  }
}

// Every single-op model of the package imports or fails with a ConfigError: never a crash.
TEST(OnnxFiles, EveryNodeModelImportsOrFailsCleanly) {
  if (!std::filesystem::exists(kNodeDir)) GTEST_SKIP() << "libonnx-testdata not installed";
  int imported = 0;
  for (const auto& e : std::filesystem::directory_iterator(kNodeDir)) {
    const std::string path = e.path().string() + "/model.onnx";
    if (!std::filesystem::exists(path)) continue;
    try {
      importFile(path, {});
      ++imported;
    } catch (const ConfigError&) {
    }
  }
  EXPECT_GT(imported, 800);
}

}  // namespace
}  // namespace tessel::models::onnx::test
