#include "kernels/executor/support.h"

#include <string>

#include "kernels/ops/broadcast.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;

[[noreturn]] void refuse(const Op& op, const std::string& why) {
  throw ConfigError({"", 0, 0, "workload"}, "op '" + op.name + "' (" +
                                                std::string(models::nameOf(op.kind)) +
                                                "): the functional executor " + why);
}

bool directConv(const Op& op) {
  return op.kind == OpKind::Conv2d &&
         (op.channels_first || op.conv.groups != 1 || op.conv.dilation != 1);
}

bool sameShapes(const models::Graph& g, const Op& op) {
  const auto& out = g.tensor(op.outputs.at(0)).shape;
  for (int t : op.inputs)
    if (g.tensor(t).shape != out) return false;
  return true;
}

void checkElementwise(const models::Graph& g, const Op& op) {
  const std::string& fn = op.elt.fn;
  const size_t n = op.inputs.size();
  if (fn == "moe_combine")
    refuse(op, "does not combine expert outputs: their tokens were never routed");
  const bool known = isViewFn(fn) || fn == "expand" || fn == "resize" || fn == "where" ||
                     isBinaryFn(fn) || isUnaryFn(fn);
  if (!known) refuse(op, "has no kernel for elementwise function '" + fn + "'");
  const bool arity = fn == "where"    ? n == 3
                     : isBinaryFn(fn) ? n == 2
                     : isUnaryFn(fn)  ? n == 1
                                      : n >= 1;
  if (!arity) refuse(op, "'" + fn + "' with " + std::to_string(n) + " inputs has no kernel");
  if (isViewFn(fn) && g.tensor(op.inputs[0]).elements() != g.tensor(op.outputs.at(0)).elements())
    refuse(op, "'" + fn + "' changes the element count");
}

// What the executor computes in: every float dtype (fp32 ... fp4, block-scaled), INT8 and INT4
// (on the INT8 datapath), and INT32 where the graph keeps ids.
bool runsAsValues(DType d) { return d != DType::Int16 && d != DType::UInt4 && d != DType::E8M0; }

bool runsAsWeights(DType d) { return d != DType::Int16 && d != DType::Int32 && d != DType::E8M0; }

// A stored weight's conversion (Dequantize::Op, a tied table read in two dtypes): weight dtypes.
bool convertsWeight(const models::Graph& g, const Op& op) {
  return (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) &&
         g.tensor(op.inputs.at(0)).role == models::TensorRole::Weight;
}

void checkDTypes(const models::Graph& g, const Op& op) {
  const std::string accepted =
      " (it runs fp32, fp16, bf16, fp8/fp6/fp4, block-scaled types, int8 and int4; uint4 only as "
      "a matmul's weights)";
  const bool conversion = convertsWeight(g, op);
  for (int t : op.outputs) {
    const DType d = g.tensor(t).dtype;
    if (!(conversion ? runsAsWeights(d) : runsAsValues(d)))
      refuse(op, "has no kernels for " + std::string(nameOf(d)) + " outputs" + accepted);
  }
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const DType d = g.tensor(op.inputs[i]).dtype;
    const bool weight =
        conversion || ((op.kind == OpKind::MatMul || op.kind == OpKind::Conv2d) && i == 1);
    if (weight ? runsAsWeights(d) : runsAsValues(d)) continue;
    refuse(op, "has no kernels for " + std::string(nameOf(d)) + (weight ? " weights" : " inputs") +
                   accepted);
  }
  const DType out = g.tensor(op.outputs.at(0)).dtype;
  const bool int_gemm = (op.kind == OpKind::MatMul || op.kind == OpKind::Conv2d) &&
                        isQuantizedInt(out) && op.inputs.size() > 1;
  if (int_gemm && !isQuantizedInt(g.tensor(op.inputs[1]).dtype))
    refuse(op, "has no " + std::string(nameOf(out)) + " kernel reading " +
                   std::string(nameOf(g.tensor(op.inputs[1]).dtype)) +
                   " weights (integer matmuls read int8 or int4 weights)");
}

}  // namespace

bool isViewFn(const std::string& fn) {
  return fn == "reshape" || fn == "flatten" || fn == "squeeze" || fn == "unsqueeze" ||
         fn == "identity" || fn == "dropout";
}

void checkRunnable(const models::Graph& g, const Op& op) {
  checkDTypes(g, op);
  switch (op.kind) {
    case OpKind::MoeRoute:
      refuse(op,
             "does not route tokens: the graph's expert loads are expected counts, not a "
             "routing of real tokens (tessel run times them)");
    case OpKind::Gather:
      if (op.moe.expert >= 0)
        refuse(op, "does not dispatch tokens to experts: expert " + std::to_string(op.moe.expert) +
                       "'s load is an expectation, not real routing (tessel run times it)");
      break;
    case OpKind::Pad:
      refuse(op, "does not run a deployment's padding (tessel serve times it)");
    case OpKind::Slice:
      if (op.layout.start == 0 && op.layout.end == 0)
        refuse(op, "does not run a deployment's padding slice (tessel serve times it)");
      if (op.layout.step == 0) refuse(op, "cannot slice with step 0");
      break;
    case OpKind::Elementwise:
      checkElementwise(g, op);
      break;
    default:
      break;
  }
}

bool runsInFloat(const models::Graph& g, const Op& op) {
  switch (op.kind) {
    case OpKind::Add:
    case OpKind::Mul:
      return !sameShapes(g, op);
    case OpKind::Elementwise:
    case OpKind::Rope:
    case OpKind::Gather:
    case OpKind::Reduce:
    case OpKind::Concat:
    case OpKind::Slice:
    case OpKind::Transpose:
      return true;
    case OpKind::BatchMatMul:
      return op.attn.heads == 0;
    case OpKind::Conv2d:
      return directConv(op);
    case OpKind::MaxPool:
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return op.channels_first;
    default:
      return false;
  }
}

bool isBlockedAnchor(const Op& op) {
  if (op.kind == OpKind::BatchMatMul) return op.attn.heads > 0;
  if (op.kind == OpKind::Conv2d) return !directConv(op);
  return op.kind == OpKind::MatMul;
}

}  // namespace tessel::kernels
