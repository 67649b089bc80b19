// tessel's own shape rules, for what ONNX 1.12's inference leaves unknown: Reshape targets
// computed from Shape chains, ops of opsets newer than 17, and values downstream of them.
// Elementwise, matmul and window ops here; layout ops in infer_layout.cpp.
#include <set>

#include "models/onnx/infer_util.h"

namespace tessel::models::onnx {
namespace {

using namespace infer;

const std::set<std::string>& sameShapeOps() {
  static const std::set<std::string> ops = {"Relu",
                                            "Sigmoid",
                                            "Tanh",
                                            "Erf",
                                            "Sqrt",
                                            "Exp",
                                            "Log",
                                            "Neg",
                                            "Abs",
                                            "Reciprocal",
                                            "Cast",
                                            "CastLike",
                                            "Clip",
                                            "Dropout",
                                            "Identity",
                                            "Softmax",
                                            "LogSoftmax",
                                            "LayerNormalization",
                                            "BatchNormalization",
                                            "HardSwish",
                                            "HardSigmoid",
                                            "LeakyRelu",
                                            "Gelu",
                                            "Not",
                                            "QuantizeLinear",
                                            "DequantizeLinear",
                                            "Floor",
                                            "Ceil",
                                            "Round",
                                            "Sign",
                                            "Sin",
                                            "Cos",
                                            "Softplus",
                                            "Softsign",
                                            "Elu",
                                            "Selu",
                                            "Celu",
                                            "Mish",
                                            "IsNaN",
                                            "IsInf",
                                            "InstanceNormalization",
                                            "GroupNormalization",
                                            "LpNormalization",
                                            "Shrink",
                                            "ThresholdedRelu",
                                            "PRelu",
                                            "Trilu",
                                            "CumSum"};
  return ops;
}

const std::set<std::string>& broadcastOps() {
  static const std::set<std::string> ops = {"Add",  "Sub",     "Mul",         "Div",
                                            "Pow",  "Max",     "Min",         "Equal",
                                            "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
                                            "And",  "Or",      "Xor",         "Where",
                                            "Mod",  "Sum",     "Mean",        "BitShift"};
  return ops;
}

bool matmul(Context& ctx, const Node& n) {
  if (!ready(ctx, n, 0) || !ready(ctx, n, 1)) return false;
  Ints a = ctx.in(n, 0).shape, b = ctx.in(n, 1).shape;
  if (a.empty() || b.empty()) ctx.fail(n, "matmul of a scalar");
  const bool a1 = a.size() == 1, b1 = b.size() == 1;
  if (a1) a.insert(a.begin(), 1);
  if (b1) b.push_back(1);
  if (a.back() != b[b.size() - 2])
    ctx.fail(n, "inner dimensions differ: " + shapeText(ctx.in(n, 0).shape) + " x " +
                    shapeText(ctx.in(n, 1).shape));
  bool ok = true;
  Ints shape = broadcast(Ints(a.begin(), a.end() - 2), Ints(b.begin(), b.end() - 2), ok);
  if (!ok) ctx.fail(n, "batch dimensions do not broadcast");
  if (!a1) shape.push_back(a[a.size() - 2]);
  if (!b1) shape.push_back(b.back());
  out(ctx, n, 0, shape, ctx.in(n, 0).type);
  return true;
}

}  // namespace

bool inferShape(Context& ctx, const Node& n) {
  const std::string& op = n.op_type;
  if (!n.domain.empty()) return false;
  if (sameShapeOps().count(op)) {
    if (!ready(ctx, n, 0)) return false;
    out(ctx, n, 0, ctx.in(n, 0).shape, ctx.in(n, 0).type);
    return true;
  }
  if (broadcastOps().count(op)) {
    Ints shape;
    bool ok = true;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (!ready(ctx, n, i)) return false;
      shape = broadcast(shape, ctx.in(n, i).shape, ok);
    }
    if (!ok) ctx.fail(n, "input shapes do not broadcast");
    const bool logical = op == "Equal" || op == "Less" || op == "Greater" || op == "And" ||
                         op == "Or" || op == "LessOrEqual" || op == "GreaterOrEqual";
    out(ctx, n, 0, shape, logical ? ElemType::Bool : ctx.in(n, op == "Where" ? 1 : 0).type);
    return true;
  }
  if (op == "MatMul" || op == "MatMulInteger") return matmul(ctx, n);
  if (op == "Conv" || op == "QLinearConv" || op == "ConvInteger" || op == "MaxPool" ||
      op == "AveragePool" || op == "ConvTranspose")
    return inferWindowShape(ctx, n);
  if ((op == "GlobalAveragePool" || op == "GlobalMaxPool") && ready(ctx, n, 0)) {
    Ints shape = ctx.in(n, 0).shape;
    for (size_t i = 2; i < shape.size(); ++i) shape[i] = 1;
    out(ctx, n, 0, shape, ctx.in(n, 0).type);
    return true;
  }
  if (op == "Gemm" && ready(ctx, n, 0) && ready(ctx, n, 1)) {
    const Ints &a = ctx.in(n, 0).shape, &b = ctx.in(n, 1).shape;
    if (a.size() != 2 || b.size() != 2) ctx.fail(n, "A and B must be 2-D");
    out(ctx, n, 0, {a[ctx.attrInt(n, "transA", 0) ? 1 : 0], b[ctx.attrInt(n, "transB", 0) ? 0 : 1]},
        ctx.in(n, 0).type);
    return true;
  }
  return inferLayoutShape(ctx, n);
}

}  // namespace tessel::models::onnx
