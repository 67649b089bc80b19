// ResNet-50 v1.5 (torchvision): the bottleneck strides on its 3x3 conv; NHWC; BN folded to
// scale/shift; convs without bias.
#include <string>

#include "models/builder.h"
#include "models/builders.h"

namespace tessel::models::detail {
namespace {

constexpr int64_t kClasses = 1000;
constexpr int64_t kExpansion = 4;

int convBn(Builder& b, const std::string& conv, const std::string& bn, int x, ConvParams p) {
  return batchNorm(b, bn, conv2d(b, conv, x, p));
}

// 1x1 reduce, 3x3 (strided), 1x1 expand; projection shortcut when shape changes.
int bottleneck(Builder& b, const std::string& p, int x, int64_t width, int64_t stride,
               bool project) {
  int y = convBn(b, p + ".conv1", p + ".bn1", x, {width, 1, 1, 1, 0});
  y = unary(b, p + ".relu1", OpKind::Relu, y);
  y = convBn(b, p + ".conv2", p + ".bn2", y, {width, 3, 3, stride, 1});
  y = unary(b, p + ".relu2", OpKind::Relu, y);
  y = convBn(b, p + ".conv3", p + ".bn3", y, {width * kExpansion, 1, 1, 1, 0});
  int shortcut = x;
  if (project) {
    shortcut = convBn(b, p + ".downsample.conv", p + ".downsample.bn", x,
                      {width * kExpansion, 1, 1, stride, 0});
  }
  return unary(b, p + ".relu", OpKind::Relu, add(b, p + ".add", y, shortcut));
}

}  // namespace

Graph buildResnet50(const WorkloadOptions& o) {
  Graph g;
  g.name = "resnet50 image=" + std::to_string(o.image) + " batch=" + std::to_string(o.batch);
  Builder b{g, o.dtype};
  int x = b.input("image", {o.batch, o.image, o.image, 3}, o.dtype);
  x = convBn(b, "conv1", "bn1", x, {64, 7, 7, 2, 3});
  x = unary(b, "relu", OpKind::Relu, x);
  x = pool(b, "maxpool", OpKind::MaxPool, x, {3, 2, 1});
  const int blocks[] = {3, 4, 6, 3};
  for (int stage = 0; stage < 4; ++stage) {
    b.layer = stage + 1;  // matches the "layerN" names
    const std::string prefix = "layer" + std::to_string(stage + 1) + ".";
    for (int i = 0; i < blocks[stage]; ++i) {
      const int64_t stride = (stage > 0 && i == 0) ? 2 : 1;
      x = bottleneck(b, prefix + std::to_string(i), x, int64_t{64} << stage, stride, i == 0);
    }
  }
  b.layer = -1;
  x = globalAvgPool(b, "avgpool", x);
  linear(b, "fc", x, kClasses, true);
  return g;
}

}  // namespace tessel::models::detail
