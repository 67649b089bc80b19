// Which recipe a synthetic tensor gets, from its role and the op that reads it.
#include <algorithm>
#include <cmath>

#include "kernels/weights/weights.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

bool isConversion(OpKind k) { return k == OpKind::Quantize || k == OpKind::Dequantize; }

struct Use {
  const models::Op* op = nullptr;
  size_t input = 0;
};

// The first op reading the tensor, looking through conversion ops to the op that uses it.
Use firstUse(const models::Graph& g, int id) {
  for (int c : g.consumersOf(id)) {
    const models::Op& op = g.op(c);
    if (isConversion(op.kind)) {
      const Use u = firstUse(g, op.outputs.at(0));
      if (u.op) return u;
      continue;
    }
    for (size_t i = 0; i < op.inputs.size(); ++i)
      if (op.inputs[i] == id) return {&op, i};
  }
  return {};
}

// Whether tensor t reaches an Add (looking through conversion ops).
bool feedsAdd(const models::Graph& g, int t) {
  for (int c : g.consumersOf(t)) {
    const models::Op& op = g.op(c);
    if (op.kind == OpKind::Add) return true;
    if (isConversion(op.kind) && feedsAdd(g, op.outputs.at(0))) return true;
  }
  return false;
}

// Decode graphs start positions after the cache: T - S_new for a [B, T, d] cache.
int64_t positionOffset(const models::Graph& g, int64_t new_tokens) {
  for (const models::Tensor& t : g.tensors()) {
    const std::string& n = t.name;
    const bool cache = n.size() > 8 && n.compare(n.size() - 8, 8, ".k_cache") == 0;
    if (t.role == models::TensorRole::Input && cache) return t.shape.at(1) - new_tokens;
  }
  return 0;
}

Recipe normal(double mean, double stddev) {
  Recipe r;
  r.mean = mean;
  r.stddev = stddev;
  return r;
}

Recipe idsRecipe(const models::Graph& g, const models::Tensor& t, const Use& use) {
  if (use.op && use.op->kind == OpKind::Gather && use.input == 1) {  // ids along the axis
    Recipe r;
    r.kind = Recipe::Kind::UniformIds;
    const auto& data = g.tensor(use.op->inputs.at(0)).shape;
    r.rows = data.at(static_cast<size_t>(std::max(use.op->layout.axis, 0)));
    return r;
  }
  if (!use.op || use.op->kind != OpKind::Embedding || use.input != 0 || t.shape.size() != 2)
    throw Error("synthetic data: int32 input '" + t.name + "' is not an embedding's [B, S] ids");
  Recipe r;
  if (t.name.find("position") != std::string::npos) {
    r.kind = Recipe::Kind::Positions;
    r.offset = positionOffset(g, t.shape[1]);
  } else {
    r.kind = Recipe::Kind::UniformIds;
    r.rows = g.tensor(use.op->inputs.at(1)).shape.at(0);
  }
  return r;
}

Recipe weightRecipe(const models::Graph& g, const models::Tensor& t, const Use& use) {
  if (!use.op) return normal(0.0, 0.02);
  const models::Op& op = *use.op;
  const auto fanIn = [](int64_t n) { return 1.0 / std::sqrt(static_cast<double>(n)); };
  switch (op.kind) {
    case OpKind::MatMul:
      if (use.input == 2) return normal(0.0, 0.02);
      return normal(0.0, fanIn(op.transpose_b ? t.shape.at(1) : t.shape.at(0)));
    case OpKind::Embedding:
      return normal(0.0, fanIn(t.shape.at(1)));
    case OpKind::Conv2d:  // He: keeps the second moment through conv + ReLU
      if (use.input == 2) return normal(0.0, 0.02);
      if (op.channels_first)  // [K, C/groups, R, S]
        return normal(0.0, std::sqrt(2.0) * fanIn(t.shape.at(1) * t.shape.at(2) * t.shape.at(3)));
      return normal(0.0, std::sqrt(2.0) * fanIn(t.shape.at(0) * t.shape.at(1) * t.shape.at(2)));
    case OpKind::RmsNorm:
      return normal(1.0, 0.1);
    case OpKind::LayerNorm:
      return use.input == 1 ? normal(1.0, 0.1) : normal(0.0, 0.05);
    case OpKind::BatchNorm: {
      // Halving the branches that meet at a residual add keeps ResNet's stream bounded.
      const double s = feedsAdd(g, op.outputs.at(0)) ? 0.5 : 1.0;
      return use.input == 1 ? normal(s, 0.1 * s) : normal(0.0, 0.05);
    }
    default:
      return normal(0.0, 0.02);
  }
}

}  // namespace

std::string Recipe::str() const {
  switch (kind) {
    case Kind::UniformIds:
      return "ids[0," + std::to_string(rows) + ")";
    case Kind::Positions:
      return "pos+" + std::to_string(offset);
    case Kind::Normal:
      break;
  }
  char b[64];
  std::snprintf(b, sizeof b, "normal(%.17g,%.17g)", mean, stddev);
  return b;
}

Recipe SyntheticData::recipe(const models::Graph& g, int id) const {
  const models::Tensor& t = g.tensor(id);
  if (t.role == models::TensorRole::Activation)
    throw Error("synthetic data: '" + t.name + "' is an activation, not an input or weight");
  if (t.dtype == DType::Int32) return idsRecipe(g, t, firstUse(g, id));
  if (t.role == models::TensorRole::Input) return normal(0.0, 1.0);
  return weightRecipe(g, t, firstUse(g, id));
}

}  // namespace tessel::kernels
