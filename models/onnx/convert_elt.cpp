// Elementwise ops and activations: Add, Mul, Relu, Sigmoid, HardSwish, Gelu, the named
// Elementwise functions (EltAttrs::fn), Cast, Expand, Resize, Quantize/DequantizeLinear.
#include <algorithm>
#include <set>

#include "models/onnx/context.h"

namespace tessel::models::onnx {
namespace {

// Inputs as tensors; exact shapes when they differ (broadcasting reads the real shapes).
std::vector<int> operands(Context& ctx, const Node& n, size_t count) {
  std::vector<int> in;
  bool same = true;
  for (size_t i = 1; i < count && i < n.inputs.size(); ++i)
    if (ctx.has(n, i) && ctx.in(n, i).shape != ctx.in(n, 0).shape) same = false;
  for (size_t i = 0; i < count && i < n.inputs.size(); ++i)
    if (ctx.has(n, i)) in.push_back(ctx.tensorOf(n, i, !same));
  return in;
}

bool kindOp(Context& ctx, const Node& n, OpKind kind, size_t count) {
  ctx.emit(n, ctx.makeOp(n, kind, operands(ctx, n, count)));
  return true;
}

bool fnOp(Context& ctx, const Node& n, const std::string& fn, size_t count, float alpha = 0,
          float beta = 0) {
  Op op = ctx.makeOp(n, OpKind::Elementwise, operands(ctx, n, count));
  op.elt.fn = fn;
  op.elt.alpha = alpha;
  op.elt.beta = beta;
  ctx.emit(n, std::move(op));
  return true;
}

bool add(Context& ctx, const Node& n) { return kindOp(ctx, n, OpKind::Add, 2); }
bool mul(Context& ctx, const Node& n) { return kindOp(ctx, n, OpKind::Mul, 2); }
bool relu(Context& ctx, const Node& n) { return kindOp(ctx, n, OpKind::Relu, 1); }
bool sigmoid(Context& ctx, const Node& n) { return kindOp(ctx, n, OpKind::Sigmoid, 1); }
bool hardSwish(Context& ctx, const Node& n) { return kindOp(ctx, n, OpKind::HardSwish, 1); }

bool gelu(Context& ctx, const Node& n) {
  Op op = ctx.makeOp(n, OpKind::Gelu, operands(ctx, n, 1));
  op.gelu_tanh = ctx.attrString(n, "approximate", "none") == "tanh";
  ctx.emit(n, std::move(op));
  return true;
}

// The ONNX op -> EltAttrs::fn name, for the functions the IR names.
const std::map<std::string, std::string>& namedFns() {
  static const std::map<std::string, std::string> fns = {{"Sub", "sub"},
                                                         {"Div", "div"},
                                                         {"Pow", "pow"},
                                                         {"Max", "max"},
                                                         {"Min", "min"},
                                                         {"Sqrt", "sqrt"},
                                                         {"Exp", "exp"},
                                                         {"Log", "log"},
                                                         {"Erf", "erf"},
                                                         {"Tanh", "tanh"},
                                                         {"Neg", "neg"},
                                                         {"Abs", "abs"},
                                                         {"Reciprocal", "reciprocal"},
                                                         {"Where", "where"},
                                                         {"Equal", "equal"},
                                                         {"Less", "less"},
                                                         {"Greater", "greater"},
                                                         {"Not", "not"},
                                                         {"And", "and"},
                                                         {"Or", "or"}};
  return fns;
}

bool named(Context& ctx, const Node& n) {
  const std::string& fn = namedFns().at(n.op_type);
  if ((fn == "max" || fn == "min") && n.inputs.size() != 2) return false;
  return fnOp(ctx, n, fn, fn == "where" ? 3 : 2);
}

bool clip(Context& ctx, const Node& n) {
  double lo = ctx.attrFloat(n, "min", -3.4e38), hi = ctx.attrFloat(n, "max", 3.4e38);
  if (ctx.has(n, 1)) {
    auto v = ctx.constFloat(n, 1);
    if (!v) {
      ctx.why_generic = "bounds known only at run time";
      return false;
    }
    lo = *v;
  }
  if (ctx.has(n, 2)) {
    auto v = ctx.constFloat(n, 2);
    if (!v) {
      ctx.why_generic = "bounds known only at run time";
      return false;
    }
    hi = *v;
  }
  return fnOp(ctx, n, "clip", 1, static_cast<float>(lo), static_cast<float>(hi));
}

bool hardSigmoid(Context& ctx, const Node& n) {
  return fnOp(ctx, n, "hardsigmoid", 1, static_cast<float>(ctx.attrFloat(n, "alpha", 0.2)),
              static_cast<float>(ctx.attrFloat(n, "beta", 0.5)));
}

bool leakyRelu(Context& ctx, const Node& n) {
  return fnOp(ctx, n, "leakyrelu", 1, static_cast<float>(ctx.attrFloat(n, "alpha", 0.01)));
}

// A view when tessel stores both types alike (every float type is options.dtype).
bool cast(Context& ctx, const Node& n) {
  const int x = ctx.tensorOf(n, 0);
  if (ctx.g.tensor(x).dtype == ctx.dtypeOf(ctx.values[n.outputs.at(0)].type)) {
    ctx.alias(n, 0, x);
    return true;
  }
  return fnOp(ctx, n, "cast", 1);
}

// Copies costed by the bytes they move. Broadcasting and resizing align axes by the input's
// own shape, so a view input is read with that exact shape (a repeat-kv Expand of a reshaped
// [1, 2, 1, 16, 16] K must not see its source's [1, 2, 16, 16]).
bool exactCopy(Context& ctx, const Node& n, const std::string& fn) {
  Op op = ctx.makeOp(n, OpKind::Elementwise, {ctx.tensorOf(n, 0, true)});
  op.elt.fn = fn;
  ctx.emit(n, std::move(op));
  return true;
}
bool expand(Context& ctx, const Node& n) { return exactCopy(ctx, n, "expand"); }
bool resize(Context& ctx, const Node& n) { return exactCopy(ctx, n, "resize"); }

bool quantize(Context& ctx, const Node& n) {
  Op op = ctx.makeOp(n, OpKind::Quantize, {ctx.tensorOf(n, 0)});
  op.from_uint8 = false;
  ctx.emit(n, std::move(op));
  return true;
}

bool dequantize(Context& ctx, const Node& n) {
  ctx.emit(n, ctx.makeOp(n, OpKind::Dequantize, {ctx.tensorOf(n, 0)}));
  return true;
}

}  // namespace

void addEltConverters(std::map<std::string, Converter>& t) {
  t["Add"] = add;
  t["Mul"] = mul;
  t["Relu"] = relu;
  t["Sigmoid"] = sigmoid;
  t["HardSwish"] = hardSwish;
  t["Gelu"] = gelu;
  for (const auto& kv : namedFns()) t[kv.first] = named;
  t["Clip"] = clip;
  t["HardSigmoid"] = hardSigmoid;
  t["LeakyRelu"] = leakyRelu;
  t["Cast"] = cast;
  t["Expand"] = expand;
  t["Resize"] = resize;
  t["Upsample"] = resize;
  t["QuantizeLinear"] = quantize;
  t["DequantizeLinear"] = dequantize;
}

}  // namespace tessel::models::onnx
