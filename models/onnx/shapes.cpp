// The shape pass: every value gets a concrete shape before any op is converted. ONNX's own
// inference (run by the reader after binding) is taken where it is complete; tessel's rules
// (infer.cpp) and integer constant folding (fold.cpp) cover what ONNX 1.12 leaves unknown.
#include <stdexcept>

#include "models/onnx/context.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::models::onnx {
namespace {

bool fullyKnown(const ValueInfo& v) {
  if (!v.has_shape) return false;
  for (const Dim& d : v.dims)
    if (!d.known()) return false;
  return true;
}

std::vector<int64_t> dims(const ValueInfo& v) {
  std::vector<int64_t> out;
  for (const Dim& d : v.dims) out.push_back(*d.value);
  return out;
}

// Negative dims and element counts beyond 64-bit counters are errors naming the node.
void checkShape(const Context& ctx, const Node& n, const std::string& name,
                const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d < 0) ctx.fail(n, "output '" + name + "' has a negative dimension " + shapeText(shape));
    if (d > checked::kMaxCount) ctx.fail(n, "output '" + name + "' has a dimension beyond 2^62");
  }
  int64_t e = 1;
  for (int64_t d : shape) {
    e = checked::mul(e, d, [&] {
      return ctx.where(n) + ": the elements of output '" + name + "' " + shapeText(shape);
    });
  }
  checked::mul(e, 8, [&] { return ctx.where(n) + ": the bytes of output '" + name + "'"; });
}

void propagateNode(Context& ctx, const Node& n) {
  for (const std::string& out : n.outputs) {
    if (out.empty()) continue;
    Value& v = ctx.values[out];
    auto it = ctx.model.value_info.find(out);
    if (it != ctx.model.value_info.end()) {
      v.type = it->second.type;
      if (fullyKnown(it->second)) {
        v.shape = dims(it->second);
        v.inferred = true;
      }
    }
  }
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    if (ctx.has(n, i)) ctx.in(n, i);  // every input must exist
  }
  foldConstants(ctx, n);
  bool all = true;
  for (const std::string& out : n.outputs)
    if (!out.empty() && !ctx.values[out].inferred) all = false;
  if (!all && !inferShape(ctx, n)) {
    for (const std::string& out : n.outputs) {
      if (!out.empty() && !ctx.values[out].inferred)
        ctx.fail(n, "the shape of output '" + out + "' cannot be inferred");
    }
  }
  for (const std::string& out : n.outputs) {
    if (out.empty()) continue;
    Value& v = ctx.values[out];
    if (!v.inferred) ctx.fail(n, "the shape of output '" + out + "' cannot be inferred");
    checkShape(ctx, n, out, v.shape);
    if (v.ints && static_cast<int64_t>(v.ints->size()) != product(v.shape)) v.ints.reset();
    if (v.floats && static_cast<int64_t>(v.floats->size()) != product(v.shape)) v.floats.reset();
  }
}

}  // namespace

void propagateShapes(Context& ctx, const std::vector<int>& order) {
  for (int idx : order) {
    const Node& n = ctx.model.nodes[static_cast<size_t>(idx)];
    try {
      propagateNode(ctx, n);
    } catch (const std::out_of_range& e) {
      // An operand whose rank or size contradicts the node (a malformed file).
      ctx.fail(n, std::string("malformed node (") + e.what() + ")");
    }
  }
}

}  // namespace tessel::models::onnx
