// Imported-graph layouts: NCHW convolutions with [K, C/groups, R, S] weights (plain, grouped,
// dilated, depthwise), NHWC grouped convs, NCHW pools, and an ONNX-style head (Reduce, Mul by a
// broadcast weight, HardSwish), FP32 against the double reference; their INT8 plan runs.
//
// Tolerance 1e-5: a conv output sums C/groups * R * S <= 36 FP32 products (sqrt(36) u = 4e-7
// relative typically), pools are exact or one division; a mis-indexed layout or group moves
// outputs by O(1).
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/validation/validate.h"
#include "ops_fixture.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using testing::Builder;
using testing::emitOp;

struct ConvSpec {
  int64_t k, r, stride, pad, groups, dilation;
};

// x NCHW (channels_first) or NHWC.
int conv(Builder& b, const std::string& name, int x, ConvSpec c, bool cf) {
  const auto& s = b.shape(x);
  const int64_t n = s[0], h = cf ? s[2] : s[1], w = cf ? s[3] : s[2], ch = cf ? s[1] : s[3];
  const int64_t span = (c.r - 1) * c.dilation + 1;
  const int64_t p = (h + 2 * c.pad - span) / c.stride + 1,
                q = (w + 2 * c.pad - span) / c.stride + 1;
  const int wt = cf ? b.weight(name + ".weight", {c.k, ch / c.groups, c.r, c.r})
                    : b.weight(name + ".weight", {c.r, c.r, ch / c.groups, c.k});
  std::vector<int> in{x, wt};
  if (cf) in.push_back(b.weight(name + ".bias", {c.k}));
  return emitOp(b, name, OpKind::Conv2d, in,
                cf ? std::vector<int64_t>{n, c.k, p, q} : std::vector<int64_t>{n, p, q, c.k},
                [&](models::Op& op) {
                  op.channels_first = cf;
                  op.conv = {n,        h,     w, ch, c.k,      c.r,       c.r,
                             c.stride, c.pad, p, q,  c.groups, c.dilation};
                  op.gemm = {c.groups, n * p * q, c.k / c.groups, ch / c.groups * c.r * c.r};
                });
}

models::Graph convNet() {
  models::Graph g;
  g.name = "onnx-style-convnet";
  Builder b{g, DType::FP32};
  const int x = b.input("image", {2, 4, 11, 11}, DType::FP32);
  int y = conv(b, "conv1", x, {8, 3, 1, 1, 1, 1}, true);
  y = models::detail::unary(b, "relu1", OpKind::Relu, y);
  y = conv(b, "conv2", y, {8, 3, 2, 2, 2, 2}, true);  // grouped, dilated, strided
  y = conv(b, "dw", y, {8, 3, 1, 1, 8, 1}, true);     // depthwise
  y = models::detail::unary(b, "hswish", OpKind::HardSwish, y);
  y = emitOp(b, "maxpool", OpKind::MaxPool, {y}, {2, 8, 3, 3}, [](models::Op& op) {
    op.channels_first = true;
    op.pool = {3, 2, 1};
  });
  y = emitOp(b, "avgpool", OpKind::AvgPool, {y}, {2, 8, 1, 1}, [](models::Op& op) {
    op.channels_first = true;
    op.pool = {2, 2, 0};
  });
  const int scale = b.weight("scale", {8, 1, 1});
  y = emitOp(b, "scaled", OpKind::Mul, {y, scale}, {2, 8, 1, 1});
  y = emitOp(b, "gap", OpKind::GlobalAvgPool, {y}, {2, 8, 1, 1},
             [](models::Op& op) { op.channels_first = true; });
  emitOp(b, "reduce", OpKind::Reduce, {y}, {2, 8}, [](models::Op& op) {
    op.reduce = {"mean", {2, 3}, false};
  });
  return g;
}

TEST(OnnxStyle, ChannelsFirstConvNetMatchesDouble) {
  testing::expectMatchesDouble(convNet(), 1e-5);
  testing::expectMatchesDouble(convNet(), 1e-5, true);
}

TEST(OnnxStyle, GroupedDilatedNhwcConvMatchesDouble) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {1, 9, 9, 6}, DType::FP32);
  const int y = conv(b, "gconv", x, {4, 3, 1, 2, 2, 2}, false);
  models::detail::unary(b, "sig", OpKind::Sigmoid, y);
  testing::expectMatchesDouble(g, 1e-5);
}

// The INT8 plan of the conv net runs and every compared tensor is finite; the output's error
// stays at the few-percent level of a handful of INT8 roundings (see test_llama_block.cpp).
TEST(OnnxStyle, Int8PlanRuns) {
  const models::Graph g = convNet();
  const ReferenceRun ref = runReference(g, testing::opsStore());
  const ValidationReport r =
      validate(ref, lowerGraph(g, uniformPlan(DType::Int8)), testing::opsStore(), {});
  for (const OpReport& o : r.ops) {
    if (o.compared) {
      EXPECT_EQ(o.error.nonfinite, 0) << o.name;
    }
  }
  EXPECT_TRUE(std::isfinite(r.output.error.rel_l2));
  EXPECT_LE(r.output.error.rel_l2, 0.1);
}

}  // namespace
}  // namespace tessel::kernels
