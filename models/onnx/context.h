// Internal to the ONNX importer: what the shape pass and the op converters share.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/graph.h"
#include "models/onnx/onnx_model.h"
#include "models/workload.h"

namespace tessel::models::onnx {

// An ONNX value as the importer knows it.
struct Value {
  std::vector<int64_t> shape;  // the value's own (ONNX) shape, always known once inferred
  ElemType type = ElemType::Undefined;
  bool inferred = false;
  std::optional<std::vector<int64_t>> ints;   // known integer contents (shape arithmetic)
  std::optional<std::vector<double>> floats;  // known small float contents (Resize scales)
  const Initializer* init = nullptr;          // an initializer (a Weight tensor when used)
  // The tessel tensor holding the data, -1 until materialized. A view (Reshape, Flatten, ...)
  // shares its source's tensor, whose shape may differ from `shape`.
  int tensor = -1;
};

// Extra weight values the importer computes (folded BatchNorm, Constant nodes, scaled Gemm
// operands): tensor name -> how to get the values.
struct DerivedWeight {
  enum class Kind { Values, Fill, BnScale, BnShift, Scaled };
  Kind kind = Kind::Values;
  std::vector<float> values;  // Values; Fill: values[0] repeated `count` times
  int64_t count = 0;
  std::vector<std::string> sources;  // BnScale: scale, var; BnShift: scale, bias, mean, var;
  float eps = 0, factor = 1;         // Scaled: one source times factor
};

struct Context {
  Context(const OnnxModel& m, const WorkloadOptions& o, Graph& graph)
      : model(m), options(o), g(graph) {}

  const OnnxModel& model;
  const WorkloadOptions& options;
  Graph& g;
  std::unordered_map<std::string, Value> values;
  std::unordered_map<std::string, std::vector<int>> consumers;  // value name -> node indices
  std::map<std::string, DerivedWeight> derived;
  std::map<std::string, std::vector<std::string>> generic;  // op type -> nodes costed generically
  std::vector<bool> folded;  // by node index: converted as part of another node (bias Add)
  int views_copied = 0;
  std::string why_generic;  // set by a converter that declines a node: the form it cannot model

  int64_t opset() const;
  DType floatType() const { return options.dtype; }
  // The tessel dtype of a value of ONNX type t (float -> options.dtype, ids -> Int32, ...).
  DType dtypeOf(ElemType t) const;

  [[noreturn]] void fail(const Node& n, const std::string& why) const;
  bool has(const Node& n, size_t i) const { return i < n.inputs.size() && !n.inputs[i].empty(); }
  Value& in(const Node& n, size_t i);
  // Input i as a tensor: initializers become Weight tensors, folded constants Weight tensors
  // with derived values. exact: the tensor must have the value's own shape (a view whose shape
  // differs is copied once, see import.h).
  int tensorOf(const Node& n, size_t i, bool exact = false, std::optional<DType> as = {});
  // Adds `op` (kind, attributes set; name and source filled here) writing output `out` of `n`
  // as a new Activation tensor of `dtype`; returns the tensor id.
  int emit(const Node& n, Op op, size_t out = 0, std::optional<DType> dtype = {});
  Op makeOp(const Node& n, OpKind kind, std::vector<int> inputs) const;
  // Adds `op` writing a new intermediate tensor (named after the node plus `suffix`).
  int emitTemp(const Node& n, Op op, const std::string& suffix, std::vector<int64_t> shape,
               DType dtype);
  // Output i's value aliases tensor `t` (a view, or a folded node).
  void alias(const Node& n, size_t out, int t);
  // The node's attribute, or nullptr.
  const Attribute* attr(const Node& n, const std::string& name) const;
  int64_t attrInt(const Node& n, const std::string& name, int64_t fallback) const;
  double attrFloat(const Node& n, const std::string& name, double fallback) const;
  std::vector<int64_t> attrInts(const Node& n, const std::string& name) const;
  std::string attrString(const Node& n, const std::string& name, const std::string& fb) const;
  // Integer contents of input i (a constant), or nullopt.
  std::optional<std::vector<int64_t>> constInts(const Node& n, size_t i);
  // A scalar float constant input (Clip bounds), or nullopt.
  std::optional<double> constFloat(const Node& n, size_t i);
  // A dimension computed in 128 bits; fails naming the node when it does not fit int64.
  int64_t dim(const Node& n, __int128 v) const;
  // Normalizes a possibly negative axis for a rank; fails naming the node when out of range.
  int axis(const Node& n, int64_t a, size_t rank) const;
  // Costs the node as a generic elementwise op by the bytes it moves (listed in a warning).
  // `modeled`: tessel models the op type but not this node's form (see why_generic).
  void genericOp(const Node& n, const std::string& fn, bool warn = true, bool modeled = false);
  std::string where(const Node& n) const { return "node '" + n.name + "' (" + n.op_type + ")"; }
};

// The op converters, by ONNX op type. Each returns false when it has no model for the node's
// form (the caller then costs it generically).
using Converter = bool (*)(Context&, const Node&);
void addGemmConverters(std::map<std::string, Converter>& table);
void addConvConverters(std::map<std::string, Converter>& table);
void addEltConverters(std::map<std::string, Converter>& table);
void addLayoutConverters(std::map<std::string, Converter>& table);
void addNormConverters(std::map<std::string, Converter>& table);

// Fills values[...] for every node output in order (shapes and folded constants); throws
// ConfigError naming the node for a shape that cannot be inferred.
void propagateShapes(Context& ctx, const std::vector<int>& order);
// Own shape rule for a node whose outputs ONNX left unknown; false when it has none.
bool inferShape(Context& ctx, const Node& n);
bool inferLayoutShape(Context& ctx, const Node& n);  // layout ops (infer_layout.cpp)
bool inferWindowShape(Context& ctx, const Node& n);  // Conv and pooling (convert_conv.cpp)
// Folds integer shape arithmetic (Shape, Gather, Concat, Unsqueeze, ...) into Value::ints.
void foldConstants(Context& ctx, const Node& n);

// One axis of a Slice: start, end (exclusive, clamped as ONNX does), step and the output size.
struct SliceRange {
  int axis = 0;
  int64_t start = 0, end = 0, step = 1, size = 0;
};
// The ranges of a Slice node over input shape `in` (opset < 10 attributes or constant inputs);
// nullopt when the bounds are known only at run time.
std::optional<std::vector<SliceRange>> sliceRanges(Context& ctx, const Node& n,
                                                   const std::vector<int64_t>& in);

int64_t product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX);
std::vector<int64_t> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                               bool& ok);
std::string shapeText(const std::vector<int64_t>& s);

}  // namespace tessel::models::onnx
