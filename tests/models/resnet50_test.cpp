// ResNet-50 v1.5: parameters, MACs, stage shapes.
#include <gtest/gtest.h>

#include "graph_checks.h"
#include "models/workload.h"

namespace tessel::models {
namespace {

WorkloadOptions image(int64_t size, int64_t batch = 1) {
  WorkloadOptions o;
  o.image = size;
  o.batch = batch;
  return o;
}

// torchvision resnet50's parameter count (conv weights, BN gamma/beta, fc weight and bias).
TEST(ModelsResnet50, Parameters) {
  EXPECT_EQ(build("resnet50", image(224)).parameterCount(), 25557032);
  EXPECT_EQ(build("resnet50", image(96)).parameterCount(), 25557032);  // size-independent
}

// Conv MACs N*P*Q*K*C*R*S summed per stage at 224 (stride on the 3x3 conv, v1.5):
//   conv1 112*112*64*3*49                                =   118,013,952
//   layer1 (56x56, 3 blocks, projection 64->256)          =   667,942,912
//   layer2 (28x28, 4 blocks; block 0 reads 56x56 input)   = 1,027,604,480
//   layer3 (14x14, 6 blocks)                              = 1,464,336,384
//   layer4 (7x7, 3 blocks)                                =   809,238,528
//   fc 2048*1000                                          =     2,048,000
//   total                                                 = 4,089,184,256 (torchvision: 4.09 G)
TEST(ModelsResnet50, Macs) {
  Graph g = build("resnet50", image(224));
  EXPECT_EQ(g.totalMacs(), 4089184256);
  int64_t stage[5] = {0, 0, 0, 0, 0};
  for (const Op& op : g.ops()) {
    if (op.kind == OpKind::Conv2d && op.layer >= 1) stage[op.layer] += op.macs;
  }
  EXPECT_EQ(opNamed(g, "conv1").macs, 118013952);
  EXPECT_EQ(stage[1], 667942912);
  EXPECT_EQ(stage[2], 1027604480);
  EXPECT_EQ(stage[3], 1464336384);
  EXPECT_EQ(stage[4], 809238528);
  EXPECT_EQ(build("resnet50", image(224, 8)).totalMacs(), 8 * 4089184256);
}

// conv1+bn+relu+maxpool, 16 bottlenecks of 10 ops (+2 for the 4 projections), avgpool, fc.
TEST(ModelsResnet50, StructureAndShapes) {
  Graph g = build("resnet50", image(224, 2));
  expectWellFormed(g);
  EXPECT_EQ(g.name, "resnet50 image=224 batch=2");
  EXPECT_EQ(g.ops().size(), 4u + 16u * 10u + 4u * 2u + 2u);
  EXPECT_EQ(countKind(g, OpKind::Conv2d), 53);
  EXPECT_EQ(countKind(g, OpKind::BatchNorm), 53);
  auto out = [&](const char* name) { return g.tensor(opNamed(g, name).outputs[0]).shape; };
  using S = std::vector<int64_t>;
  EXPECT_EQ(out("conv1"), (S{2, 112, 112, 64}));  // (224 + 6 - 7)/2 + 1
  EXPECT_EQ(out("maxpool"), (S{2, 56, 56, 64}));  // (112 + 2 - 3)/2 + 1
  EXPECT_EQ(out("layer1.0.conv3"), (S{2, 56, 56, 256}));
  EXPECT_EQ(out("layer2.0.conv1"), (S{2, 56, 56, 128}));  // v1.5: 1x1 keeps stride 1
  EXPECT_EQ(out("layer2.0.conv2"), (S{2, 28, 28, 128}));  // the 3x3 strides
  EXPECT_EQ(out("layer2.0.downsample.conv"), (S{2, 28, 28, 512}));
  EXPECT_EQ(out("layer4.2.relu"), (S{2, 7, 7, 2048}));
  EXPECT_EQ(out("avgpool"), (S{2, 2048}));
  EXPECT_EQ(out("fc"), (S{2, 1000}));
  const Op& c = opNamed(g, "layer3.0.conv2");
  EXPECT_EQ(c.conv.stride, 2);
  EXPECT_EQ(c.conv.pad, 1);
  EXPECT_EQ(c.gemm.m, 2 * 14 * 14);  // im2col: N*P*Q
  EXPECT_EQ(c.gemm.n, 256);
  EXPECT_EQ(c.gemm.k, 256 * 9);                                 // C*R*S
  EXPECT_EQ(g.tensor(c.inputs[1]).shape, (S{3, 3, 256, 256}));  // [R, S, C, K]
  EXPECT_EQ(c.inputs.size(), 2u);                               // no bias
  const Op& mp = opNamed(g, "maxpool");
  EXPECT_EQ(mp.pool.window, 3);
  EXPECT_EQ(mp.pool.stride, 2);
  EXPECT_EQ(mp.pool.pad, 1);
  EXPECT_EQ(opNamed(g, "fc").gemm.m, 2);
}

// The smallest allowed image still leaves a 1x1 map before the global pool.
TEST(ModelsResnet50, SmallImage) {
  Graph g = build("resnet50", image(32));
  expectWellFormed(g);
  EXPECT_EQ(g.tensor(opNamed(g, "layer4.2.relu").outputs[0]).shape,
            (std::vector<int64_t>{1, 1, 1, 2048}));
}

}  // namespace
}  // namespace tessel::models
