// Builds small ONNX models with the protobuf API, writes them to temp files and imports them.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models::onnx::test {

using DimSpec = std::variant<int64_t, std::string>;

struct ModelBuilder {
  explicit ModelBuilder(int64_t opset = 13, int64_t ir = 8);
  ::onnx::ModelProto m;
  ::onnx::GraphProto& g() { return *m.mutable_graph(); }

  void input(const std::string& name, std::vector<DimSpec> dims, int type = 1);
  void output(const std::string& name, int type = 1);
  void init(const std::string& name, std::vector<int64_t> dims, std::vector<float> values = {});
  void initInts(const std::string& name, std::vector<int64_t> dims, std::vector<int64_t> values);
  // An external-data initializer stored in `location` (relative to the model file).
  void initExternal(const std::string& name, std::vector<int64_t> dims, const std::string& location,
                    int64_t offset = 0);
  ::onnx::NodeProto& node(const std::string& op, std::vector<std::string> in,
                          std::vector<std::string> out, const std::string& name = "");
  // Writes the model to a fresh temp file (or `path`); returns its path.
  std::string write(const std::string& path = "") const;
};

void attrInt(::onnx::NodeProto& n, const std::string& name, int64_t v);
void attrInts(::onnx::NodeProto& n, const std::string& name, std::vector<int64_t> v);
void attrFloat(::onnx::NodeProto& n, const std::string& name, float v);
void attrString(::onnx::NodeProto& n, const std::string& name, const std::string& v);

// A fresh temp file path with this suffix.
std::string tempPath(const std::string& suffix);
std::string writeBytes(const std::string& bytes, const std::string& suffix = ".onnx");

Graph importModel(const ModelBuilder& b, WorkloadOptions o = {});
// The ops of kind k.
std::vector<const Op*> opsOf(const Graph& g, OpKind k);

}  // namespace tessel::models::onnx::test
