// A parsed ONNX model as plain data: what reader.cpp (the one file that sees libonnx and
// protobuf) hands to the rest of the importer. Weights' values are never here: an initializer
// records its name, type, shape and where its bytes live; only small tensors carry values:
// integer ones (shape operands of Reshape, Slice, ...; Constant nodes) because the importer's
// shape propagation folds them, and float ones of at most 64 elements (Resize scales, Clip
// bounds).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::models::onnx {

// ONNX TensorProto.DataType values the importer distinguishes (the numbers are ONNX's).
enum class ElemType : int32_t {
  Undefined = 0,
  Float = 1,
  Uint8 = 2,
  Int8 = 3,
  Uint16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  Uint32 = 12,
  Uint64 = 13,
  BFloat16 = 16,
};

// One dimension: a number, a symbolic name (dim_param), or unknown (neither).
struct Dim {
  std::optional<int64_t> value;
  std::string symbol;
  bool known() const { return value.has_value(); }
};

// A tensor's type as the file (or ONNX shape inference) states it. has_shape = false: rank
// unknown.
struct ValueInfo {
  std::string name;
  ElemType type = ElemType::Undefined;
  bool has_shape = false;
  std::vector<Dim> dims;
};

// Values of a small tensor (Constant nodes, shape initializers). Integers and bools in ints,
// floating point in floats; `dims` is the tensor's shape.
struct SmallTensor {
  ElemType type = ElemType::Undefined;
  std::vector<int64_t> dims;
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

struct Attribute {
  enum class Kind { Float, Int, String, Tensor, Floats, Ints, Strings, Other };
  Kind kind = Kind::Other;
  double f = 0;
  int64_t i = 0;
  std::string s;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::optional<SmallTensor> tensor;  // small tensors only (see kSmallTensorElements)
  bool tensor_present = false;        // a tensor attribute, small or not
};

struct Node {
  std::string name;  // the file's name, or "<op_type>_<index>" when it has none
  std::string op_type;
  std::string domain;               // "" for the default domain
  std::vector<std::string> inputs;  // "" marks an omitted optional input
  std::vector<std::string> outputs;
  std::map<std::string, Attribute> attributes;
};

// Where an initializer's bytes are: inside the model file (raw_data or the typed fields), or
// in an external file (ONNX external data, relative to the model's folder).
struct Initializer {
  std::string name;
  ElemType type = ElemType::Undefined;
  std::vector<int64_t> dims;
  bool external = false;
  std::string location;             // external data file as written in the model
  int64_t offset = 0, length = -1;  // external data range; length -1 = to the end
  // raw_data inside the model file: its byte range (-1: the values are in typed fields).
  int64_t raw_offset = -1, raw_length = 0;
  std::optional<SmallTensor> small;  // values of small tensors (see the file comment)
};

struct OnnxModel {
  std::string path;
  int64_t ir_version = 0;
  std::map<std::string, int64_t> opsets;  // domain ("" = default) -> version
  std::string producer;
  std::vector<ValueInfo> inputs;  // graph inputs that are not initializers, in order
  std::vector<ValueInfo> outputs;
  std::vector<Initializer> initializers;
  std::vector<Node> nodes;  // as in the file (ONNX requires topological order; not trusted)
  // Types and shapes of every other value, from the file and ONNX shape inference.
  std::map<std::string, ValueInfo> value_info;
};

// Integer tensors up to this many elements carry their values.
inline constexpr int64_t kSmallTensorElements = 4096;

// Symbolic dimension name -> value, chosen after the graph inputs are known.
using Bindings = std::map<std::string, int64_t>;
using BindFn = std::function<Bindings(const std::vector<ValueInfo>& inputs)>;

// Parses `path`, calls `bind` with the graph inputs (not initializers), substitutes the bound
// dims into them, checks every node (ONNX's schema check, validate.h), runs ONNX shape
// inference with data propagation (IR <= 8, opsets <= 17; Conv and pooling nodes are left to
// tessel's rules) and returns the model. Throws ConfigError for a missing file, a directory, a
// file that is not ONNX or is truncated, a malformed node. Values ONNX cannot infer stay unknown.
OnnxModel readModel(const std::string& path, const BindFn& bind);

// Reads initializers' values on demand: external data straight from its file, raw_data from its
// byte range in the model file, typed fields by parsing the model once, on the first such
// request. Thread-safe.
class InitializerReader {
 public:
  explicit InitializerReader(std::string model_path);
  ~InitializerReader();
  // The values as float in row-major order (float, fp16, bf16, double and the integer types).
  // Throws tessel::Error for an unreadable file, short data or an unsupported element type.
  std::vector<float> values(const Initializer& init) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessel::models::onnx
