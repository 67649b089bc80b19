// Conv, ConvTranspose, QLinearConv, ConvInteger -> Conv2d (channels_first: NCHW activations,
// [K, C/groups, R, S] weights). 1-D convolutions are 2-D ones of height 1.
#include "models/builder.h"
#include "models/onnx/context.h"

namespace tessel::models::onnx {
namespace {

using Ints = std::vector<int64_t>;

struct Window {
  int64_t kernel = 1, stride = 1, dilation = 1, begin = 0, end = 0;
};

// The window along spatial axis i of an input extent `in` (auto_pad resolved).
Window window(Context& ctx, const Node& n, size_t i, size_t spatial, int64_t in, int64_t kernel) {
  Window w;
  w.kernel = kernel;
  const Ints strides = ctx.attrInts(n, "strides"), dil = ctx.attrInts(n, "dilations"),
             pads = ctx.attrInts(n, "pads");
  if (!strides.empty()) w.stride = strides.at(std::min(i, strides.size() - 1));
  if (!dil.empty()) w.dilation = dil.at(std::min(i, dil.size() - 1));
  if (w.stride < 1 || w.dilation < 1) ctx.fail(n, "strides and dilations must be at least 1");
  if (pads.size() == 2 * spatial) {
    w.begin = pads[i];
    w.end = pads[i + spatial];
  } else if (!pads.empty()) {
    ctx.fail(n, "pads has " + std::to_string(pads.size()) + " entries, expected " +
                    std::to_string(2 * spatial));
  }
  if (w.begin < 0 || w.end < 0) ctx.fail(n, "negative pads are not supported");
  if (w.begin > (int64_t{1} << 40) || w.end > (int64_t{1} << 40) || w.stride > (int64_t{1} << 40) ||
      w.dilation > (int64_t{1} << 40))
    ctx.fail(n, "pads, strides or dilations are too large");
  const std::string autopad = ctx.attrString(n, "auto_pad", "NOTSET");
  if (autopad == "SAME_UPPER" || autopad == "SAME_LOWER") {
    const int64_t out = (in + w.stride - 1) / w.stride;
    const __int128 span = static_cast<__int128>(kernel - 1) * w.dilation + 1;
    const int64_t total =
        ctx.dim(n, std::max<__int128>(0, static_cast<__int128>(out - 1) * w.stride + span - in));
    w.begin = autopad == "SAME_UPPER" ? total / 2 : total - total / 2;
    w.end = total - w.begin;
  } else if (autopad == "VALID") {
    w.begin = w.end = 0;
  }
  return w;
}

int64_t outSize(int64_t in, const Window& w) {
  return detail::convOut(in + w.begin + w.end, w.kernel, w.stride, 0, w.dilation);
}

// x [N, C, (H,) W], w [K, C/g, (R,) S]: the ConvShape, or false for other ranks.
bool convShape(Context& ctx, const Node& n, size_t xi, size_t wi, ConvShape& c) {
  const Ints x = ctx.in(n, xi).shape, w = ctx.in(n, wi).shape;
  if (x.size() != 3 && x.size() != 4) {
    ctx.why_generic = "only 1-D and 2-D convolutions are modeled";
    return false;
  }
  if (w.size() != x.size()) ctx.fail(n, "weight rank differs from the input's");
  const size_t spatial = x.size() - 2;
  const bool two = spatial == 2;
  c.n = x[0];
  c.c = x[1];
  c.h = two ? x[2] : 1;
  c.w = x.back();
  c.k = w[0];
  c.r = two ? w[2] : 1;
  c.s = w.back();
  c.groups = ctx.attrInt(n, "group", 1);
  if (c.groups < 1 || c.c % c.groups != 0 || c.k % c.groups != 0 || w[1] * c.groups != c.c)
    ctx.fail(n, "group " + std::to_string(c.groups) + " does not fit input " + shapeText(x) +
                    " and weight " + shapeText(w));
  const Window col = window(ctx, n, spatial - 1, spatial, c.w, c.s);
  const Window row =
      two ? window(ctx, n, 0, spatial, c.h, c.r) : Window{1, col.stride, col.dilation};
  if (row.stride != col.stride || row.dilation != col.dilation)
    ctx.fail(n, "different strides or dilations along height and width are not supported");
  c.stride = col.stride;
  c.dilation = col.dilation;
  c.pad = two ? row.begin : col.begin;  // the leading pad; p and q count both sides exactly
  c.p = two ? outSize(c.h, row) : 1;
  c.q = outSize(c.w, col);
  return true;
}

bool conv(Context& ctx, const Node& n, size_t xi, size_t wi, size_t bi) {
  ConvShape c;
  if (!convShape(ctx, n, xi, wi, c)) return false;
  const Ints& out = ctx.values[n.outputs.at(0)].shape;
  if (static_cast<__int128>(product(out)) != static_cast<__int128>(c.n) * c.k * c.p * c.q)
    ctx.fail(n, "output " + shapeText(out) + " does not match the computed " + std::to_string(c.p) +
                    "x" + std::to_string(c.q) + " conv output");
  Op op = ctx.makeOp(n, OpKind::Conv2d, {ctx.tensorOf(n, xi), ctx.tensorOf(n, wi)});
  if (ctx.has(n, bi)) op.inputs.push_back(ctx.tensorOf(n, bi));
  op.conv = c;
  op.channels_first = true;
  op.gemm = {c.groups, c.n * c.p * c.q, c.k / c.groups, c.c / c.groups * c.r * c.s};
  op.macs = op.gemm.macs();
  ctx.emit(n, std::move(op));
  return true;
}

bool convFloat(Context& ctx, const Node& n) { return conv(ctx, n, 0, 1, 2); }
bool qlinearConv(Context& ctx, const Node& n) { return conv(ctx, n, 0, 3, 8); }
bool convInteger(Context& ctx, const Node& n) { return conv(ctx, n, 0, 1, SIZE_MAX); }

// ConvTranspose as the GEMM it is: every input pixel times the weight [C/g, K/g*R*S] (then a
// col2im scatter-add, not costed). As a ConvShape: a 1x1 conv of the input making K*R*S channels.
bool convTranspose(Context& ctx, const Node& n) {
  const Ints x = ctx.in(n, 0).shape, w = ctx.in(n, 1).shape;
  if ((x.size() != 3 && x.size() != 4) || w.size() != x.size()) {
    ctx.why_generic = "only 1-D and 2-D transposed convolutions are modeled";
    return false;
  }
  const int64_t groups = ctx.attrInt(n, "group", 1);
  if (groups < 1 || x[1] % groups != 0 || w[0] != x[1])
    ctx.fail(n, "group " + std::to_string(groups) + " does not fit input " + shapeText(x) +
                    " and weight " + shapeText(w));
  ConvShape c;
  c.n = x[0];
  c.c = x[1];
  c.h = x.size() == 4 ? x[2] : 1;
  c.w = x.back();
  c.k = w[1] * groups * product(w, 2);
  c.p = c.h;
  c.q = c.w;
  c.groups = groups;
  Op op = ctx.makeOp(n, OpKind::Conv2d, {ctx.tensorOf(n, 0), ctx.tensorOf(n, 1)});
  if (ctx.has(n, 2)) op.inputs.push_back(ctx.tensorOf(n, 2));
  op.conv = c;
  op.channels_first = true;
  op.gemm = {groups, c.n * c.h * c.w, c.k / groups, c.c / groups};
  op.macs = op.gemm.macs();
  ctx.emit(n, std::move(op));
  return true;
}

// ConvTranspose: out = stride * (in - 1) + output_padding + span - pads, or output_shape.
bool inferTransposedShape(Context& ctx, const Node& n) {
  if (!ctx.in(n, 0).inferred || !ctx.in(n, 1).inferred) return false;
  const Ints x = ctx.in(n, 0).shape, w = ctx.in(n, 1).shape;
  if (x.size() < 3 || w.size() != x.size()) ctx.fail(n, "input and weight ranks differ");
  const size_t spatial = x.size() - 2;
  const Ints shape_attr = ctx.attrInts(n, "output_shape"),
             extra = ctx.attrInts(n, "output_padding");
  Ints out = {x[0], w[1] * ctx.attrInt(n, "group", 1)};
  const std::string autopad = ctx.attrString(n, "auto_pad", "NOTSET");
  for (size_t i = 0; i < spatial; ++i) {
    if (shape_attr.size() == spatial) {
      out.push_back(shape_attr[i]);
      continue;
    }
    Window win = window(ctx, n, i, spatial, x[i + 2], w[i + 2]);
    if (autopad == "SAME_UPPER" || autopad == "SAME_LOWER") {
      out.push_back(x[i + 2] * win.stride);
      continue;
    }
    const int64_t pad = extra.size() == spatial ? extra[i] : 0;
    const __int128 span = static_cast<__int128>(win.kernel - 1) * win.dilation + 1;
    const int64_t size = ctx.dim(
        n, static_cast<__int128>(win.stride) * (x[i + 2] - 1) + pad + span - win.begin - win.end);
    if (size < 0) ctx.fail(n, "the output would have a negative size");
    out.push_back(size);
  }
  Value& v = ctx.values[n.outputs.at(0)];
  v.shape = out;
  v.inferred = true;
  if (v.type == ElemType::Undefined) v.type = ctx.in(n, 0).type;
  return true;
}

}  // namespace

// Conv-like (weight input wi) and pooling (kernel_shape) output shapes, for values ONNX's own
// inference left unknown.
bool inferWindowShape(Context& ctx, const Node& n) {
  if (n.op_type == "ConvTranspose") return inferTransposedShape(ctx, n);
  const bool pool = n.op_type == "MaxPool" || n.op_type == "AveragePool" || n.op_type == "LpPool";
  const size_t wi = n.op_type == "QLinearConv" ? 3 : 1;
  if (!ctx.in(n, 0).inferred || (!pool && !ctx.in(n, wi).inferred)) return false;
  if (!pool && ctx.in(n, wi).shape.size() != ctx.in(n, 0).shape.size())
    ctx.fail(n, "input and weight ranks differ");
  const Ints x = ctx.in(n, 0).shape;
  if (x.size() < 3) return false;
  const size_t spatial = x.size() - 2;
  Ints kernel = pool ? ctx.attrInts(n, "kernel_shape") : Ints{};
  if (!pool) {
    const Ints& w = ctx.in(n, wi).shape;
    if (w.size() != x.size()) return false;
    kernel.assign(w.begin() + 2, w.end());
  }
  if (kernel.size() != spatial) return false;
  Ints out = {x[0], pool ? x[1] : ctx.in(n, wi).shape[0]};
  const bool ceil = ctx.attrInt(n, "ceil_mode", 0) != 0;
  for (size_t i = 0; i < spatial; ++i) {
    const Window w = window(ctx, n, i, spatial, x[i + 2], kernel[i]);
    const int64_t span = ctx.dim(n, static_cast<__int128>(w.kernel - 1) * w.dilation + 1);
    const int64_t padded = x[i + 2] + w.begin + w.end;
    if (padded < span) ctx.fail(n, "the window does not fit the input " + shapeText(x));
    out.push_back((padded - span + (ceil ? w.stride - 1 : 0)) / w.stride + 1);
  }
  Value& v = ctx.values[n.outputs.at(0)];
  v.shape = out;
  v.inferred = true;
  if (v.type == ElemType::Undefined) v.type = ctx.in(n, 0).type;
  if (n.outputs.size() > 1 && !n.outputs[1].empty()) {  // MaxPool's indices
    Value& idx = ctx.values[n.outputs[1]];
    idx.shape = out;
    idx.inferred = true;
    idx.type = ElemType::Int64;
  }
  return true;
}

void addConvConverters(std::map<std::string, Converter>& t) {
  t["Conv"] = convFloat;
  t["QLinearConv"] = qlinearConv;
  t["ConvInteger"] = convInteger;
  t["ConvTranspose"] = convTranspose;
}

}  // namespace tessel::models::onnx
