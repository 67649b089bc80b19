// Views (no op: the output aliases its source's tensor), the layout copies the accelerator
// runs (Transpose, Concat, Split and Slice as Slice ops, Gather), Embedding, and constants.
#include <algorithm>

#include "models/onnx/context.h"

namespace tessel::models::onnx {
namespace {

using Ints = std::vector<int64_t>;

bool view(Context& ctx, const Node& n) {
  ctx.alias(n, 0, ctx.tensorOf(n, 0));
  return true;
}

Op layoutOp(Context& ctx, const Node& n, OpKind kind, std::vector<int> inputs) {
  Op op = ctx.makeOp(n, kind, std::move(inputs));
  op.layout.on_accelerator = true;
  return op;
}

bool transpose(Context& ctx, const Node& n) {
  const size_t rank = ctx.in(n, 0).shape.size();
  Ints perm = ctx.attrInts(n, "perm");
  if (perm.empty())
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  Op op = layoutOp(ctx, n, OpKind::Transpose, {ctx.tensorOf(n, 0)});
  for (int64_t p : perm) op.layout.perm.push_back(ctx.axis(n, p, rank));
  ctx.emit(n, std::move(op));
  return true;
}

bool concat(Context& ctx, const Node& n) {
  std::vector<int> inputs;
  for (size_t i = 0; i < n.inputs.size(); ++i)
    if (ctx.has(n, i) && product(ctx.in(n, i).shape) > 0) inputs.push_back(ctx.tensorOf(n, i));
  if (inputs.empty()) return false;
  Op op = layoutOp(ctx, n, OpKind::Concat, inputs);
  op.layout.axis = ctx.axis(n, ctx.attrInt(n, "axis", 0), ctx.values[n.outputs.at(0)].shape.size());
  ctx.emit(n, std::move(op));
  return true;
}

// One Slice op of input tensor `x` along `axis`, writing output `out` of n (or, with out ==
// SIZE_MAX, a fresh intermediate tensor of `shape`).
int slice(Context& ctx, const Node& n, int x, int axis, int64_t start, int64_t end, int64_t step,
          size_t out, const Ints& shape) {
  Op op = layoutOp(ctx, n, OpKind::Slice, {x});
  op.layout.axis = axis;
  op.layout.start = start;
  op.layout.end = end;
  op.layout.step = step;
  if (out != SIZE_MAX) return ctx.emit(n, std::move(op), out);
  op.name = n.name + ".axis" + std::to_string(axis);
  const int t = ctx.g.addTensor(op.name, shape, ctx.g.tensor(x).dtype, TensorRole::Activation);
  op.outputs = {t};
  ctx.g.addOp(std::move(op));
  return t;
}

bool split(Context& ctx, const Node& n) {
  const Ints& in = ctx.in(n, 0).shape;
  const int ax = ctx.axis(n, ctx.attrInt(n, "axis", 0), in.size());
  const int x = ctx.tensorOf(n, 0);
  int64_t start = 0;
  for (size_t o = 0; o < n.outputs.size(); ++o) {
    if (n.outputs[o].empty()) continue;
    const std::vector<int64_t>& out = ctx.values[n.outputs[o]].shape;
    if (out.size() != in.size()) ctx.fail(n, "an output's rank differs from the input's");
    const int64_t size = out[static_cast<size_t>(ax)];
    slice(ctx, n, x, ax, start, start + size, 1, o, {});
    start += size;
  }
  return true;
}

bool sliceOp(Context& ctx, const Node& n) {
  const Ints shape = ctx.in(n, 0).shape;
  auto ranges = sliceRanges(ctx, n, shape);
  if (!ranges) {
    ctx.why_generic = "bounds known only at run time";
    return false;
  }
  std::vector<SliceRange> cuts;
  for (const SliceRange& r : *ranges)
    if (r.size != shape[static_cast<size_t>(r.axis)] || r.step != 1) cuts.push_back(r);
  if (cuts.empty()) return view(ctx, n);
  int x = ctx.tensorOf(n, 0);
  Ints cur = shape;
  for (size_t i = 0; i < cuts.size(); ++i) {
    cur[static_cast<size_t>(cuts[i].axis)] = cuts[i].size;
    x = slice(ctx, n, x, cuts[i].axis, cuts[i].start, cuts[i].end, cuts[i].step,
              i + 1 == cuts.size() ? 0 : SIZE_MAX, cur);
  }
  return true;
}

bool gather(Context& ctx, const Node& n) {
  const Value& data = ctx.in(n, 0);
  const int ax = ctx.axis(n, ctx.attrInt(n, "axis", 0), data.shape.size());
  const bool ids = ctx.dtypeOf(ctx.in(n, 1).type) == DType::Int32;
  if (data.init && data.shape.size() == 2 && ax == 0 && ids) {
    ctx.emit(n, ctx.makeOp(n, OpKind::Embedding, {ctx.tensorOf(n, 1), ctx.tensorOf(n, 0)}));
    return true;
  }
  Op op = layoutOp(ctx, n, OpKind::Gather, {ctx.tensorOf(n, 0, true), ctx.tensorOf(n, 1)});
  op.layout.axis = ax;
  ctx.emit(n, std::move(op));
  return true;
}

// A constant the folding did not absorb (floats, or too big): a Weight tensor with its values.
bool constant(Context& ctx, const Node& n) {
  const std::string& name = n.outputs.at(0);
  Value& v = ctx.values[name];
  if (v.floats || v.ints) return true;  // small: a Weight tensor once an op reads it
  v.tensor = ctx.g.addTensor(name, v.shape, ctx.dtypeOf(v.type), TensorRole::Weight);
  ctx.g.tensor(v.tensor).parameter = false;  // a constant of the graph, not a learned value
  DerivedWeight d;
  const Attribute* a = ctx.attr(n, "value");
  const Attribute* f = ctx.attr(n, "value_float");
  const Attribute* fs = ctx.attr(n, "value_floats");
  if (a && a->tensor) {
    for (double x : a->tensor->floats) d.values.push_back(static_cast<float>(x));
    for (int64_t x : a->tensor->ints) d.values.push_back(static_cast<float>(x));
  } else if (f) {
    d.values = {static_cast<float>(f->f)};
  } else if (fs) {
    d.values.assign(fs->floats.begin(), fs->floats.end());
  }
  if (static_cast<int64_t>(d.values.size()) == product(v.shape)) ctx.derived[name] = std::move(d);
  return true;
}

bool constantOfShape(Context& ctx, const Node& n) {
  const std::string& name = n.outputs.at(0);
  Value& v = ctx.values[name];
  v.tensor = ctx.g.addTensor(name, v.shape, ctx.dtypeOf(v.type), TensorRole::Weight);
  ctx.g.tensor(v.tensor).parameter = false;  // a fill, not a learned value
  DerivedWeight d;
  d.kind = DerivedWeight::Kind::Fill;
  d.count = product(v.shape);
  const Attribute* a = ctx.attr(n, "value");
  d.values = {0.0f};
  if (a && a->tensor && !a->tensor->floats.empty())
    d.values[0] = static_cast<float>(a->tensor->floats[0]);
  if (a && a->tensor && !a->tensor->ints.empty())
    d.values[0] = static_cast<float>(a->tensor->ints[0]);
  ctx.derived[name] = std::move(d);
  return true;
}

}  // namespace

void addLayoutConverters(std::map<std::string, Converter>& t) {
  for (const char* v : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout"})
    t[v] = view;
  t["Transpose"] = transpose;
  t["Concat"] = concat;
  t["Split"] = split;
  t["Slice"] = sliceOp;
  t["Gather"] = gather;
  t["Constant"] = constant;
  t["ConstantOfShape"] = constantOfShape;
}

}  // namespace tessel::models::onnx
