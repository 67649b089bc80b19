// The float path: ops without a blocked GEMM view or chain form compute in FP32 on their inputs'
// real values (INT8/INT4 dequantized, narrower floats as stored), and their result is rounded to
// the op's float format (block-scaled ones along the last axis) or quantized at its calibrated
// INT8/INT4 scale: the host path of an accelerator with no unit for them.
#include <limits>
#include <string>

#include "kernels/executor/ops.h"
#include "kernels/executor/support.h"
#include "kernels/numeric/quantize.h"
#include "kernels/ops/broadcast.h"
#include "kernels/ops/layout.h"
#include "kernels/ops/normalization.h"
#include "kernels/ops/pooling.h"
#include "kernels/ops/reduce.h"
#include "kernels/ops/tensor_gemm.h"
#include "kernels/ops/views.h"
#include "kernels/validation/metrics.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::Op;
using models::OpKind;
using Inputs = std::vector<std::shared_ptr<const Tensor>>;

std::shared_ptr<const Tensor> asFloat(std::shared_ptr<const Tensor> t) {
  if (t->dtype() == DType::FP32) return t;
  return std::make_shared<const Tensor>(Tensor::fromFloats(t->shape(), realValues(*t)));
}

// Operand i in FP32. A GEMM's weight keeps its graph dtype's rounding or quantization (that is
// the precision under test); other ops' parameters stay FP32 on an INT8 op, as the host keeps
// them. Gather's ids stay integers.
std::shared_ptr<const Tensor> operand(RunState& s, const Op& op, size_t i) {
  const int id = op.inputs.at(i);
  const DType d = s.dtypeOf(id);
  if (op.kind == OpKind::Gather && i == 1 && d == DType::Int32) return s.tensor(id);
  if (s.fromStore(id) && !op.isGemmLike() && d != DType::Int32)
    return asFloat(s.weights.weight(s.g, id, isInteger(d) ? DType::FP32 : d));
  return asFloat(s.tensor(id));
}

// NCHW pooling through the NHWC kernels.
Tensor poolChannelsFirst(const Op& op, const Tensor& x) {
  const Tensor nhwc = transpose(x, {0, 2, 3, 1});
  if (op.kind == OpKind::GlobalAvgPool) return globalAvgPool(nhwc);
  const PoolParams p{op.pool.window, op.pool.stride, op.pool.pad, true};
  return transpose(op.kind == OpKind::MaxPool ? maxPool(nhwc, p) : avgPool(nhwc, p), {0, 3, 1, 2});
}

Tensor elementwise(const Op& op, const Inputs& in, const std::vector<int64_t>& out) {
  const std::string& fn = op.elt.fn;
  if (isViewFn(fn)) {  // same values, the output's shape
    Tensor y = *in.at(0);
    y.reshape(out);
    return y;
  }
  if (fn == "expand") return expandTo(*in.at(0), out);
  if (fn == "resize") return resizeNearest(*in.at(0), out);
  if (fn == "where") return whereOp(*in.at(0), *in.at(1), *in.at(2));
  if (isBinaryFn(fn)) return binaryOp(fn, *in.at(0), *in.at(1));
  return unaryOp(fn, *in.at(0), op.elt.alpha, op.elt.beta);
}

Tensor sliced(const Op& op, const Tensor& x, int64_t count) {
  const int64_t n = x.dim(op.layout.axis);
  const int64_t start = op.layout.start < 0 ? op.layout.start + n : op.layout.start;
  return slice(x, op.layout.axis, start, op.layout.step, count);
}

// A numpy matmul with a score's scale and causal mask folded in (models/graph.h): each [M, N]
// matrix as [S, T], entries j > i + N - M masked to -inf.
Tensor scoreMatmul(const Op& op, const Tensor& a, const Tensor& b) {
  Tensor y = batchedMatmul(a, b, op.attn.transpose_b);
  const int64_t m = y.dim(-2), n = y.dim(-1);
  float* v = y.f32();
  for (int64_t i = 0; i < y.numel(); ++i) {
    const int64_t r = (i / n) % m, c = i % n;
    v[i] = op.attn.causal && c > r + n - m ? -std::numeric_limits<float>::infinity()
                                           : v[i] * op.attn.scale;
  }
  return y;
}

Tensor compute(const models::Graph& g, const Op& op, const Inputs& in) {
  const std::vector<int64_t>& out = g.tensor(op.outputs.at(0)).shape;
  switch (op.kind) {
    case OpKind::Add:
      return binaryOp("add", *in.at(0), *in.at(1));
    case OpKind::Mul:
      return binaryOp("mul", *in.at(0), *in.at(1));
    case OpKind::Elementwise:
      return elementwise(op, in, out);
    case OpKind::Rope:
      return rope(*in.at(0), op.rope);
    case OpKind::Gather:
      return gather(*in.at(0), *in.at(1), op.layout.axis);
    case OpKind::Reduce:
      return reduce(*in.at(0), op.reduce.fn, op.reduce.axes, op.reduce.keepdims);
    case OpKind::Concat: {
      std::vector<const Tensor*> xs;
      for (const auto& t : in) xs.push_back(t.get());
      return concat(xs, op.layout.axis);
    }
    case OpKind::Slice:
      return sliced(op, *in.at(0), out.at(static_cast<size_t>(op.layout.axis)));
    case OpKind::Transpose:
      return transpose(*in.at(0), op.layout.perm);
    case OpKind::BatchMatMul:
      return scoreMatmul(op, *in.at(0), *in.at(1));
    case OpKind::Conv2d:
      return convDirect(*in.at(0), *in.at(1), in.size() > 2 ? in[2].get() : nullptr, op.conv,
                        op.channels_first);
    case OpKind::MaxPool:
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return poolChannelsFirst(op, *in.at(0));
    default:
      throw Error("executor: '" + op.name + "' has no float-path kernel");
  }
}

}  // namespace

std::shared_ptr<const Tensor> runFloatOp(RunState& s, const Op& op) {
  Inputs in;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    std::shared_ptr<const Tensor> x = operand(s, op, i);
    const std::vector<int64_t> view = readShape(s.g, op, i);
    if (view != x->shape()) {  // an imported view: the same values in the reader's shape
      Tensor v = *x;
      v.reshape(view);
      x = std::make_shared<const Tensor>(std::move(v));
    }
    in.push_back(std::move(x));
  }
  Tensor y = compute(s.g, op, in);
  const models::Tensor& out = s.g.tensor(op.outputs.at(0));
  // ONNX keeps size-1 axes (GlobalAveragePool's [N, C, 1, 1]); the values are the same.
  if (y.shape() != out.shape && y.numel() == out.elements()) y.reshape(out.shape);
  if (isQuantizedInt(out.dtype)) return shared(quantize(y, s.quantOf(out.id)));
  if (out.dtype == DType::FP32) return shared(std::move(y));
  if (isInteger(out.dtype))
    throw Error("executor: '" + op.name + "' cannot write " + std::string(nameOf(out.dtype)));
  return shared(Tensor::fromFloats(y.shape(), realValues(y), out.dtype));  // fp16 ... mxfp4
}

}  // namespace tessel::kernels
