// Internal to the ONNX importer's shape rules (infer.cpp, infer_layout.cpp).
#pragma once

#include <utility>

#include "models/onnx/context.h"

namespace tessel::models::onnx::infer {

using Ints = std::vector<int64_t>;

// Sets output i's shape unless it is known already.
inline void out(Context& ctx, const Node& n, size_t i, Ints shape,
                ElemType type = ElemType::Undefined) {
  if (i >= n.outputs.size() || n.outputs[i].empty()) return;
  Value& v = ctx.values[n.outputs[i]];
  if (v.inferred) return;
  v.shape = std::move(shape);
  v.inferred = true;
  if (v.type == ElemType::Undefined) v.type = type;
}

inline bool ready(Context& ctx, const Node& n, size_t i) {
  return ctx.has(n, i) && ctx.in(n, i).inferred;
}

}  // namespace tessel::models::onnx::infer
