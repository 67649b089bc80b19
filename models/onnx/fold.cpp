// Integer constant folding for shape arithmetic (torch exports compute Reshape targets with
// Shape -> Gather -> Unsqueeze -> Concat chains). Only small integer tensors fold.
#include <algorithm>
#include <climits>

#include "models/onnx/context.h"

namespace tessel::models::onnx {
namespace {

using Ints = std::vector<int64_t>;

void set(Context& ctx, const Node& n, Ints shape, Ints ints, ElemType type = ElemType::Int64) {
  if (n.outputs.empty() || n.outputs[0].empty()) return;
  if (static_cast<int64_t>(ints.size()) != product(shape) ||
      static_cast<int64_t>(ints.size()) > kSmallTensorElements)
    return;
  Value& v = ctx.values[n.outputs[0]];
  if (!v.inferred) {
    v.shape = std::move(shape);
    v.inferred = true;
  }
  if (v.type == ElemType::Undefined) v.type = type;
  v.ints = std::move(ints);
}

void setFloats(Context& ctx, const Node& n, Ints shape, std::vector<double> values,
               ElemType type = ElemType::Float) {
  if (n.outputs.empty() || n.outputs[0].empty()) return;
  if (static_cast<int64_t>(values.size()) != product(shape)) return;
  Value& v = ctx.values[n.outputs[0]];
  if (!v.inferred) {
    v.shape = std::move(shape);
    v.inferred = true;
  }
  if (v.type == ElemType::Undefined) v.type = type;
  v.floats = std::move(values);
}

bool known(Context& ctx, const Node& n, std::initializer_list<size_t> idx) {
  for (size_t i : idx)
    if (!ctx.has(n, i) || !ctx.in(n, i).ints) return false;
  return true;
}

// Shape arithmetic in 128 bits: a result outside int64 is not folded (ok = false).
int64_t binary(const std::string& op, int64_t a, int64_t b, bool& ok) {
  __int128 r = 0;
  if (op == "Add")
    r = static_cast<__int128>(a) + b;
  else if (op == "Sub")
    r = static_cast<__int128>(a) - b;
  else if (op == "Mul")
    r = static_cast<__int128>(a) * b;
  else if (op == "Div")
    r = b == 0 ? 0 : static_cast<__int128>(a) / b;
  else if (op == "Mod")
    r = b == 0 ? 0 : static_cast<__int128>(a) % b;
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod") {
    ok = ok && r >= INT64_MIN && r <= INT64_MAX;
    return ok ? static_cast<int64_t>(r) : 0;
  }
  if (op == "Max") return std::max(a, b);
  if (op == "Min") return std::min(a, b);
  if (op == "Equal") return a == b;
  if (op == "Less") return a < b;
  if (op == "Greater") return a > b;
  if (op == "And") return a && b;
  return a || b;  // Or
}

void foldBinary(Context& ctx, const Node& n) {
  if (!known(ctx, n, {0, 1})) return;
  const Value& a = ctx.in(n, 0);
  const Value& b = ctx.in(n, 1);
  bool ok = true;
  Ints shape = broadcast(a.shape, b.shape, ok);
  if (!ok) return;
  const size_t size = static_cast<size_t>(product(shape));
  if ((a.ints->size() != size && a.ints->size() != 1) ||
      (b.ints->size() != size && b.ints->size() != 1))
    return;  // only same-size or scalar operands fold
  Ints out(size);
  bool fits = true;
  for (size_t i = 0; i < size; ++i)
    out[i] = binary(n.op_type, (*a.ints)[a.ints->size() == 1 ? 0 : i],
                    (*b.ints)[b.ints->size() == 1 ? 0 : i], fits);
  if (!fits) return;
  const bool logical = n.op_type == "Equal" || n.op_type == "Less" || n.op_type == "Greater";
  set(ctx, n, shape, out, logical ? ElemType::Bool : a.type);
}

void foldGather(Context& ctx, const Node& n) {
  if (!known(ctx, n, {0, 1})) return;
  const Value& data = ctx.in(n, 0);
  const Value& idx = ctx.in(n, 1);
  if (data.shape.size() != 1) return;
  Ints out;
  const int64_t size = static_cast<int64_t>(data.ints->size());
  for (int64_t i : *idx.ints) {
    if (i < -size || i >= size) ctx.fail(n, "index " + std::to_string(i) + " is out of range");
    out.push_back((*data.ints)[static_cast<size_t>(i < 0 ? i + size : i)]);
  }
  set(ctx, n, idx.shape, out, data.type);
}

void foldSlice(Context& ctx, const Node& n) {
  if (!known(ctx, n, {0}) || ctx.in(n, 0).shape.size() != 1) return;
  const Ints& data = *ctx.in(n, 0).ints;
  Ints starts = ctx.attrInts(n, "starts"), ends = ctx.attrInts(n, "ends"), steps{1};
  if (ctx.has(n, 1)) {
    if (!known(ctx, n, {1, 2})) return;
    starts = *ctx.in(n, 1).ints;
    ends = *ctx.in(n, 2).ints;
    if (ctx.has(n, 4)) {
      if (!known(ctx, n, {4})) return;
      steps = *ctx.in(n, 4).ints;
    }
  }
  if (starts.size() != 1 || ends.size() != 1 || steps.size() != 1 || steps[0] == 0) return;
  const int64_t size = static_cast<int64_t>(data.size()), step = steps[0];
  auto clamp = [&](int64_t x, int64_t lo, int64_t hi) {
    if (x < 0) x += size;
    return std::min(std::max(x, lo), hi);
  };
  int64_t s = step > 0 ? clamp(starts[0], 0, size) : clamp(starts[0], -1, size - 1);
  const int64_t e = step > 0 ? clamp(ends[0], 0, size) : clamp(ends[0], -1, size - 1);
  Ints out;
  for (__int128 i = s; step > 0 ? i < e : i > e; i += step)
    out.push_back(data[static_cast<size_t>(i)]);
  set(ctx, n, {static_cast<int64_t>(out.size())}, out, ctx.in(n, 0).type);
}

void foldConcat(Context& ctx, const Node& n) {
  Ints out;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    if (!ctx.has(n, i)) continue;
    const Value& v = ctx.in(n, i);
    if (!v.ints || v.shape.size() != 1) return;
    out.insert(out.end(), v.ints->begin(), v.ints->end());
  }
  set(ctx, n, {static_cast<int64_t>(out.size())}, out);
}

void foldRange(Context& ctx, const Node& n) {
  if (!known(ctx, n, {0, 1, 2}) || ctx.in(n, 0).ints->empty() || ctx.in(n, 1).ints->empty() ||
      ctx.in(n, 2).ints->empty())
    return;
  const int64_t start = ctx.in(n, 0).ints->at(0), limit = ctx.in(n, 1).ints->at(0),
                delta = ctx.in(n, 2).ints->at(0);
  if (delta == 0) ctx.fail(n, "delta is 0");
  Ints out;
  for (__int128 x = start; delta > 0 ? x < limit : x > limit; x += delta) {
    out.push_back(static_cast<int64_t>(x));
    if (static_cast<int64_t>(out.size()) > kSmallTensorElements) return;
  }
  set(ctx, n, {static_cast<int64_t>(out.size())}, out, ctx.in(n, 0).type);
}

void foldConstant(Context& ctx, const Node& n) {
  const Attribute* t = ctx.attr(n, "value");
  if (t && t->tensor && !t->tensor->floats.empty()) {
    setFloats(ctx, n, t->tensor->dims, t->tensor->floats, t->tensor->type);
  } else if (t && t->tensor && !t->tensor->ints.empty()) {
    set(ctx, n, t->tensor->dims, t->tensor->ints, t->tensor->type);
  } else if (const Attribute* i = ctx.attr(n, "value_int")) {
    set(ctx, n, {}, {i->i});
  } else if (const Attribute* is = ctx.attr(n, "value_ints")) {
    set(ctx, n, {static_cast<int64_t>(is->ints.size())}, is->ints);
  } else if (const Attribute* f = ctx.attr(n, "value_float")) {
    setFloats(ctx, n, {}, {f->f});
  } else if (const Attribute* fs = ctx.attr(n, "value_floats")) {
    setFloats(ctx, n, {static_cast<int64_t>(fs->floats.size())}, fs->floats);
  }
}

void foldShapeOp(Context& ctx, const Node& n) {
  const Value& x = ctx.in(n, 0);
  if (!x.inferred) return;
  if (n.op_type == "Size") return set(ctx, n, {}, {product(x.shape)});
  const int64_t r = static_cast<int64_t>(x.shape.size());
  auto clamp = [&](int64_t a) { return std::min(std::max(a < 0 ? a + r : a, int64_t{0}), r); };
  const int64_t s = clamp(ctx.attrInt(n, "start", 0)), e = clamp(ctx.attrInt(n, "end", r));
  Ints out(x.shape.begin() + s, x.shape.begin() + std::max(s, e));
  set(ctx, n, {static_cast<int64_t>(out.size())}, out);
}

}  // namespace

void foldConstants(Context& ctx, const Node& n) {
  const std::string& op = n.op_type;
  if (!n.domain.empty() || n.outputs.empty()) return;
  if (op == "Shape" || op == "Size") return foldShapeOp(ctx, n);
  if (op == "Constant") return foldConstant(ctx, n);
  if (op == "Gather") return foldGather(ctx, n);
  if (op == "Concat") return foldConcat(ctx, n);
  if (op == "Slice") return foldSlice(ctx, n);
  if (op == "Range") return foldRange(ctx, n);
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" || op == "Max" ||
      op == "Min" || op == "Equal" || op == "Less" || op == "Greater" || op == "And" || op == "Or")
    return foldBinary(ctx, n);
  const bool same = op == "Cast" || op == "Identity" || op == "Floor" || op == "Ceil" ||
                    op == "Neg" || op == "Abs";
  const bool reshape = op == "Unsqueeze" || op == "Squeeze" || op == "Reshape" || op == "Flatten";
  if ((same || reshape) && known(ctx, n, {0})) {
    Ints v = *ctx.in(n, 0).ints;
    if ((op == "Neg" || op == "Abs") && std::find(v.begin(), v.end(), INT64_MIN) != v.end()) return;
    for (int64_t& x : v) x = op == "Neg" ? -x : op == "Abs" ? std::abs(x) : x;
    Value& out = ctx.values[n.outputs[0]];
    if (same && !out.inferred) {
      out.shape = ctx.in(n, 0).shape;
      out.inferred = true;
    }
    if (out.inferred)
      set(ctx, n, out.shape, v, ctx.in(n, 0).type);
    else if (reshape)
      ctx.values[n.outputs[0]].ints = v;  // shape comes from inferShape
  }
  if (op == "ConstantOfShape" && known(ctx, n, {0})) {
    const Attribute* t = ctx.attr(n, "value");
    if (t && t->tensor && t->tensor->ints.size() == 1) {
      const Ints shape = *ctx.in(n, 0).ints;
      if (product(shape) <= kSmallTensorElements &&
          std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; }))
        set(ctx, n, shape, Ints(static_cast<size_t>(product(shape)), t->tensor->ints[0]),
            t->tensor->type);
    }
  }
  if (op == "Where" && known(ctx, n, {0, 1, 2})) {
    const Ints &c = *ctx.in(n, 0).ints, &x = *ctx.in(n, 1).ints, &y = *ctx.in(n, 2).ints;
    const size_t size = std::max({c.size(), x.size(), y.size()});
    auto at = [&](const Ints& v, size_t i) { return v[v.size() == 1 ? 0 : i]; };
    if ((c.size() == size || c.size() == 1) && (x.size() == size || x.size() == 1) &&
        (y.size() == size || y.size() == 1)) {
      Ints out(size);
      for (size_t i = 0; i < size; ++i) out[i] = at(c, i) ? at(x, i) : at(y, i);
      bool ok = true;
      set(ctx, n,
          broadcast(broadcast(ctx.in(n, 0).shape, ctx.in(n, 1).shape, ok), ctx.in(n, 2).shape, ok),
          out, ctx.in(n, 1).type);
    }
  }
}

}  // namespace tessel::models::onnx
