// The CNN primitives of builder.h (conv, batch norm, pooling), all NHWC.
#include <utility>

#include "models/builder.h"

namespace tessel::models::detail {

int conv2d(Builder& b, const std::string& name, int x, ConvParams p) {
  const std::vector<int64_t> in = b.shape(x);  // [N, H, W, C]; a copy: weights grow tensors
  ConvShape c;
  c.n = in[0];
  c.h = in[1];
  c.w = in[2];
  c.c = in[3];
  c.k = p.k;
  c.r = p.r;
  c.s = p.s;
  c.stride = p.stride;
  c.pad = p.pad;
  c.groups = p.groups;
  c.dilation = p.dilation;
  c.p = convOut(c.h, c.r, c.stride, c.pad, c.dilation);
  c.q = convOut(c.w, c.s, c.stride, c.pad, c.dilation);
  Op op = makeOp(name, OpKind::Conv2d,
                 {x, b.weight(name + ".weight", {c.r, c.s, c.c / c.groups, c.k})});
  op.conv = c;
  // im2col per group: one output pixel per row, one of the group's filters per column, one of
  // its (c, r, s) taps per k.
  op.gemm = {c.groups, c.n * c.p * c.q, c.k / c.groups, c.c / c.groups * c.r * c.s};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {c.n, c.p, c.q, c.k});
}

int batchNorm(Builder& b, const std::string& name, int x) {
  const int64_t c = b.shape(x).back();
  Op op = makeOp(name, OpKind::BatchNorm,
                 {x, b.weight(name + ".scale", {c}), b.weight(name + ".shift", {c})});
  return b.emit(std::move(op), b.shape(x));
}

int pool(Builder& b, const std::string& name, OpKind kind, int x, PoolAttrs attrs) {
  std::vector<int64_t> shape = b.shape(x);  // [N, H, W, C]
  shape[1] = convOut(shape[1], attrs.window, attrs.stride, attrs.pad);
  shape[2] = convOut(shape[2], attrs.window, attrs.stride, attrs.pad);
  Op op = makeOp(name, kind, {x});
  op.pool = attrs;
  return b.emit(std::move(op), std::move(shape));
}

int globalAvgPool(Builder& b, const std::string& name, int x) {
  const std::vector<int64_t> in = b.shape(x);
  return b.emit(makeOp(name, OpKind::GlobalAvgPool, {x}), {in[0], in[3]});
}

}  // namespace tessel::models::detail
