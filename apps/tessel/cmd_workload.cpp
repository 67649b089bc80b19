// tessel workload NAME: the op list with shapes and MACs, as a table or JSON.
#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "models/workload.h"
#include "util/checked.h"

namespace tessel::app {

namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s + "]";
}

// The shapes of an op's inputs; an op with many (a mixture-of-experts combine reads every
// expert's output) lists its first three and the count.
std::string inputsText(const models::Graph& g, const models::Op& op) {
  std::string s;
  const size_t shown = op.inputs.size() > 4 ? 3 : op.inputs.size();
  for (size_t i = 0; i < shown; ++i)
    s += (s.empty() ? "" : " ") + shapeText(g.tensor(op.inputs[i]).shape);
  if (shown < op.inputs.size()) s += " ... (" + std::to_string(op.inputs.size()) + " inputs)";
  return s;
}

int64_t weightBytes(const models::Graph& g) {
  int64_t bytes = 0;
  for (const models::Tensor& t : g.tensors()) {
    if (t.role == models::TensorRole::Weight)
      bytes = checked::add(bytes, t.bytes(), [&] { return "the weight bytes of " + g.name; });
  }
  return bytes;
}

nlohmann::ordered_json toJson(const models::Graph& g) {
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (const auto& op : g.ops()) {
    nlohmann::ordered_json o;
    o["id"] = op.id;
    o["name"] = op.name;
    o["kind"] = std::string(nameOf(op.kind));
    o["class"] = std::string(nameOf(op.opClass()));
    o["layer"] = op.layer;
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (int t : op.inputs)
      inputs.push_back({{"name", g.tensor(t).name}, {"shape", g.tensor(t).shape}});
    o["inputs"] = inputs;
    o["output_shape"] = g.tensor(op.outputs.at(0)).shape;
    if (op.isGemmLike()) {
      o["gemm"] = {{"batch", op.gemm.batch}, {"m", op.gemm.m}, {"n", op.gemm.n}, {"k", op.gemm.k}};
    }
    o["macs"] = op.macs;
    if (!op.source.empty()) o["source"] = op.source;
    ops.push_back(o);
  }
  nlohmann::ordered_json j;
  j["workload"] = g.name;
  j["ops_count"] = g.ops().size();
  j["total_macs"] = g.totalMacs();
  j["parameters"] = g.parameterCount();
  j["totals"] = {{"ops", g.ops().size()},
                 {"macs", g.totalMacs()},
                 {"parameters", g.parameterCount()},
                 {"weight_bytes", weightBytes(g)}};
  j["warnings"] = g.warnings;
  j["ops"] = ops;
  return j;
}

}  // namespace

int workloadCommand(const WorkloadArgs& args, const std::string& json_path, std::ostream& out) {
  checkOutputs({{"--json", json_path}}, {});
  const models::Graph g = buildWorkload(args, DType::Int8);
  if (!json_path.empty()) {
    writeOutput(json_path, toJson(g).dump(2) + "\n", out);
    if (isStandardOutput(json_path)) return 0;  // the op list is the output
  }
  out << g.name << ": " << g.ops().size() << " ops, " << g.totalMacs() << " MACs, "
      << g.parameterCount() << " parameters\n";
  // Columns as wide as their longest entry, so long names ("layers.0.input_layernorm") and
  // kinds never run into the next column.
  size_t name_w = 4, kind_w = 4, in_w = 6;
  for (const auto& op : g.ops()) {
    name_w = std::max(name_w, op.name.size());
    kind_w = std::max(kind_w, nameOf(op.kind).size());
    in_w = std::max(in_w, inputsText(g, op).size());
  }
  const auto col = [](size_t w) { return std::setw(static_cast<int>(w + 2)); };
  out << std::left << std::setw(5) << "id" << col(name_w) << "name" << col(kind_w) << "kind"
      << col(in_w) << "inputs" << std::setw(20) << "output" << std::right << std::setw(16) << "MACs"
      << "\n";
  for (const auto& op : g.ops()) {
    out << std::left << std::setw(5) << op.id << col(name_w) << op.name << col(kind_w)
        << nameOf(op.kind) << col(in_w) << inputsText(g, op) << std::setw(20)
        << shapeText(g.tensor(op.outputs.at(0)).shape) << std::right << std::setw(16) << op.macs
        << "\n";
  }
  return 0;
}

}  // namespace tessel::app
