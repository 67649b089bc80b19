#include "models/onnx/context.h"

#include <algorithm>
#include <cctype>
#include <climits>

#include "util/error.h"

namespace tessel::models::onnx {

int64_t Context::opset() const {
  auto it = model.opsets.find("");
  return it == model.opsets.end() ? 1 : it->second;
}

DType Context::dtypeOf(ElemType t) const {
  switch (t) {
    case ElemType::Int8:
    case ElemType::Uint8:
    case ElemType::Bool:
      return DType::Int8;
    case ElemType::Int16:
    case ElemType::Uint16:
      return DType::Int16;
    case ElemType::Int32:
    case ElemType::Int64:
    case ElemType::Uint32:
    case ElemType::Uint64:
      return DType::Int32;
    default:
      return options.dtype;
  }
}

void Context::fail(const Node& n, const std::string& why) const {
  throw ConfigError({model.path, 0, 0, "workload"}, where(n) + ": " + why);
}

Value& Context::in(const Node& n, size_t i) {
  if (!has(n, i)) fail(n, "input " + std::to_string(i) + " is missing");
  auto it = values.find(n.inputs[i]);
  if (it == values.end()) fail(n, "reads '" + n.inputs[i] + "', which nothing provides");
  return it->second;
}

// An initializer's values are a parameter unless they are shapes or indices (int64), masks
// (bool) or text; int8/int32 initializers are a quantized model's weights and biases.
static bool isParameterType(ElemType t) {
  return t != ElemType::Int64 && t != ElemType::Uint64 && t != ElemType::Bool &&
         t != ElemType::String;
}

int Context::tensorOf(const Node& n, size_t i, bool exact, std::optional<DType> as) {
  Value& v = in(n, i);
  const std::string& name = n.inputs[i];
  if (v.tensor < 0 && (v.init || v.ints || v.floats)) {
    // Constants become Weight tensors only when an op reads them as data.
    const DType t = as ? *as : dtypeOf(v.type);
    v.tensor = g.addTensor(name, v.shape, t, TensorRole::Weight);
    g.tensor(v.tensor).parameter = v.init && isParameterType(v.type);
    if (!v.init) {
      DerivedWeight d;
      if (v.ints)
        d.values.assign(v.ints->begin(), v.ints->end());
      else
        d.values.assign(v.floats->begin(), v.floats->end());
      derived[name] = std::move(d);
    }
  }
  if (v.tensor < 0) fail(n, "input '" + name + "' has no data the graph can read");
  if (exact && g.tensor(v.tensor).shape != v.shape) {
    // A view whose reader needs its own shape: one copy, shared by every later reader.
    Op op;
    op.name = name + ".view";
    for (int k = 2; g.findOp(op.name) >= 0; ++k) op.name = name + ".view" + std::to_string(k);
    op.kind = OpKind::Elementwise;
    op.elt.fn = "reshape";
    op.inputs = {v.tensor};
    op.source = where(n);
    op.outputs = {g.addTensor(name, v.shape, g.tensor(v.tensor).dtype, TensorRole::Activation)};
    g.addOp(op);
    v.tensor = op.outputs[0];
    ++views_copied;
  }
  return v.tensor;
}

Op Context::makeOp(const Node& n, OpKind kind, std::vector<int> inputs) const {
  Op op;
  op.kind = kind;
  op.inputs = std::move(inputs);
  op.source = where(n);
  return op;
}

int Context::emit(const Node& n, Op op, size_t out, std::optional<DType> dtype) {
  if (out >= n.outputs.size() || n.outputs[out].empty())
    fail(n, "has no output " + std::to_string(out));
  Value& v = values[n.outputs[out]];
  const DType t = dtype ? *dtype : dtypeOf(v.type);
  if (op.name.empty())
    op.name = n.outputs.size() > 1 && out > 0 ? n.name + ":" + std::to_string(out) : n.name;
  const std::string base = op.name;
  for (int k = 2; g.findOp(op.name) >= 0; ++k) op.name = base + "#" + std::to_string(k);
  if (op.source.empty()) op.source = where(n);
  try {
    op.outputs = {g.addTensor(n.outputs[out], v.shape, t, TensorRole::Activation)};
    g.addOp(std::move(op));
  } catch (const ConfigError& e) {
    if (!e.where().file.empty()) throw;
    fail(n, e.message());  // the graph's rules, located at the node
  } catch (const Error& e) {
    fail(n, e.what());
  }
  v.tensor = g.ops().back().outputs[0];
  return v.tensor;
}

int Context::emitTemp(const Node& n, Op op, const std::string& suffix, std::vector<int64_t> shape,
                      DType dtype) {
  op.name = n.name + suffix;
  for (int k = 2; g.findOp(op.name) >= 0; ++k) op.name = n.name + suffix + std::to_string(k);
  if (op.source.empty()) op.source = where(n);
  op.outputs = {g.addTensor(op.name, std::move(shape), dtype, TensorRole::Activation)};
  g.addOp(op);
  return op.outputs[0];
}

void Context::alias(const Node& n, size_t out, int t) {
  if (out < n.outputs.size() && !n.outputs[out].empty()) values[n.outputs[out]].tensor = t;
}

const Attribute* Context::attr(const Node& n, const std::string& name) const {
  auto it = n.attributes.find(name);
  return it == n.attributes.end() ? nullptr : &it->second;
}

int64_t Context::attrInt(const Node& n, const std::string& name, int64_t fallback) const {
  const Attribute* a = attr(n, name);
  return a && a->kind == Attribute::Kind::Int ? a->i : fallback;
}

double Context::attrFloat(const Node& n, const std::string& name, double fallback) const {
  const Attribute* a = attr(n, name);
  return a && a->kind == Attribute::Kind::Float ? a->f : fallback;
}

std::vector<int64_t> Context::attrInts(const Node& n, const std::string& name) const {
  const Attribute* a = attr(n, name);
  return a && a->kind == Attribute::Kind::Ints ? a->ints : std::vector<int64_t>{};
}

std::string Context::attrString(const Node& n, const std::string& name,
                                const std::string& fb) const {
  const Attribute* a = attr(n, name);
  return a && a->kind == Attribute::Kind::String ? a->s : fb;
}

std::optional<std::vector<int64_t>> Context::constInts(const Node& n, size_t i) {
  if (!has(n, i)) return std::nullopt;
  return in(n, i).ints;
}

std::optional<double> Context::constFloat(const Node& n, size_t i) {
  if (!has(n, i)) return std::nullopt;
  const Value& v = in(n, i);
  if (v.ints && v.ints->size() == 1) return static_cast<double>((*v.ints)[0]);
  if (v.floats && v.floats->size() == 1) return (*v.floats)[0];
  return std::nullopt;
}

int64_t Context::dim(const Node& n, __int128 v) const {
  if (v > INT64_MAX || v < INT64_MIN) fail(n, "a computed dimension is too large");
  return static_cast<int64_t>(v);
}

int Context::axis(const Node& n, int64_t a, size_t rank) const {
  const int64_t r = static_cast<int64_t>(rank);
  if (a < -r || a >= r) {
    fail(n, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
  }
  return static_cast<int>(a < 0 ? a + r : a);
}

void Context::genericOp(const Node& n, const std::string& fn, bool warn, bool modeled) {
  if (warn && options.strict) {
    const std::string what =
        modeled ? "tessel cannot model this " + n.op_type + " node" +
                      (why_generic.empty() ? std::string() : " (" + why_generic + ")")
                : "tessel has no model for op type '" + n.op_type + "'";
    fail(n, what + "; without --strict it is costed as a generic elementwise op");
  }
  if (warn) generic[n.op_type].push_back(n.name);
  std::vector<int> inputs;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    if (!has(n, i)) continue;
    Value& v = in(n, i);
    if (v.tensor >= 0 || v.init || v.ints) inputs.push_back(tensorOf(n, i));
  }
  for (size_t o = 0; o < n.outputs.size(); ++o) {
    if (n.outputs[o].empty()) continue;
    Op op = makeOp(n, OpKind::Elementwise, inputs);
    op.elt.fn = fn;
    emit(n, std::move(op), o);
  }
}

int64_t product(const std::vector<int64_t>& v, size_t from, size_t to) {
  // Saturating: shapes from a file are checked after they are computed (shapes.cpp).
  __int128 p = 1;
  for (size_t i = from; i < std::min(to, v.size()); ++i) {
    p *= v[i];
    if (p > INT64_MAX) p = INT64_MAX;
    if (p < INT64_MIN) p = INT64_MIN;
  }
  return static_cast<int64_t>(p);
}

std::vector<int64_t> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                               bool& ok) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    const int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (x != y && x != 1 && y != 1) ok = false;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t;
  for (int64_t d : s) t += (t.empty() ? "" : "x") + std::to_string(d);
  return "[" + t + "]";
}

}  // namespace tessel::models::onnx
