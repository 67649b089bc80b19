#include "tests/models/onnx/onnx_fixture.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include "models/onnx/import.h"

namespace tessel::models::onnx::test {

ModelBuilder::ModelBuilder(int64_t opset, int64_t ir) {
  m.set_ir_version(ir);
  m.set_producer_name("tessel-test");
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  g().set_name("test");
}

namespace {
void setType(::onnx::ValueInfoProto* v, int type, const std::vector<DimSpec>* dims) {
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(type);
  if (!dims) return;
  auto* shape = t->mutable_shape();
  for (const DimSpec& d : *dims) {
    auto* dim = shape->add_dim();
    if (std::holds_alternative<int64_t>(d))
      dim->set_dim_value(std::get<int64_t>(d));
    else
      dim->set_dim_param(std::get<std::string>(d));
  }
}
}  // namespace

void ModelBuilder::input(const std::string& name, std::vector<DimSpec> dims, int type) {
  auto* v = g().add_input();
  v->set_name(name);
  setType(v, type, &dims);
}

void ModelBuilder::output(const std::string& name, int type) {
  auto* v = g().add_output();
  v->set_name(name);
  setType(v, type, nullptr);
}

void ModelBuilder::init(const std::string& name, std::vector<int64_t> dims,
                        std::vector<float> values) {
  auto* t = g().add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) {
    t->add_dims(d);
    n *= d;
  }
  if (values.empty()) values.assign(static_cast<size_t>(n), 0.5f);
  for (float v : values) t->add_float_data(v);
}

void ModelBuilder::initInts(const std::string& name, std::vector<int64_t> dims,
                            std::vector<int64_t> values) {
  auto* t = g().add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t v : values) t->add_int64_data(v);
}

void ModelBuilder::initExternal(const std::string& name, std::vector<int64_t> dims,
                                const std::string& location, int64_t offset) {
  auto* t = g().add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  t->set_data_location(::onnx::TensorProto::EXTERNAL);
  auto* kv = t->add_external_data();
  kv->set_key("location");
  kv->set_value(location);
  if (offset > 0) {
    auto* off = t->add_external_data();
    off->set_key("offset");
    off->set_value(std::to_string(offset));
  }
}

::onnx::NodeProto& ModelBuilder::node(const std::string& op, std::vector<std::string> in,
                                      std::vector<std::string> out, const std::string& name) {
  auto* n = g().add_node();
  n->set_op_type(op);
  n->set_name(name.empty() ? out.at(0) : name);
  for (auto& s : in) n->add_input(s);
  for (auto& s : out) n->add_output(s);
  return *n;
}

std::string ModelBuilder::write(const std::string& path) const {
  if (path.empty()) return writeBytes(m.SerializeAsString());
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

void attrInt(::onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INT);
  a->set_i(v);
}

void attrInts(::onnx::NodeProto& n, const std::string& name, std::vector<int64_t> v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

void attrFloat(::onnx::NodeProto& n, const std::string& name, float v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void attrString(::onnx::NodeProto& n, const std::string& name, const std::string& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::STRING);
  a->set_s(v);
}

std::string tempPath(const std::string& suffix) {
  // One fresh directory per test process (mkdtemp): a file or directory an earlier run left under
  // a name made of the same pid can never be taken for this run's (it was, once: a directory left
  // by OnnxErrors.MissingFileAndDirectory failed a later process's model write).
  static const std::string dir = [] {
    char pattern[] = "/tmp/tessel_onnx_test_XXXXXX";
    const char* made = ::mkdtemp(pattern);
    return made != nullptr ? std::string(made) : std::string("/tmp");
  }();
  static std::atomic<int> counter{0};
  return dir + "/" + std::to_string(counter++) + suffix;
}

std::string writeBytes(const std::string& bytes, const std::string& suffix) {
  const std::string path = tempPath(suffix);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

Graph importModel(const ModelBuilder& b, WorkloadOptions o) { return importFile(b.write(), o); }

std::vector<const Op*> opsOf(const Graph& g, OpKind k) {
  std::vector<const Op*> out;
  for (const Op& op : g.ops())
    if (op.kind == k) out.push_back(&op);
  return out;
}

}  // namespace tessel::models::onnx::test
