// MatMul, Gemm, QLinearMatMul, MatMulInteger. A 2-D initializer operand B makes a MatMul
// (rows folded into gemm.m, a following Add of a 1-D initializer folded in as its bias); two
// activations make a BatchMatMul with attn.heads = 0 (numpy matmul, broadcast batch dims).
#include "models/onnx/context.h"

namespace tessel::models::onnx {
namespace {

using Ints = std::vector<int64_t>;

bool isWeight(Context& ctx, const Node& n, size_t i) {
  return ctx.has(n, i) && ctx.in(n, i).init && ctx.in(n, i).shape.size() == 2;
}

// The Add node that adds a 1-D initializer of `cols` elements to `value` and is its only
// reader, or nullptr.
const Node* biasAdd(Context& ctx, const std::string& value, int64_t cols, size_t& bias) {
  auto it = ctx.consumers.find(value);
  if (it == ctx.consumers.end() || it->second.size() != 1) return nullptr;
  for (const ValueInfo& o : ctx.model.outputs)
    if (o.name == value) return nullptr;
  const int idx = it->second[0];
  const Node& add = ctx.model.nodes[static_cast<size_t>(idx)];
  if (add.op_type != "Add" || add.inputs.size() != 2 || add.inputs[0] == add.inputs[1])
    return nullptr;
  bias = add.inputs[0] == value ? 1 : 0;
  const Value& b = ctx.in(add, bias);
  if (!b.init || b.shape != Ints{cols}) return nullptr;
  if (ctx.values[add.outputs.at(0)].shape != ctx.values[value].shape) return nullptr;
  ctx.folded[static_cast<size_t>(idx)] = true;
  return &add;
}

// x [..., K] times the initializer w [K, N] ([N, K] with transpose_b).
void matmulWeight(Context& ctx, const Node& n, size_t ai, size_t bi, bool transpose_b, size_t ci) {
  const Ints& a = ctx.in(n, ai).shape;
  const Ints& w = ctx.in(n, bi).shape;
  const int64_t k = transpose_b ? w[1] : w[0], cols = transpose_b ? w[0] : w[1];
  if (a.empty() || a.back() != k)
    ctx.fail(n, "inner dimensions differ: " + shapeText(a) + " x " + shapeText(w));
  Op op = ctx.makeOp(n, OpKind::MatMul, {ctx.tensorOf(n, ai), ctx.tensorOf(n, bi)});
  op.transpose_b = transpose_b;
  op.gemm = {1, product(a) / std::max<int64_t>(k, 1), cols, k};
  if (k == 0) op.gemm.m = product(a, 0, a.size() - 1);
  op.macs = op.gemm.macs();
  size_t bias = 0;
  const Node* add = nullptr;
  if (ci != SIZE_MAX && ctx.has(n, ci)) {
    op.inputs.push_back(ctx.tensorOf(n, ci));
  } else if (ci == SIZE_MAX && (add = biasAdd(ctx, n.outputs.at(0), cols, bias))) {
    op.inputs.push_back(ctx.tensorOf(*add, bias));
  }
  const int t = ctx.emit(n, std::move(op));
  if (add) ctx.alias(*add, 0, t);
}

// Two activations (or batched weights): numpy matmul, batch dims broadcast. `a` overrides
// input ai's tensor (a transposed copy) with shape a_shape.
Op batchMatmulOp(Context& ctx, const Node& n, size_t ai, size_t bi, bool transpose_b, int a = -1,
                 Ints a_shape = {}) {
  Ints b = ctx.in(n, bi).shape;
  if (a < 0) a_shape = ctx.in(n, ai).shape;
  if (a_shape.empty() || b.empty()) ctx.fail(n, "matmul of a scalar");
  if (a_shape.size() == 1) a_shape.insert(a_shape.begin(), 1);
  if (b.size() == 1) b.insert(transpose_b ? b.begin() : b.end(), 1);
  const int64_t k = a_shape.back(), cols = transpose_b ? b[b.size() - 2] : b.back();
  if ((transpose_b ? b.back() : b[b.size() - 2]) != k)
    ctx.fail(n, "inner dimensions differ: " + shapeText(a_shape) + " x " + shapeText(b));
  bool ok = true;
  const Ints batch =
      broadcast(Ints(a_shape.begin(), a_shape.end() - 2), Ints(b.begin(), b.end() - 2), ok);
  if (!ok) ctx.fail(n, "batch dimensions do not broadcast");
  Op op = ctx.makeOp(n, OpKind::BatchMatMul,
                     {a >= 0 ? a : ctx.tensorOf(n, ai, true), ctx.tensorOf(n, bi, true)});
  op.attn.heads = 0;
  op.attn.transpose_b = transpose_b;
  op.gemm = {product(batch), a_shape[a_shape.size() - 2], cols, k};
  op.macs = op.gemm.macs();
  return op;
}

void batchMatmul(Context& ctx, const Node& n, size_t ai, size_t bi, bool transpose_b) {
  ctx.emit(n, batchMatmulOp(ctx, n, ai, bi, transpose_b));
}

bool matmulAt(Context& ctx, const Node& n, size_t ai, size_t bi) {
  if (isWeight(ctx, n, bi))
    matmulWeight(ctx, n, ai, bi, false, SIZE_MAX);
  else
    batchMatmul(ctx, n, ai, bi, false);
  return true;
}

bool matmul(Context& ctx, const Node& n) { return matmulAt(ctx, n, 0, 1); }
bool qlinearMatmul(Context& ctx, const Node& n) { return matmulAt(ctx, n, 0, 3); }

// Gemm: alpha * A' B' + beta * C. alpha and beta scale the weight and bias values.
bool gemm(Context& ctx, const Node& n) {
  const bool ta = ctx.attrInt(n, "transA", 0) != 0, tb = ctx.attrInt(n, "transB", 0) != 0;
  const double alpha = ctx.attrFloat(n, "alpha", 1.0), beta = ctx.attrFloat(n, "beta", 1.0);
  if (ctx.in(n, 0).shape.size() != 2 || ctx.in(n, 1).shape.size() != 2)
    ctx.fail(n, "A and B must be 2-D");
  const Ints& b = ctx.in(n, 1).shape;
  const int64_t cols = tb ? b[0] : b[1];
  const bool bias = ctx.has(n, 2) && ctx.in(n, 2).init && product(ctx.in(n, 2).shape) == cols &&
                    ctx.in(n, 2).shape.back() == cols;
  if (!ta && isWeight(ctx, n, 1) && (bias || !ctx.has(n, 2))) {
    auto scale = [&](size_t i, double f) {
      if (f == 1.0) return;
      DerivedWeight d;
      d.kind = DerivedWeight::Kind::Scaled;
      d.sources = {n.inputs[i]};
      d.factor = static_cast<float>(f);
      ctx.derived[n.inputs[i]] = d;
    };
    scale(1, alpha);
    if (bias) scale(2, beta);
    matmulWeight(ctx, n, 0, 1, tb, bias ? 2 : SIZE_MAX);
    return true;
  }
  // General form: a transposed copy of A, a BatchMatMul, then C added (broadcast).
  int a = -1;
  Ints a_shape = ctx.in(n, 0).shape;
  if (ta) {
    Op t = ctx.makeOp(n, OpKind::Transpose, {ctx.tensorOf(n, 0, true)});
    t.layout.perm = {1, 0};
    t.layout.on_accelerator = true;
    std::swap(a_shape[0], a_shape[1]);
    a = ctx.emitTemp(n, std::move(t), ".transA", a_shape, ctx.g.tensor(ctx.tensorOf(n, 0)).dtype);
  }
  Op mm = batchMatmulOp(ctx, n, 0, 1, tb, a, a_shape);
  if (!ctx.has(n, 2)) {
    ctx.emit(n, std::move(mm));
    return true;
  }
  const Ints& y = ctx.values[n.outputs.at(0)].shape;
  const int prod =
      ctx.emitTemp(n, std::move(mm), ".matmul", y, ctx.dtypeOf(ctx.values[n.outputs.at(0)].type));
  const bool same = ctx.in(n, 2).shape == y;
  ctx.emit(n, ctx.makeOp(n, OpKind::Add, {prod, ctx.tensorOf(n, 2, !same)}));
  return true;
}

}  // namespace

void addGemmConverters(std::map<std::string, Converter>& t) {
  t["MatMul"] = matmul;
  t["MatMulInteger"] = matmul;
  t["QLinearMatMul"] = qlinearMatmul;
  t["Gemm"] = gemm;
}

}  // namespace tessel::models::onnx
