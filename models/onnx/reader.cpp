// The one translation unit that sees libonnx and protobuf: ModelProto -> OnnxModel, with ONNX's
// shape inference (and data propagation) run after the caller's dimension bindings.
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>

#include "models/onnx/onnx_model.h"
#include "models/onnx/tensor_data.h"
#include "models/onnx/validate.h"
#include "models/op_budget.h"
#include "util/budget.h"
#include "util/error.h"
#include "util/input_file.h"

namespace tessel::models::onnx {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw ConfigError({path, 0, 0, "workload"}, why);
}

// The one rule every input file follows (util/input_file.h), at the workload's path. Protobuf
// parses at most 2 GiB; a larger file keeps its weights as external data.
std::string readBytes(const std::string& path) {
  try {
    return readInputFile(path, "an ONNX model", size_t{INT_MAX});
  } catch (const ConfigError& e) {
    fail(path, e.message() + (e.message().find("larger") != std::string::npos
                                  ? " (protobuf's limit: store weights as external data)"
                                  : ""));
  }
}

::onnx::ModelProto parse(const std::string& path, std::string* raw = nullptr) {
  std::string bytes = readBytes(path);
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    fail(path, "the model is larger than protobuf's 2 GiB limit (store weights as external data)");
  // Each node and initializer becomes protobuf objects, tessel's copy and (nodes) graph ops:
  // counted on the wire and checked against the memory budget before protobuf allocates them.
  budget::checkCount(graphEntries(bytes, 1),
                     static_cast<int64_t>(sizeof(::onnx::NodeProto) + sizeof(Node)) + bytesPerOp(),
                     "nodes", {path, 0, 0, "graph.node"});
  budget::checkCount(graphEntries(bytes, 5),
                     static_cast<int64_t>(sizeof(::onnx::TensorProto) + sizeof(Initializer)),
                     "initializers", {path, 0, 0, "graph.initializer"});
  ::onnx::ModelProto m;
  if (bytes.empty() || !m.ParseFromString(bytes))
    fail(path, "not an ONNX model (the protobuf does not parse: truncated or another format)");
  if (m.ir_version() <= 0 || !m.has_graph())
    fail(path, "not an ONNX model (no IR version or no graph)");
  if (raw) *raw = std::move(bytes);
  return m;
}

// Values stored in a TensorProto's typed fields (int32_data holds int8/16, uint8/16, bool and
// the bits of fp16/bf16).
bool decodeTyped(ElemType type, const ::onnx::TensorProto& t, int64_t n, std::vector<double>& v) {
  v.clear();
  auto take = [&](const auto& field) {
    if (field.size() != n) return false;
    v.assign(field.begin(), field.end());
    return true;
  };
  switch (type) {
    case ElemType::Float:
      return take(t.float_data());
    case ElemType::Double:
      return take(t.double_data());
    case ElemType::Int64:
      return take(t.int64_data());
    case ElemType::Uint32:
    case ElemType::Uint64:
      return take(t.uint64_data());
    case ElemType::Float16:
    case ElemType::BFloat16:
      if (!take(t.int32_data())) return false;
      for (double& x : v) x = halfBits(type, static_cast<uint16_t>(static_cast<int64_t>(x)));
      return true;
    case ElemType::Int32:
    case ElemType::Int8:
    case ElemType::Uint8:
    case ElemType::Int16:
    case ElemType::Uint16:
    case ElemType::Bool:
      return take(t.int32_data());
    default:
      return false;
  }
}

ValueInfo valueInfo(const ::onnx::ValueInfoProto& v) {
  ValueInfo out;
  out.name = v.name();
  if (!v.has_type() || !v.type().has_tensor_type()) return out;
  const auto& t = v.type().tensor_type();
  out.type = static_cast<ElemType>(t.elem_type());
  if (!t.has_shape()) return out;
  out.has_shape = true;
  for (const auto& d : t.shape().dim()) {
    Dim dim;
    if (d.has_dim_value()) dim.value = d.dim_value();
    if (d.has_dim_param()) dim.symbol = d.dim_param();
    out.dims.push_back(std::move(dim));
  }
  return out;
}

int64_t elementCount(const ::onnx::TensorProto& t) {
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || (d > 0 && n > kSmallTensorElements * 16 / d)) return -1;
    n *= d;
  }
  return n;
}

bool isIntegral(ElemType t) {
  return t == ElemType::Int64 || t == ElemType::Int32 || t == ElemType::Int8 ||
         t == ElemType::Uint8 || t == ElemType::Int16 || t == ElemType::Uint16 ||
         t == ElemType::Bool || t == ElemType::Uint32 || t == ElemType::Uint64;
}

// Values of a small embedded tensor, or nullopt (too big, external, or undecodable).
std::optional<SmallTensor> small(const ::onnx::TensorProto& t) {
  const auto type = static_cast<ElemType>(t.data_type());
  const int64_t n = elementCount(t);
  if (n < 0 || n > kSmallTensorElements || t.data_location() == ::onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  SmallTensor s;
  s.type = type;
  s.dims.assign(t.dims().begin(), t.dims().end());
  std::vector<double> v;
  if (t.has_raw_data()) {
    const std::string& raw = t.raw_data();
    if (!decodeRaw(type, raw.data(), raw.size(), n, v)) return std::nullopt;
  } else if (!decodeTyped(type, t, n, v)) {
    return std::nullopt;
  }
  if (isIntegral(type)) {
    for (double x : v) s.ints.push_back(static_cast<int64_t>(x));
  } else {
    s.floats = std::move(v);
  }
  return s;
}

Attribute attribute(const ::onnx::AttributeProto& a) {
  Attribute out;
  using A = ::onnx::AttributeProto;
  switch (a.type()) {
    case A::FLOAT:
      out.kind = Attribute::Kind::Float;
      out.f = a.f();
      break;
    case A::INT:
      out.kind = Attribute::Kind::Int;
      out.i = a.i();
      break;
    case A::STRING:
      out.kind = Attribute::Kind::String;
      out.s = a.s();
      break;
    case A::TENSOR:
      out.kind = Attribute::Kind::Tensor;
      out.tensor_present = true;
      out.tensor = small(a.t());
      break;
    case A::FLOATS:
      out.kind = Attribute::Kind::Floats;
      out.floats.assign(a.floats().begin(), a.floats().end());
      break;
    case A::INTS:
      out.kind = Attribute::Kind::Ints;
      out.ints.assign(a.ints().begin(), a.ints().end());
      break;
    case A::STRINGS:
      out.kind = Attribute::Kind::Strings;
      out.strings.assign(a.strings().begin(), a.strings().end());
      break;
    default:
      break;
  }
  return out;
}

Initializer initializer(const ::onnx::TensorProto& t) {
  Initializer out;
  out.name = t.name();
  out.type = static_cast<ElemType>(t.data_type());
  out.dims.assign(t.dims().begin(), t.dims().end());
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    out.external = true;
    for (const auto& kv : t.external_data()) {
      if (kv.key() == "location") out.location = kv.value();
      try {
        if (kv.key() == "offset") out.offset = std::stoll(kv.value());
        if (kv.key() == "length") out.length = std::stoll(kv.value());
      } catch (const std::exception&) {
        out.offset = -1;  // reported when the values are read
      }
    }
  }
  // Integer tensors (shape operands) and tiny float ones (Resize scales, Clip bounds).
  if (isIntegral(out.type) || (elementCount(t) >= 0 && elementCount(t) <= 64)) out.small = small(t);
  return out;
}

// ONNX's own per-node check (input and output counts, attribute types, required attributes)
// against the schema of the model's opset. libonnx's shape inference trusts these; a node
// that fails them is malformed. Nodes of other domains or unknown ops are left to the importer.
void verifyNodes(const std::string& path, const ::onnx::ModelProto& m) {
  int64_t opset = 0;
  for (const auto& o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
  const auto* registry = ::onnx::OpSchemaRegistry::Instance();
  for (int i = 0; i < m.graph().node_size(); ++i) {
    const auto& n = m.graph().node(i);
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    const ::onnx::OpSchema* schema = registry->GetSchema(n.op_type(), static_cast<int>(opset), "");
    if (!schema) continue;
    try {
      schema->Verify(n);
    } catch (const std::exception& e) {
      fail(path, "node '" + (n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name()) +
                     "' (" + n.op_type() + "): " + e.what());
    }
  }
}

// libonnx 1.12's Conv/ConvTranspose/pool inference indexes operand dims without checking their
// ranks (a crash on a malformed model); tessel infers these ops itself (infer.cpp), so ONNX
// sees them in a domain it does not know and leaves their outputs for tessel's rules.
void deferWindowOps(::onnx::GraphProto& g) {
  static const char* const kOps[] = {"Conv",    "ConvTranspose", "ConvInteger", "QLinearConv",
                                     "MaxPool", "AveragePool",   "LpPool",      "MaxUnpool"};
  for (auto& n : *g.mutable_node()) {
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    for (const char* op : kOps)
      if (n.op_type() == op) n.set_domain("tessel.deferred");
  }
}

void bindInputs(::onnx::GraphProto& g, const Bindings& b) {
  for (auto& in : *g.mutable_input()) {
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) continue;
    for (auto& d : *in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
      if (!d.has_dim_param()) continue;
      auto it = b.find(d.dim_param());
      if (it != b.end()) d.set_dim_value(it->second);  // clears dim_param (a oneof)
    }
  }
}

void fillGraph(const ::onnx::GraphProto& g, OnnxModel& m) {
  for (const auto& t : g.initializer()) m.initializers.push_back(initializer(t));
  for (size_t i = 0; i < static_cast<size_t>(g.node_size()); ++i) {
    const auto& n = g.node(static_cast<int>(i));
    Node node;
    node.op_type = n.op_type();
    node.name = n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
    node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto& a : n.attribute()) node.attributes[a.name()] = attribute(a);
    m.nodes.push_back(std::move(node));
  }
}

// Types and shapes after inference.
void fillValues(const ::onnx::GraphProto& g, OnnxModel& m) {
  for (const auto& v : g.output()) m.outputs.push_back(valueInfo(v));
  for (const auto& v : g.value_info()) m.value_info[v.name()] = valueInfo(v);
  for (const auto& v : g.output()) m.value_info[v.name()] = valueInfo(v);
}

}  // namespace

OnnxModel readModel(const std::string& path, const BindFn& bind) {
  std::string bytes;
  ::onnx::ModelProto proto = parse(path, &bytes);
  OnnxModel m;
  m.path = path;
  m.ir_version = proto.ir_version();
  m.producer = proto.producer_name();
  for (const auto& o : proto.opset_import())
    m.opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = o.version();
  std::map<std::string, bool> is_init;
  for (const auto& t : proto.graph().initializer()) is_init[t.name()] = true;
  for (const auto& v : proto.graph().input())
    if (!is_init.count(v.name())) m.inputs.push_back(valueInfo(v));
  bindInputs(*proto.mutable_graph(), bind(m.inputs));
  m.inputs.clear();
  for (const auto& v : proto.graph().input())
    if (!is_init.count(v.name())) m.inputs.push_back(valueInfo(v));
  fillGraph(proto.graph(), m);
  // The ONNX spec keeps external data inside the model's folder: refuse any other location now,
  // before anything is read (tensor_data.h).
  for (const Initializer& init : m.initializers)
    if (init.external) externalDataPath(path, init);
  const auto ranges = rawDataRanges(bytes);
  bytes.clear();
  for (Initializer& init : m.initializers) {
    auto r = ranges.find(init.name);
    if (!init.external && r != ranges.end()) {
      init.raw_offset = r->second.first;
      init.raw_length = r->second.second;
    }
  }
  // libonnx's inference divides by strides and indexes weight dims without checking them.
  checkBeforeInference(m);
  // ONNX 1.12 knows IR <= 8 and opsets <= 17: newer models get tessel's own shape rules only.
  auto opset = m.opsets.find("");
  if (m.ir_version <= 8 && (opset == m.opsets.end() || opset->second <= 17)) {
    verifyNodes(path, proto);
    deferWindowOps(*proto.mutable_graph());
    try {
      // error_mode 0: a node ONNX cannot infer keeps unknown outputs; tessel reports it by node.
      ::onnx::ShapeInferenceOptions options(false, 0, true);
      ::onnx::shape_inference::InferShapes(proto, ::onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception&) {
      // Inference is best effort; the importer's own propagation decides what is an error.
    }
  }
  fillValues(proto.graph(), m);
  return m;
}

struct InitializerReader::Impl {
  std::string path;
  std::mutex mutex;
  bool parsed = false;
  ::onnx::ModelProto model;
  std::map<std::string, int> index;
};

InitializerReader::InitializerReader(std::string model_path) : impl_(std::make_unique<Impl>()) {
  impl_->path = std::move(model_path);
}

InitializerReader::~InitializerReader() = default;

std::vector<float> InitializerReader::values(const Initializer& init) const {
  if (init.external) return readExternal(impl_->path, init);
  if (init.raw_offset >= 0) return readRaw(impl_->path, init);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->parsed) {
    impl_->model = parse(impl_->path);
    const auto& inits = impl_->model.graph().initializer();
    for (int i = 0; i < inits.size(); ++i) impl_->index[inits.Get(i).name()] = i;
    impl_->parsed = true;
  }
  auto it = impl_->index.find(init.name);
  if (it == impl_->index.end()) throw Error("ONNX initializer '" + init.name + "' not found");
  const auto& t = impl_->model.graph().initializer(it->second);
  int64_t n = 1;
  for (int64_t d : t.dims()) n *= d;  // the importer checked these dims
  std::vector<double> v;
  const bool ok = t.has_raw_data()
                      ? decodeRaw(init.type, t.raw_data().data(), t.raw_data().size(), n, v)
                      : decodeTyped(init.type, t, n, v);
  if (!ok) throw Error("ONNX initializer '" + init.name + "': data does not match its shape/type");
  return std::vector<float>(v.begin(), v.end());
}

}  // namespace tessel::models::onnx
