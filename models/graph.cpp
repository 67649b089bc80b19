#include "models/graph.h"
#include "models/op_budget.h"

#include <string>

#include "util/budget.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::models {

int64_t Tensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;  // addTensor checked that this fits
  return n;
}

namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s;
  for (int64_t d : shape) s += (s.empty() ? "" : "x") + std::to_string(d);
  return "[" + s + "]";
}

}  // namespace

int64_t GemmShape::macs() const {
  auto what = [this] {
    return "the MACs of a " + std::to_string(batch) + "x" + std::to_string(m) + "x" +
           std::to_string(n) + "x" + std::to_string(k) + " GEMM";
  };
  return checked::mul(checked::mul(checked::mul(batch, m, what), n, what), k, what);
}

int Graph::addTensor(std::string name, std::vector<int64_t> shape, DType dtype, TensorRole role) {
  for (int64_t d : shape) {
    if (d < 0) throw Error("tensor '" + name + "' has a negative dimension");
  }
  // Every later count (bytes, traffic, MACs) derives from shapes: bound them here, once.
  auto what = [&] { return "the bytes of tensor '" + name + "' " + shapeText(shape); };
  int64_t elements = 1;
  for (int64_t d : shape) elements = checked::mul(elements, d, what);
  checked::mul(elements, int64_t{elementBits(dtype)}, what);  // storageBytes stays in range
  Tensor t;
  t.id = static_cast<int>(tensors_.size());
  t.name = std::move(name);
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.role = role;
  tensors_.push_back(std::move(t));
  producer_.push_back(-1);
  consumers_.emplace_back();
  return tensors_.back().id;
}

// The one rule for every loader (ONNX, Hugging Face configs, SCALE-Sim topologies, layer specs):
// an op's dimensions are at least 1. A 0 written in a model file would otherwise make a 0-MAC op
// that no mapping can tile. ConfigError naming the op and where it came from; a loader that
// knows the file and node (Op::source) rethrows it there.
void Graph::checkDims(const Op& op) const {
  auto zero = [&](const std::string& what, const std::vector<int64_t>& shape) {
    std::string dims;
    for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    throw ConfigError({"", 0, 0, op.source.empty() ? "workload" : op.source},
                      "op '" + op.name + "': " + what + " [" + dims +
                          "] has a dimension below 1; every op dimension must be at least 1");
  };
  for (int t : op.outputs) {
    if (t < 0 || static_cast<size_t>(t) >= tensors_.size()) continue;  // checkOp says so
    for (int64_t d : tensor(t).shape) {
      if (d < 1) zero("output '" + tensor(t).name + "'", tensor(t).shape);
    }
  }
  const GemmShape& g = op.gemm;
  if (op.isGemmLike() && (g.m != 0 || g.n != 0 || g.k != 0)) {  // all 0: no view set (yet)
    if (g.batch < 1 || g.m < 1 || g.n < 1 || g.k < 1) {
      zero("its GEMM view (batch, m, n, k)", {g.batch, g.m, g.n, g.k});
    }
  }
}

void Graph::checkOp(const Op& op) const {
  auto fail = [&](const std::string& why) { throw Error("op '" + op.name + "': " + why); };
  auto exists = [&](int t) { return t >= 0 && static_cast<size_t>(t) < tensors_.size(); };
  if (op.name.empty()) throw Error("op without a name");
  if (op_by_name_.count(op.name)) fail("duplicate op name");
  for (int t : op.inputs) {
    if (!exists(t)) fail("input tensor " + std::to_string(t) + " does not exist");
    // An activation read before it is produced would break topological order.
    if (tensor(t).role == TensorRole::Activation && producer_[static_cast<size_t>(t)] < 0) {
      fail("input '" + tensor(t).name + "' is not produced by an earlier op");
    }
  }
  if (op.outputs.empty()) fail("no outputs");
  checkDims(op);
  if (op.isGemmLike()) {
    // The GEMM view's operands (the im2col input of a conv) and MACs must be countable.
    const GemmShape& g = op.gemm;
    auto in = [&] { return "op '" + op.name + "' input (im2col) elements"; };
    auto w = [&] { return "op '" + op.name + "' weight elements"; };
    auto out = [&] { return "op '" + op.name + "' output elements"; };
    checked::mul(checked::mul(g.batch, g.m, in), g.k, in);
    checked::mul(checked::mul(g.batch, g.k, w), g.n, w);
    checked::mul(checked::mul(g.batch, g.m, out), g.n, out);
    g.macs();
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    int t = op.outputs[i];
    if (!exists(t)) fail("output tensor " + std::to_string(t) + " does not exist");
    if (tensor(t).role != TensorRole::Activation)
      fail("output '" + tensor(t).name + "' is not an activation");
    if (producer_[static_cast<size_t>(t)] >= 0)
      fail("output '" + tensor(t).name + "' is already produced");
    for (size_t j = 0; j < i; ++j) {
      if (op.outputs[j] == t) fail("output '" + tensor(t).name + "' listed twice");
    }
  }
}

void Graph::indexOp(const Op& op) {
  op_by_name_.emplace(op.name, op.id);
  for (int t : op.outputs) producer_[static_cast<size_t>(t)] = op.id;
  for (int t : op.inputs) {
    auto& readers = consumers_[static_cast<size_t>(t)];
    // Inputs are appended in op order, so a repeat read by this op is always at the back.
    if (readers.empty() || readers.back() != op.id) readers.push_back(op.id);
  }
}

int Graph::addOp(Op op) {
  checkOp(op);
  // Before the op list doubles, a builder that was told to make millions of ops is stopped
  // (util/budget.h), whichever builder or importer it is; readers check their fields first.
  if (ops_.size() == ops_.capacity() && ops_.size() >= 4096) {
    budget::checkCount(static_cast<int64_t>(2 * ops_.size()), bytesPerOp(),
                       "ops in '" + name + "'", {"", 0, 0, "workload"});
  }
  op.id = static_cast<int>(ops_.size());
  ops_.push_back(std::move(op));
  indexOp(ops_.back());
  return ops_.back().id;
}

int Graph::findOp(std::string_view name) const {
  auto it = op_by_name_.find(std::string(name));
  return it == op_by_name_.end() ? -1 : it->second;
}

void Graph::reindex() {
  producer_.assign(tensors_.size(), -1);
  consumers_.assign(tensors_.size(), {});
  op_by_name_.clear();
  // Re-validate as if the ops were added again, so edits cannot break topological order.
  for (size_t i = 0; i < ops_.size(); ++i) {
    ops_[i].id = static_cast<int>(i);
    checkOp(ops_[i]);
    indexOp(ops_[i]);
  }
}

int64_t Graph::totalMacs() const {
  int64_t total = 0;
  for (const Op& op : ops_)
    total = checked::add(total, op.macs, [&] { return "the MACs of " + name; });
  return total;
}

int64_t Graph::parameterCount() const {
  // Each Weight tensor is counted once however many ops read it (the tied LM head).
  int64_t total = folded_parameters;
  for (const Tensor& t : tensors_) {
    if (t.role == TensorRole::Weight && t.parameter)
      total = checked::add(total, t.elements(), [&] { return "the parameters of " + name; });
  }
  return total;
}

int Graph::producerOf(int tensor_id) const { return producer_.at(static_cast<size_t>(tensor_id)); }

std::vector<int> Graph::consumersOf(int tensor_id) const {
  return consumers_.at(static_cast<size_t>(tensor_id));
}

}  // namespace tessel::models
