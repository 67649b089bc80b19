#include "kernels/weights/store.h"

#include <algorithm>

#include "kernels/numeric/calibrate.h"
#include "kernels/numeric/float_format.h"
#include "kernels/validation/metrics.h"
#include "kernels/weights/prune.h"
#include "kernels/weights/weight_formats.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

using models::OpKind;

// A weight whose sparsity says it is pruned (models/sparsity.h sets it on GEMM weights only);
// measured zeros are the file's own, and pruning to their mean density per channel would zero
// values of the denser channels.
bool prunes(const models::Tensor& t) {
  return t.role == models::TensorRole::Weight && !t.sparsity.dense() && !t.sparsity.measured;
}

std::optional<int> axisForUse(const models::Graph& g, int id) {
  for (int c : g.consumersOf(id)) {
    const models::Op& op = g.op(c);
    if (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) {
      if (auto a = axisForUse(g, op.outputs.at(0))) return a;
      continue;
    }
    const bool is_weight = op.inputs.size() > 1 && op.inputs[1] == id;
    if (op.kind == OpKind::Embedding && is_weight) return 0;
    if (op.kind == OpKind::MatMul && is_weight) return op.transpose_b ? 0 : 1;
    if (op.kind == OpKind::Conv2d && is_weight) return op.channels_first ? 0 : 3;
  }
  return std::nullopt;
}

}  // namespace

Tensor transposeFloat(const Tensor& w) {
  if (!w.isFloat() || w.rank() != 2) throw Error("transposeFloat: needs a 2-D float tensor");
  const int64_t rows = w.dim(0), cols = w.dim(1);
  Tensor t = Tensor::uninitialized({cols, rows}, w.dtype());
  constexpr int64_t kTile = 32;
  const float* src = w.f32();
  float* dst = t.f32();
  for (int64_t r0 = 0; r0 < rows; r0 += kTile)
    for (int64_t c0 = 0; c0 < cols; c0 += kTile)
      for (int64_t c = c0; c < std::min(c0 + kTile, cols); ++c)
        for (int64_t r = r0; r < std::min(r0 + kTile, rows); ++r)
          dst[c * rows + r] = src[r * cols + c];
  return t;
}

std::optional<int> weightAxis(const models::Graph& g, int id) { return axisForUse(g, id); }

Tensor quantizeWeight(const Tensor& w, std::optional<int> axis) {
  Calibration c;  // symmetric min/max: weights are static, every value is known
  c.per_channel = axis.has_value();
  c.axis = axis.value_or(-1);
  return quantize(w, calibrate(w, c));
}

Tensor asGemmOperand(const Tensor& w) {
  if (w.rank() != 4) return w;
  Tensor m = w;
  m.reshape({w.dim(0) * w.dim(1) * w.dim(2), w.dim(3)});
  m.quant.axis = -1;  // conv weights are quantized along K, the last axis either way
  return m;
}

std::string WeightStore::key(const models::Graph& g, int id, const std::string& what) const {
  const models::Tensor& t = g.tensor(id);
  // Name, shape and recipe fix the values: GPT-2's and BERT's [1, 16] input_ids differ.
  std::string k = t.name + "[";
  for (int64_t d : t.shape) k += std::to_string(d) + ",";
  // Pruned weights (prune.h) are keyed apart from the dense ones: same name, other values.
  const std::string sparse = prunes(t) ? "~" + toString(t.sparsity) : "";
  // A model file's weights are its own: keyed by the file (its source object), not a recipe.
  if (g.weight_values && t.role == models::TensorRole::Weight)
    return k + "]file@" + std::to_string(reinterpret_cast<uintptr_t>(g.weight_values.get())) +
           sparse + "|" + what;
  return k + "]" + data_.recipe(g, id).str() + sparse + "|" + what;
}

std::shared_ptr<const Tensor> WeightStore::raw(const models::Graph& g, int id) {
  const models::Tensor& t = g.tensor(id);
  // A model file's own values win over synthesized ones (keyed apart: same name, other data).
  std::optional<std::vector<float>> file;
  if (g.weight_values && t.role == models::TensorRole::Weight) {
    try {
      file = g.weight_values->values(t.name);
    } catch (const ConfigError&) {
      throw;
    } catch (const Error& e) {  // a missing or unreadable weights file is the user's input
      throw ConfigError({"", 0, 0, "weights"},
                        std::string(e.what()) + " (a functional run reads the model's weights)");
    }
  }
  auto& slot = tensors_[key(g, id, file ? "file" : "raw")];
  if (slot) return slot;
  Tensor v;
  if (!file) {
    v = data_.generate(g, id);
  } else if (static_cast<int64_t>(file->size()) != t.elements()) {
    throw Error("weight '" + t.name + "': the model file holds " + std::to_string(file->size()) +
                " values for " + std::to_string(t.elements()) + " elements");
  } else if (t.dtype == DType::Int32) {
    std::vector<int32_t> ids(file->begin(), file->end());
    v = Tensor::fromInt32(t.shape, std::move(ids));
  } else {
    v = Tensor::fromFloats(t.shape, std::move(*file));
  }
  if (prunes(t) && v.isFloat()) {  // every other form of the weight derives from these values
    if (const std::optional<PruneLayout> l = pruneLayout(g, id)) pruneInPlace(v, *l, t.sparsity);
  }
  slot = std::make_shared<const Tensor>(std::move(v));
  return slot;
}

std::shared_ptr<const Tensor> WeightStore::weight(const models::Graph& g, int id, DType dtype,
                                                  std::optional<DType> from) {
  if (from && *from != dtype) {
    auto& conv =
        tensors_[key(g, id, std::string(nameOf(*from)) + "->" + std::string(nameOf(dtype)))];
    if (conv) return conv;
    const std::shared_ptr<const Tensor> src = weight(g, id, *from);
    const Tensor f = Tensor::fromFloats(src->shape(), realValues(*src));
    conv = std::make_shared<const Tensor>(weightAs(f, dtype, weightAxis(g, id)));
    return conv;
  }
  if (dtype == DType::FP32) return raw(g, id);
  auto& slot = tensors_[key(g, id, std::string(nameOf(dtype)))];
  if (slot) return slot;
  const std::shared_ptr<const Tensor> r = raw(g, id);
  try {
    slot = std::make_shared<const Tensor>(weightAs(*r, dtype, weightAxis(g, id)));
  } catch (const Error& e) {
    throw Error("weight '" + g.tensor(id).name + "': " + e.what());
  }
  return slot;
}

const FloatWeights& WeightStore::floatWeights(const models::Graph& g, int id, FloatGemmConfig cfg,
                                              bool transposed, std::optional<DType> from,
                                              std::optional<DType> read) {
  const DType own = dtypeOf(cfg.operands);
  const DType src = from.value_or(own);
  const DType via = read.value_or(own);
  const std::string k =
      key(g, id,
          "float" + std::to_string(static_cast<int>(cfg.operands)) +
              std::to_string(static_cast<int>(cfg.accumulate)) + (transposed ? "T" : "N") +
              std::string(nameOf(src)) + ">" + std::string(nameOf(via)));
  auto& slot = floats_[k];
  if (slot) return *slot;
  // Stored in the operand format or in FP32: FloatWeights rounds the raw values itself. Read in
  // another dtype (weight-only quantization): that dtype's values, rounded to the operand format.
  const bool direct = via == own && (src == own || src == DType::FP32);
  std::shared_ptr<const Tensor> values = direct ? raw(g, id) : weight(g, id, via, src);
  if (!values->isFloat())
    values =
        std::make_shared<const Tensor>(Tensor::fromFloats(values->shape(), realValues(*values)));
  const Tensor w = asGemmOperand(*values);
  // Transposed once here, in cache-sized tiles: a strided copy of GPT-2's 50257 x 768 tied
  // table is several times slower.
  slot = std::make_unique<FloatWeights>(transposed ? transposeFloat(w) : w, cfg, false);
  return *slot;
}

const PackedWeights& WeightStore::packedWeights(const models::Graph& g, int id, bool transposed,
                                                Int8Isa isa, std::optional<DType> from,
                                                DType read) {
  const std::string k =
      key(g, id,
          std::string("packed") + (transposed ? "T" : "N") + std::string(nameOf(isa)) +
              std::string(nameOf(from.value_or(read))) + ">" + std::string(nameOf(read)));
  auto& slot = packed_[k];
  if (!slot)
    slot =
        std::make_unique<PackedWeights>(asGemmOperand(*weight(g, id, read, from)), transposed, isa);
  return *slot;
}

void WeightStore::clear() {
  tensors_.clear();
  floats_.clear();
  packed_.clear();
}

}  // namespace tessel::kernels
