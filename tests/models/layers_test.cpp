// Single-layer workloads: gemm:/conv: parsing, shapes, MACs and every parameter error.
#include <gtest/gtest.h>

#include "error_checks.h"
#include "graph_checks.h"
#include "models/chains.h"

namespace tessel::models {
namespace {

const WorkloadOptions kDefaults;

TEST(ModelsLayers, Gemm) {
  Graph g = build("gemm:M=512,K=768,N=2304", kDefaults);
  expectWellFormed(g);
  ASSERT_EQ(g.ops().size(), 1u);
  const Op& op = g.op(0);
  EXPECT_EQ(op.kind, OpKind::MatMul);
  EXPECT_EQ(op.gemm.batch, 1);
  EXPECT_EQ(op.gemm.m, 512);
  EXPECT_EQ(op.gemm.n, 2304);
  EXPECT_EQ(op.gemm.k, 768);
  EXPECT_EQ(op.macs, 905969664);                                               // 512 * 768 * 2304
  EXPECT_EQ(g.tensor(op.inputs[1]).shape, (std::vector<int64_t>{768, 2304}));  // [K, N]
  EXPECT_EQ(g.parameterCount(), 768 * 2304);
  EXPECT_EQ(g.name, "gemm:M=512,K=768,N=2304,B=1");
}

TEST(ModelsLayers, GemmBatchKeysAndSpaces) {
  // Keys are case-insensitive, spaces around items are ignored, B folds into the GEMM rows
  // (one shared weight): gemm = 1 x (4*64) x 16 x 32.
  Graph g = build("GEMM: m=64 , k=32,n=16, b=4", kDefaults);
  const Op& op = g.op(0);
  EXPECT_EQ(op.gemm.batch, 1);
  EXPECT_EQ(op.gemm.m, 4 * 64);
  EXPECT_EQ(op.macs, 4 * 64 * 32 * 16);
  EXPECT_EQ(g.tensor(op.outputs[0]).shape, (std::vector<int64_t>{4, 64, 16}));
  EXPECT_EQ(g.tensor(op.inputs[1]).shape, (std::vector<int64_t>{32, 16}));  // shared weight
  // Without B=, --batch applies.
  WorkloadOptions o;
  o.batch = 3;
  EXPECT_EQ(build("gemm:M=64,K=32,N=16", o).op(0).gemm.m, 3 * 64);
}

TEST(ModelsLayers, Conv) {
  Graph g = build("conv:H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=1", kDefaults);
  expectWellFormed(g);
  const Op& op = g.op(0);
  EXPECT_EQ(op.kind, OpKind::Conv2d);
  EXPECT_EQ(op.conv.p, 56);  // (56 + 2 - 3)/1 + 1
  EXPECT_EQ(op.conv.q, 56);
  EXPECT_EQ(op.gemm.m, 56 * 56);
  EXPECT_EQ(op.gemm.n, 64);
  EXPECT_EQ(op.gemm.k, 64 * 9);
  EXPECT_EQ(op.macs, 115605504);  // 56*56*64*64*9
  EXPECT_EQ(g.tensor(op.outputs[0]).shape, (std::vector<int64_t>{1, 56, 56, 64}));
  EXPECT_EQ(g.name, "conv:N=1,H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=1");
}

TEST(ModelsLayers, ConvOutputSizes) {
  // (56 + 2*1 - 3)/2 + 1 = 28.
  EXPECT_EQ(build("conv:H=56,W=56,C=8,K=8,R=3,S=3,stride=2,pad=1", kDefaults).op(0).conv.p, 28);
  // Defaults stride 1, pad 0: 56 - 3 + 1 = 54.
  EXPECT_EQ(build("conv:H=56,W=56,C=8,K=8,R=3,S=3", kDefaults).op(0).conv.p, 54);
  // Non-square: P = (7 - 3)/2 + 1 = 3, Q = (9 - 1)/2 + 1 = 5; floor division drops the rest.
  Graph g = build("conv:H=7,W=9,C=4,K=2,R=3,S=1,stride=2,N=2", kDefaults);
  const Op& op = g.op(0);
  EXPECT_EQ(op.conv.p, 3);
  EXPECT_EQ(op.conv.q, 5);
  EXPECT_EQ(op.gemm.m, 2 * 3 * 5);
  EXPECT_EQ(op.gemm.k, 4 * 3 * 1);
  EXPECT_EQ(g.tensor(op.inputs[1]).shape, (std::vector<int64_t>{3, 1, 4, 2}));
  EXPECT_EQ(g.tensor(op.outputs[0]).shape, (std::vector<int64_t>{2, 3, 5, 2}));
}

TEST(ModelsLayers, GroupedDepthwiseAndDilatedConv) {
  // Depthwise 3x3 on 56x56x64: each of the 64 groups has one input and one output channel.
  // MACs 56*56*64*9 = 1,806,336; weights 3*3*1*64; the im2col view is one GEMM per group.
  Graph g = build("conv:H=56,W=56,C=64,K=64,R=3,S=3,pad=1,groups=64", kDefaults);
  expectWellFormed(g);
  const Op& dw = g.op(0);
  EXPECT_EQ(dw.macs, 1806336);
  EXPECT_EQ(g.tensor(dw.inputs[1]).shape, (std::vector<int64_t>{3, 3, 1, 64}));
  EXPECT_EQ(dw.gemm.batch, 64);
  EXPECT_EQ(dw.gemm.n, 1);
  EXPECT_EQ(dw.gemm.k, 9);
  EXPECT_EQ(g.name, "conv:N=1,H=56,W=56,C=64,K=64,R=3,S=3,stride=1,pad=1,groups=64");
  // Groups of 4: 32 -> 48 channels, each output sees 32/4 = 8 inputs: 14*14*48*8*9 MACs.
  const Graph grouped = build("conv:H=14,W=14,C=32,K=48,R=3,S=3,pad=1,groups=4", kDefaults);
  EXPECT_EQ(grouped.op(0).macs, 14 * 14 * 48 * 8 * 9);
  // Dilation 2 spreads a 3x3 kernel over 5x5: P = (56 + 2*2 - 5)/1 + 1 = 56 with pad 2, and
  // (56 - 5) + 1 = 52 without.
  EXPECT_EQ(build("conv:H=56,W=56,C=8,K=8,R=3,S=3,pad=2,dilation=2", kDefaults).op(0).conv.p, 56);
  EXPECT_EQ(build("conv:H=56,W=56,C=8,K=8,R=3,S=3,dilation=2", kDefaults).op(0).conv.p, 52);
  const std::string w = "workload";
  expectConfigError("conv:H=56,W=56,C=64,K=60,R=3,S=3,groups=8", kDefaults, w,
                    "groups=8 must divide both C=64 and K=60");
  expectConfigError("conv:H=4,W=4,C=1,K=1,R=3,S=3,dilation=2", kDefaults, w,
                    "kernel at dilation 2 does not fit the 4x4 input");
  expectConfigError("conv:H=4,W=4,C=1,K=1,R=3,S=3,dilation=0", kDefaults, w,
                    "dilation must be at least 1");
}

// ffn:S=4,D=8,F=32: gated (the default) is up and gate 4 x 8 x 32 each, SiLU and the product on
// 4 x 32, down 4 x 32 x 8 -> 3 x 1024 MACs; gated=0 is fc and proj with their biases, GELU between.
TEST(ModelsLayers, Ffn) {
  const Graph gated = build("ffn:S=4,D=8,F=32", kDefaults);
  expectWellFormed(gated);
  EXPECT_EQ(gated.name, "ffn:S=4,D=8,F=32,gated=1,B=1");
  EXPECT_EQ(gated.totalMacs(), 3 * 4 * 8 * 32);
  EXPECT_EQ(gated.parameterCount(), 3 * 8 * 32);
  std::vector<ChainGroup> chains = findChains(gated);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0].kind, ChainKind::Ffn);
  EXPECT_EQ(chains[0].up.size(), 2u);
  const Graph plain = build("ffn:S=4,D=8,F=32,gated=0,B=2", kDefaults);
  expectWellFormed(plain);
  EXPECT_EQ(plain.totalMacs(), 2 * 2 * 4 * 8 * 32);            // B folds into the rows
  EXPECT_EQ(plain.parameterCount(), 2 * 8 * 32 + 32 + 8);      // and the two biases
  chains = findChains(plain);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0].up.size(), 1u);
  const std::string w = "workload";
  expectConfigError("ffn:S=4,D=8", kDefaults, w, "missing F");
  expectConfigError("ffn:S=4,D=8,F=32,gated=2", kDefaults, w, "gated is 0 or 1");
  expectConfigError("ffn:S=4,D=0,F=32", kDefaults, w, "D must be at least 1");
  expectConfigError("ffn:S=4000000000,D=4000000000,F=4000000000", kDefaults, w, "too large");
  expectConfigError("ffn", kDefaults, w, "did you mean 'ffn:S=8192,D=4096,F=14336,gated=1'?");
}

TEST(ModelsLayers, ParameterErrors) {
  const std::string w = "workload";
  expectConfigError("gemm:M=512,K=768", kDefaults, w, "missing N");
  expectConfigError("gemm:", kDefaults, w, "missing M");
  expectConfigError("gemm:M=512,K=0,N=1", kDefaults, w, "'K=0': K must be at least 1");
  expectConfigError("gemm:M=-3,K=1,N=1", kDefaults, w, "M must be at least 1");
  expectConfigError("gemm:M=abc,K=1,N=1", kDefaults, w, "'M=abc': M must be an integer");
  expectConfigError("gemm:M=1.5,K=1,N=1", kDefaults, w, "M must be an integer");
  expectConfigError("gemm:M=,K=1,N=1", kDefaults, w, "M must be an integer");
  expectConfigError("gemm:M=1,K=1,N=1,Q=2", kDefaults, w, "unknown parameter 'Q'");
  expectConfigError("gemm:M=1,K=1,N=1,M=2", kDefaults, w, "M is given twice");
  expectConfigError("gemm:M=1,,K=1,N=1", kDefaults, w, "empty parameter");
  expectConfigError("gemm:M=1,K=1,N=1,", kDefaults, w, "empty parameter");
  expectConfigError("gemm:M512,K=1,N=1", kDefaults, w, "'M512' is not KEY=VALUE");
  expectConfigError("gemm:M=1,K=1,N=1,B=0", kDefaults, w, "B must be at least 1");
  expectConfigError("gemm:M=4000000000,K=4000000000,N=4000000000", kDefaults, w, "too large");
  const std::string c = "conv:H=56,W=56,C=64,K=64,R=3,";
  std::string msg = expectConfigError(c + "S=3,strid=2", kDefaults, w, "did you mean 'stride'?");
  EXPECT_NE(msg.find(c + "S=3,strid=2"), std::string::npos);  // quotes the whole name
  EXPECT_NE(msg.find("conv:H=..,W=..,C=..,K=..,R=..,S=.."), std::string::npos);  // usage
  expectConfigError(c + "S=3,pad=-1", kDefaults, w, "pad must be at least 0");
  expectConfigError(c + "S=3,stride=0", kDefaults, w, "stride must be at least 1");
  expectConfigError(c + "S=3,N=0", kDefaults, w, "N must be at least 1");
  expectConfigError("conv:H=56,W=56,C=64,K=64,R=3", kDefaults, w, "missing S");
  expectConfigError("conv:H=2,W=56,C=1,K=1,R=5,S=1,pad=1", kDefaults, w, "does not fit");
  // pad 0 is allowed, and a kernel that exactly fits gives a 1x1 output.
  EXPECT_EQ(build("conv:H=5,W=5,C=1,K=1,R=5,S=5,pad=0", kDefaults).op(0).conv.p, 1);
}

}  // namespace
}  // namespace tessel::models
