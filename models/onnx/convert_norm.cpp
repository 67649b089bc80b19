// Normalizations, Softmax, reductions and pooling.
#include <algorithm>

#include "models/onnx/context.h"

namespace tessel::models::onnx {
namespace {

using Ints = std::vector<int64_t>;

// Softmax over the last axis (opset >= 13 default; older opsets flatten from `axis`, which is
// the same when axis is the last or the input is 2-D).
bool softmax(Context& ctx, const Node& n) {
  const size_t rank = ctx.in(n, 0).shape.size();
  const int ax = ctx.axis(n, ctx.attrInt(n, "axis", ctx.opset() >= 13 ? -1 : 1), rank);
  const bool last = ax + 1 == static_cast<int>(std::max<size_t>(rank, 1));
  if (!last) {
    ctx.why_generic = "softmax over an axis other than the last";
    return false;
  }
  ctx.emit(n, ctx.makeOp(n, OpKind::Softmax, {ctx.tensorOf(n, 0, true)}));
  return true;
}

// A Weight tensor made by the importer, e.g. a folded BatchNorm scale.
int derivedWeight(Context& ctx, const std::string& name, Ints shape, DerivedWeight d) {
  const int t = ctx.g.addTensor(name, std::move(shape), ctx.floatType(), TensorRole::Weight);
  ctx.derived[name] = std::move(d);
  return t;
}

bool layerNorm(Context& ctx, const Node& n) {
  const Ints& x = ctx.in(n, 0).shape;
  const int ax = ctx.axis(n, ctx.attrInt(n, "axis", -1), x.size());
  if (ax + 1 != static_cast<int>(x.size())) {
    ctx.why_generic = "normalization over more than the last axis";
    return false;
  }
  Op op = ctx.makeOp(n, OpKind::LayerNorm, {ctx.tensorOf(n, 0, true), ctx.tensorOf(n, 1)});
  if (ctx.has(n, 2)) {
    op.inputs.push_back(ctx.tensorOf(n, 2));
  } else {
    DerivedWeight zero;
    zero.kind = DerivedWeight::Kind::Fill;
    zero.count = x.back();
    op.inputs.push_back(derivedWeight(ctx, n.name + ".beta", {x.back()}, zero));
  }
  op.eps = static_cast<float>(ctx.attrFloat(n, "epsilon", 1e-5));
  ctx.emit(n, std::move(op));
  return true;
}

// BatchNormalization(x, scale, B, mean, var) -> BatchNorm(x, scale', shift') with
// scale' = scale / sqrt(var + eps) and shift' = B - mean * scale' (computed when read).
bool batchNorm(Context& ctx, const Node& n) {
  const Ints& x = ctx.in(n, 0).shape;
  if (x.size() < 2 || n.inputs.size() < 5) return false;
  const float eps = static_cast<float>(ctx.attrFloat(n, "epsilon", 1e-5));
  DerivedWeight scale, shift;
  scale.kind = DerivedWeight::Kind::BnScale;
  scale.sources = {n.inputs[1], n.inputs[4]};
  shift.kind = DerivedWeight::Kind::BnShift;
  shift.sources = {n.inputs[1], n.inputs[2], n.inputs[3], n.inputs[4]};
  scale.eps = shift.eps = eps;
  for (size_t i = 1; i < 5; ++i) ctx.in(n, i);  // all present
  Op op = ctx.makeOp(n, OpKind::BatchNorm, {ctx.tensorOf(n, 0, true)});
  op.inputs.push_back(derivedWeight(ctx, n.name + ".scale", {x[1]}, scale));
  op.inputs.push_back(derivedWeight(ctx, n.name + ".shift", {x[1]}, shift));
  op.channels_first = true;
  op.eps = eps;
  ctx.emit(n, std::move(op));
  return true;
}

bool reduce(Context& ctx, const Node& n) {
  static const std::map<std::string, std::string> fns = {{"ReduceMean", "mean"},
                                                         {"ReduceSum", "sum"},
                                                         {"ReduceMax", "max"},
                                                         {"ReduceMin", "min"},
                                                         {"ReduceProd", "prod"},
                                                         {"ReduceL2", "l2"},
                                                         {"ReduceSumSquare", "sumsquare"},
                                                         {"GlobalMaxPool", "max"}};
  const Ints& x = ctx.in(n, 0).shape;
  Ints axes = ctx.attrInts(n, "axes");
  if (ctx.has(n, 1)) {
    auto a = ctx.constInts(n, 1);
    if (!a) {
      ctx.why_generic = "axes known only at run time";
      return false;
    }
    axes = *a;
  }
  const bool global = n.op_type == "GlobalMaxPool";
  if (global)
    for (size_t i = 2; i < x.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  const bool noop = axes.empty() && ctx.attrInt(n, "noop_with_empty_axes", 0) != 0;
  if (noop) {
    ctx.alias(n, 0, ctx.tensorOf(n, 0));
    return true;
  }
  Op op = ctx.makeOp(n, OpKind::Reduce, {ctx.tensorOf(n, 0, true)});
  op.reduce.fn = fns.at(n.op_type);
  op.reduce.keepdims = global || ctx.attrInt(n, "keepdims", 1) != 0;
  if (axes.empty())
    for (size_t i = 0; i < x.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  for (int64_t a : axes) op.reduce.axes.push_back(ctx.axis(n, a, x.size()));
  std::sort(op.reduce.axes.begin(), op.reduce.axes.end());
  op.reduce.axes.erase(std::unique(op.reduce.axes.begin(), op.reduce.axes.end()),
                       op.reduce.axes.end());
  op.channels_first = global;
  ctx.emit(n, std::move(op));
  return true;
}

bool pool(Context& ctx, const Node& n) {
  const Ints& x = ctx.in(n, 0).shape;
  if (x.size() != 4) {
    ctx.why_generic = "only 2-D pooling is modeled";
    return false;
  }
  const OpKind kind = n.op_type == "MaxPool"       ? OpKind::MaxPool
                      : n.op_type == "AveragePool" ? OpKind::AvgPool
                                                   : OpKind::GlobalAvgPool;
  if (n.op_type == "MaxPool" && n.outputs.size() > 1 && !n.outputs[1].empty()) {
    ctx.why_generic = "max pooling with an indices output";
    return false;
  }
  Op op = ctx.makeOp(n, kind, {ctx.tensorOf(n, 0, true)});
  op.channels_first = true;
  if (kind != OpKind::GlobalAvgPool) {
    const Ints k = ctx.attrInts(n, "kernel_shape"), s = ctx.attrInts(n, "strides"),
               p = ctx.attrInts(n, "pads");
    if (k.empty()) ctx.fail(n, "kernel_shape is missing");
    op.pool.window = k[0];  // the output shape (from inference) is exact for any window
    op.pool.stride = s.empty() ? 1 : s[0];
    op.pool.pad = p.empty() ? 0 : p[0];
  }
  ctx.emit(n, std::move(op));
  return true;
}

}  // namespace

void addNormConverters(std::map<std::string, Converter>& t) {
  t["Softmax"] = softmax;
  t["LayerNormalization"] = layerNorm;
  t["BatchNormalization"] = batchNorm;
  for (const char* r : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
                        "ReduceL2", "ReduceSumSquare", "GlobalMaxPool"})
    t[r] = reduce;
  for (const char* p : {"MaxPool", "AveragePool", "GlobalAveragePool"}) t[p] = pool;
}

}  // namespace tessel::models::onnx
