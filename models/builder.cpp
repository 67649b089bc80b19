#include "models/builder.h"

#include <utility>

namespace tessel::models::detail {

int Builder::input(const std::string& name, std::vector<int64_t> shape, DType type) {
  return g.addTensor(name, std::move(shape), type, TensorRole::Input);
}

int Builder::weight(const std::string& name, std::vector<int64_t> shape) {
  return g.addTensor(name, std::move(shape), dtype, TensorRole::Weight);
}

int Builder::emit(Op op, std::vector<int64_t> out_shape) {
  int out = g.addTensor(op.name, std::move(out_shape), dtype, TensorRole::Activation);
  op.outputs = {out};
  op.layer = layer;
  g.addOp(std::move(op));
  return out;
}

Op makeOp(std::string name, OpKind kind, std::vector<int> inputs) {
  Op op;
  op.name = std::move(name);
  op.kind = kind;
  op.inputs = std::move(inputs);
  return op;
}

int linear(Builder& b, const std::string& name, int x, int64_t n, bool bias) {
  std::vector<int64_t> shape = b.shape(x);
  const int64_t k = shape.back();
  Op op = makeOp(name, OpKind::MatMul, {x, b.weight(name + ".weight", {k, n})});
  if (bias) op.inputs.push_back(b.weight(name + ".bias", {n}));
  // Every leading dim (batch, sequence) is a row of one GEMM against the shared weight.
  op.gemm = {1, b.g.tensor(x).elements() / k, n, k};
  op.macs = op.gemm.macs();
  shape.back() = n;
  return b.emit(std::move(op), std::move(shape));
}

int unary(Builder& b, const std::string& name, OpKind kind, int x) {
  return b.emit(makeOp(name, kind, {x}), b.shape(x));
}

int add(Builder& b, const std::string& name, int x, int y) {
  return b.emit(makeOp(name, OpKind::Add, {x, y}), b.shape(x));
}

int layerNorm(Builder& b, const std::string& name, int x, float eps) {
  const int64_t d = b.shape(x).back();
  Op op = makeOp(name, OpKind::LayerNorm,
                 {x, b.weight(name + ".gamma", {d}), b.weight(name + ".beta", {d})});
  op.eps = eps;
  return b.emit(std::move(op), b.shape(x));
}

int embedding(Builder& b, const std::string& name, int ids, int64_t rows, int64_t dim) {
  std::vector<int64_t> shape = b.shape(ids);
  shape.push_back(dim);
  Op op = makeOp(name, OpKind::Embedding, {ids, b.weight(name + ".weight", {rows, dim})});
  return b.emit(std::move(op), std::move(shape));
}

}  // namespace tessel::models::detail
