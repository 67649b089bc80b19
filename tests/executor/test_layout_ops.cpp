// Layout copies (transpose, slice, concat, gather) and the numpy batched matmul of two
// activations (BatchMatMul with attn.heads == 0) against the double reference.
//
// Copies must be exact (tolerance 0). The batched matmul accumulates K = 24 products in FP32:
// error <= K u |a||b| worst case, ~sqrt(K) u = 3e-7 relative typically; 1e-5 as in
// test_new_ops.cpp, while a transposed or mis-broadcast operand is an O(1) error.
#include <gtest/gtest.h>

#include "kernels/validation/validate.h"
#include "ops_fixture.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using testing::Builder;
using testing::emitOp;

TEST(LayoutOps, CopiesAreExact) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {2, 3, 4, 5}, DType::FP32);
  emitOp(b, "t", OpKind::Transpose, {x}, {4, 2, 5, 3}, [](models::Op& op) {
    op.layout.perm = {2, 0, 3, 1};
  });
  emitOp(b, "s", OpKind::Slice, {x}, {2, 3, 2, 5}, [](models::Op& op) {
    op.layout.axis = 2;
    op.layout.start = 1;
    op.layout.end = 4;
    op.layout.step = 2;
  });
  emitOp(b, "s_back", OpKind::Slice, {x}, {2, 3, 4, 2}, [](models::Op& op) {
    op.layout.axis = 3;
    op.layout.start = 4;
    op.layout.end = 0;
    op.layout.step = -3;
  });
  const int y = b.input("y", {2, 2, 4, 5}, DType::FP32);
  emitOp(b, "c", OpKind::Concat, {x, y, x}, {2, 8, 4, 5},
         [](models::Op& op) { op.layout.axis = 1; });
  const int ids = b.input("ids", {2, 3}, DType::Int32);
  emitOp(b, "g0", OpKind::Gather, {x, ids}, {2, 3, 3, 4, 5},
         [](models::Op& op) { op.layout.axis = 0; });
  const int table = b.weight("table", {10, 6});
  const int rows = b.input("rows", {4}, DType::Int32);
  emitOp(b, "g1", OpKind::Gather, {table, rows}, {4, 6},
         [](models::Op& op) { op.layout.axis = 0; });
  auto fn = [](const char* name) { return [name](models::Op& op) { op.elt.fn = name; }; };
  emitOp(b, "reshape", OpKind::Elementwise, {x}, {6, 20}, fn("reshape"));
  const int col = b.input("col", {3, 1}, DType::FP32);
  emitOp(b, "expand", OpKind::Elementwise, {col}, {2, 3, 4}, fn("expand"));
  emitOp(b, "resize", OpKind::Elementwise, {x}, {2, 3, 8, 15}, fn("resize"));
  EXPECT_EQ(testing::expectMatchesDouble(g, 0.0), 0.0);
}

// Nearest resize by 2 repeats each input pixel in a 2 x 2 block.
TEST(LayoutOps, ResizeNearestRepeatsPixels) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {1, 1, 2, 2}, DType::FP32);
  emitOp(b, "up", OpKind::Elementwise, {x}, {1, 1, 4, 4},
         [](models::Op& op) { op.elt.fn = "resize"; });
  const Tensor in = *testing::opsStore().raw(g, x);
  const std::vector<float> got = testing::runValues(g, "up");
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(got[r * 4 + c], in.f32()[(r / 2) * 2 + c / 2]);
}

TEST(LayoutOps, BatchedMatmulBroadcastsBatchDims) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int a = b.input("a", {2, 3, 5, 24}, DType::FP32);
  const int bm = b.input("b", {3, 24, 7}, DType::FP32);
  const int bt = b.input("bt", {2, 1, 7, 24}, DType::FP32);
  emitOp(b, "mm", OpKind::BatchMatMul, {a, bm}, {2, 3, 5, 7}, [](models::Op& op) {
    op.attn.heads = 0;
    op.gemm = {6, 5, 7, 24};
  });
  emitOp(b, "mm_t", OpKind::BatchMatMul, {a, bt}, {2, 3, 5, 7}, [](models::Op& op) {
    op.attn.heads = 0;
    op.attn.transpose_b = true;
    op.gemm = {6, 5, 7, 24};
  });
  const int w = b.weight("w", {24, 4});  // an activation x weight matmul of rank 4 too
  emitOp(b, "mm_w", OpKind::BatchMatMul, {a, w}, {2, 3, 5, 4}, [](models::Op& op) {
    op.attn.heads = 0;
    op.gemm = {6, 5, 4, 24};
  });
  testing::expectMatchesDouble(g, 1e-5);
}

// An exported attention (recognizePatterns folds its scale and causal mask into a plain batched
// matmul, graph.h): [B, H, S, T] scores from [B, H, S, d] x [B, H, T, d]^T, softmax, context.
models::Graph exportedAttention() {
  models::Graph g;
  g.name = "exported-attention";
  Builder b{g, DType::FP32};
  const int q = b.input("q", {1, 2, 3, 8}, DType::FP32);
  const int k = b.input("k", {1, 2, 5, 8}, DType::FP32);
  const int v = b.input("v", {1, 2, 5, 8}, DType::FP32);
  const int s = emitOp(b, "score", OpKind::BatchMatMul, {q, k}, {1, 2, 3, 5}, [](models::Op& op) {
    op.attn.heads = 0;
    op.attn.transpose_b = true;
    op.attn.causal = true;
    op.attn.scale = 0.35f;
    op.gemm = {2, 3, 5, 8};
  });
  const int p = emitOp(b, "probs", OpKind::Softmax, {s}, {1, 2, 3, 5});
  emitOp(b, "context", OpKind::BatchMatMul, {p, v}, {1, 2, 3, 8}, [](models::Op& op) {
    op.attn.heads = 0;
    op.gemm = {2, 3, 8, 5};
  });
  return g;
}

TEST(LayoutOps, ExportedCausalAttentionMatchesDouble) {
  testing::expectMatchesDouble(exportedAttention(), 1e-5);
}

// INT8: the mask must survive the scores' quantization (-inf clips to qmin): softmax re-masks
// them, so the error stays at the INT8 level (a lost mask would leak probability to future keys,
// an O(1) error) and the masked entries are not reported as clipping.
TEST(LayoutOps, ExportedCausalAttentionInt8KeepsTheMask) {
  const models::Graph g = exportedAttention();
  const ReferenceRun ref = runReference(g, testing::opsStore());
  const ValidationReport r =
      validate(ref, lowerGraph(g, uniformPlan(DType::Int8)), testing::opsStore(), {});
  EXPECT_LE(r.output.error.rel_l2, 0.05);
  ::testing::Test::RecordProperty("output_rel_l2", std::to_string(r.output.error.rel_l2));
  for (const OpReport& o : r.ops) {
    if (o.name == "score") {
      EXPECT_EQ(o.saturation.low, 0);
    }
  }
}

}  // namespace
}  // namespace tessel::kernels
