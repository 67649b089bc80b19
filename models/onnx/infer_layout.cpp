// Shape rules of layout ops (Reshape, Squeeze/Unsqueeze, Reduce*, Split, Slice, Flatten,
// Transpose, Expand, ConstantOfShape, Concat) for values ONNX's inference left unknown.
#include <algorithm>
#include <climits>

#include "models/onnx/infer_util.h"

namespace tessel::models::onnx {
namespace {

using namespace infer;

bool reshape(Context& ctx, const Node& n) {
  auto target = ctx.constInts(n, 1);
  if (!ready(ctx, n, 0) || !target) return false;
  const Ints& in = ctx.in(n, 0).shape;
  const bool allowzero = ctx.attrInt(n, "allowzero", 0) != 0;
  Ints shape = *target;
  int unknown = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      if (i >= in.size()) ctx.fail(n, "a 0 in the target shape has no input dim to copy");
      shape[i] = in[i];
    } else if (shape[i] == -1) {
      if (unknown >= 0) ctx.fail(n, "the target shape has two -1 entries");
      unknown = static_cast<int>(i);
    } else if (shape[i] < 0) {
      ctx.fail(n, "the target shape " + shapeText(*target) + " has a negative dimension");
    }
  }
  const int64_t total = product(in);
  if (unknown >= 0) {
    shape[static_cast<size_t>(unknown)] = 1;
    const int64_t rest = product(shape);
    if (rest == 0 || total % rest != 0)
      ctx.fail(n, "cannot reshape " + shapeText(in) + " to " + shapeText(*target));
    shape[static_cast<size_t>(unknown)] = total / rest;
  }
  if (product(shape) != total)
    ctx.fail(n, "cannot reshape " + shapeText(in) + " to " + shapeText(*target));
  out(ctx, n, 0, shape, ctx.in(n, 0).type);
  return true;
}

Ints axesOf(Context& ctx, const Node& n, size_t input, bool& ok) {
  if (ctx.has(n, input)) {
    auto v = ctx.constInts(n, input);
    ok = v.has_value();
    return v ? *v : Ints{};
  }
  ok = true;
  return ctx.attrInts(n, "axes");
}

bool squeeze(Context& ctx, const Node& n, bool unsqueeze) {
  bool ok = false;
  Ints axes = axesOf(ctx, n, 1, ok);
  if (!ok || !ready(ctx, n, 0)) return false;
  Ints shape = ctx.in(n, 0).shape;
  if (unsqueeze) {
    const size_t rank = shape.size() + axes.size();
    for (int64_t& a : axes) a = ctx.axis(n, a, rank);
    std::sort(axes.begin(), axes.end());
    for (int64_t a : axes) shape.insert(shape.begin() + std::min<int64_t>(a, shape.size()), 1);
  } else {
    Ints kept;
    for (size_t i = 0; i < shape.size(); ++i) {
      bool drop = axes.empty() && shape[i] == 1;
      for (int64_t a : axes) drop |= ctx.axis(n, a, shape.size()) == static_cast<int>(i);
      if (!drop) kept.push_back(shape[i]);
    }
    shape = kept;
  }
  out(ctx, n, 0, shape, ctx.in(n, 0).type);
  return true;
}

bool reduce(Context& ctx, const Node& n) {
  bool ok = false;
  Ints axes = axesOf(ctx, n, 1, ok);
  if (!ok || !ready(ctx, n, 0)) return false;
  Ints shape = ctx.in(n, 0).shape;
  const bool keep = ctx.attrInt(n, "keepdims", 1) != 0;
  if (axes.empty() && ctx.attrInt(n, "noop_with_empty_axes", 0)) {
    out(ctx, n, 0, shape, ctx.in(n, 0).type);
    return true;
  }
  std::vector<bool> reduced(shape.size(), axes.empty());
  for (int64_t a : axes) reduced[static_cast<size_t>(ctx.axis(n, a, shape.size()))] = true;
  Ints result;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!reduced[i])
      result.push_back(shape[i]);
    else if (keep)
      result.push_back(1);
  }
  out(ctx, n, 0, result, ctx.in(n, 0).type);
  return true;
}

bool split(Context& ctx, const Node& n) {
  if (!ready(ctx, n, 0)) return false;
  const Ints& in = ctx.in(n, 0).shape;
  const int ax = ctx.axis(n, ctx.attrInt(n, "axis", 0), in.size());
  Ints sizes = ctx.attrInts(n, "split");
  if (ctx.has(n, 1)) {
    auto s = ctx.constInts(n, 1);
    if (!s) return false;
    sizes = *s;
  }
  const int64_t parts = static_cast<int64_t>(n.outputs.size());
  if (sizes.empty()) {
    const int64_t each = (in[static_cast<size_t>(ax)] + parts - 1) / std::max<int64_t>(parts, 1);
    for (int64_t i = 0, left = in [static_cast<size_t>(ax)]; i < parts; ++i, left -= each)
      sizes.push_back(std::max<int64_t>(0, std::min(each, left)));
  }
  if (static_cast<int64_t>(sizes.size()) != parts) ctx.fail(n, "split sizes do not match outputs");
  for (size_t i = 0; i < sizes.size(); ++i) {
    Ints shape = in;
    shape[static_cast<size_t>(ax)] = sizes[i];
    out(ctx, n, i, shape, ctx.in(n, 0).type);
  }
  return true;
}

bool slice(Context& ctx, const Node& n) {
  if (!ready(ctx, n, 0)) return false;
  Ints shape = ctx.in(n, 0).shape;
  auto ranges = sliceRanges(ctx, n, shape);
  if (!ranges) return false;
  for (const SliceRange& r : *ranges) shape[static_cast<size_t>(r.axis)] = r.size;
  out(ctx, n, 0, shape, ctx.in(n, 0).type);
  return true;
}

// Pad (pads as attribute or constant input), Tile (constant repeats), Resize/Upsample (sizes,
// or scales as constants).
bool padTileResize(Context& ctx, const Node& n) {
  if (!ready(ctx, n, 0)) return false;
  Ints shape = ctx.in(n, 0).shape;
  const size_t r = shape.size();
  const std::string& op = n.op_type;
  if (op == "Pad") {
    Ints pads = ctx.attrInts(n, "pads");
    if (ctx.has(n, 1)) {
      if (!ctx.constInts(n, 1)) return false;
      pads = *ctx.constInts(n, 1);
    }
    if (pads.size() != 2 * r || ctx.has(n, 3)) return false;
    for (size_t i = 0; i < r; ++i)
      shape[i] = ctx.dim(n, static_cast<__int128>(shape[i]) + pads[i] + pads[i + r]);
  } else if (op == "Tile") {
    auto reps = ctx.constInts(n, 1);
    if (!reps || reps->size() != r) return false;
    for (size_t i = 0; i < r; ++i)
      shape[i] = ctx.dim(n, static_cast<__int128>(shape[i]) * (*reps)[i]);
  } else {
    const size_t si = op == "Upsample" ? 1 : 2;
    if (op == "Resize" && ctx.has(n, 3) && ctx.constInts(n, 3) &&
        ctx.constInts(n, 3)->size() == r) {
      shape = *ctx.constInts(n, 3);
    } else if (ctx.has(n, si) && ctx.in(n, si).floats && ctx.in(n, si).floats->size() == r) {
      for (size_t i = 0; i < r; ++i) {
        const double d = static_cast<double>(shape[i]) * (*ctx.in(n, si).floats)[i];
        if (!(d >= 0 && d < 4e18)) ctx.fail(n, "a scale gives an impossible output size");
        shape[i] = static_cast<int64_t>(d);
      }
    } else {
      return false;
    }
  }
  for (int64_t d : shape)
    if (d < 0) ctx.fail(n, "the output would have a negative dimension " + shapeText(shape));
  out(ctx, n, 0, shape, ctx.in(n, 0).type);
  return true;
}

bool gather(Context& ctx, const Node& n) {
  if (!ready(ctx, n, 0) || !ready(ctx, n, 1)) return false;
  const Ints& data = ctx.in(n, 0).shape;
  const int ax = ctx.axis(n, ctx.attrInt(n, "axis", 0), data.size());
  Ints shape(data.begin(), data.begin() + ax);
  const Ints& idx = ctx.in(n, 1).shape;
  shape.insert(shape.end(), idx.begin(), idx.end());
  shape.insert(shape.end(), data.begin() + ax + 1, data.end());
  out(ctx, n, 0, shape, ctx.in(n, 0).type);
  return true;
}

}  // namespace

std::optional<std::vector<SliceRange>> sliceRanges(Context& ctx, const Node& n, const Ints& in) {
  Ints starts = ctx.attrInts(n, "starts"), ends = ctx.attrInts(n, "ends"),
       axes = ctx.attrInts(n, "axes"), steps;
  if (ctx.has(n, 1)) {
    for (size_t i = 1; i < 5; ++i)
      if (ctx.has(n, i) && !ctx.constInts(n, i)) return std::nullopt;
    starts = *ctx.constInts(n, 1);
    ends = *ctx.constInts(n, 2);
    axes = ctx.has(n, 3) ? *ctx.constInts(n, 3) : Ints{};
    if (ctx.has(n, 4)) steps = *ctx.constInts(n, 4);
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    ctx.fail(n, "starts, ends, axes and steps differ in length");
  std::vector<SliceRange> out;
  for (size_t i = 0; i < starts.size(); ++i) {
    SliceRange r;
    r.axis = ctx.axis(n, axes[i], in.size());
    const int64_t dim = in[static_cast<size_t>(r.axis)];
    r.step = steps[i];
    if (r.step == 0) ctx.fail(n, "a step is 0");
    auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0) v = v < -dim ? lo : v + dim;  // (no overflow for INT64_MIN)
      return std::min(std::max(v, lo), hi);
    };
    r.start = r.step > 0 ? clamp(starts[i], 0, dim) : clamp(starts[i], -1, dim - 1);
    r.end = r.step > 0 ? clamp(ends[i], 0, dim) : clamp(ends[i], -1, dim - 1);
    const int64_t span = r.step > 0 ? r.end - r.start : r.start - r.end;
    const int64_t step = r.step > 0 ? r.step : (r.step == INT64_MIN ? INT64_MAX : -r.step);
    r.size = span <= 0 ? 0 : (span - 1) / step + 1;
    out.push_back(r);
  }
  return out;
}

bool inferLayoutShape(Context& ctx, const Node& n) {
  const std::string& op = n.op_type;
  if (op == "Gather") return gather(ctx, n);
  if (op == "Pad" || op == "Tile" || op == "Resize" || op == "Upsample")
    return padTileResize(ctx, n);
  if (op == "Reshape") return reshape(ctx, n);
  if (op == "Unsqueeze" || op == "Squeeze") return squeeze(ctx, n, op == "Unsqueeze");
  if (op.rfind("Reduce", 0) == 0) return reduce(ctx, n);
  if (op == "Split") return split(ctx, n);
  if (op == "Slice") return slice(ctx, n);
  if (op == "Flatten" && ready(ctx, n, 0)) {
    const Ints& in = ctx.in(n, 0).shape;
    const int ax = ctx.axis(n, ctx.attrInt(n, "axis", 1), in.size() + 1);
    out(ctx, n, 0, {product(in, 0, ax), product(in, ax)}, ctx.in(n, 0).type);
    return true;
  }
  if (op == "Transpose" && ready(ctx, n, 0)) {
    const Ints& in = ctx.in(n, 0).shape;
    Ints perm = ctx.attrInts(n, "perm"), shape;
    if (perm.empty())
      for (size_t i = in.size(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    if (perm.size() != in.size()) ctx.fail(n, "perm does not match the input's rank");
    for (int64_t p : perm) shape.push_back(in[static_cast<size_t>(ctx.axis(n, p, in.size()))]);
    out(ctx, n, 0, shape, ctx.in(n, 0).type);
    return true;
  }
  if ((op == "Expand" || op == "ConstantOfShape") && ctx.constInts(n, op == "Expand" ? 1 : 0)) {
    Ints shape = *ctx.constInts(n, op == "Expand" ? 1 : 0);
    bool ok = true;
    if (op == "Expand") {
      if (!ready(ctx, n, 0)) return false;
      shape = broadcast(ctx.in(n, 0).shape, shape, ok);
    }
    if (!ok) ctx.fail(n, "the shapes do not broadcast");
    out(ctx, n, 0, shape, op == "Expand" ? ctx.in(n, 0).type : ElemType::Float);
    return true;
  }
  if (op == "Concat") {
    Ints shape;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (!ctx.has(n, i)) continue;
      if (!ready(ctx, n, i)) return false;
      const Ints& s = ctx.in(n, i).shape;
      if (shape.empty()) {
        shape = s;
        continue;
      }
      const int ax = ctx.axis(n, ctx.attrInt(n, "axis", 0), s.size());
      if (s.size() != shape.size()) ctx.fail(n, "inputs differ in rank");
      shape[static_cast<size_t>(ax)] = ctx.dim(
          n, static_cast<__int128>(shape[static_cast<size_t>(ax)]) + s[static_cast<size_t>(ax)]);
    }
    out(ctx, n, 0, shape, ctx.in(n, 0).type);
    return true;
  }
  return false;
}

}  // namespace tessel::models::onnx
