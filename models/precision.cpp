#include "models/precision.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::models {

DType PrecisionPlan::dtypeOf(const std::string& op_name) const {
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    if (it->op == op_name) return it->dtype;
  }
  return default_dtype;
}

void PrecisionPlan::set(const std::string& op_name, DType dtype) {
  for (auto& e : ops) {
    if (e.op == op_name) {
      e.dtype = dtype;
      return;
    }
  }
  ops.push_back({op_name, dtype, {}});
}

namespace {

DType parseDTypeNode(const yaml::Node& node) {
  const std::string& s = node.scalar("a dtype");
  const auto t = parseDType(s);
  if (!t) {
    node.fail("unknown dtype '" + s + "' (accepted: int8, int16, int32, fp16, bf16, fp32)" +
              didYouMean(s, {"int8", "int16", "int32", "fp16", "bf16", "fp32"}));
  }
  return *t;
}

// Producer dtype -> consumer dtype: Quantize when going to an integer or fewer bytes.
OpKind conversionKind(DType to) {
  return isInteger(to) || bytesOf(to) < 4 ? OpKind::Quantize : OpKind::Dequantize;
}

bool keepsItsDType(const Graph& g, const Op& op, size_t input) {
  const Tensor& t = g.tensor(op.inputs[input]);
  // Token and position ids (and a gather's indices) stay int32 whatever the op computes in.
  const bool ids =
      (op.kind == OpKind::Embedding && input == 0) || (op.kind == OpKind::Gather && input == 1);
  return ids && t.dtype == DType::Int32;
}

}  // namespace

namespace {

PrecisionPlan parsePlan(const yaml::Document& doc) {
  yaml::MapReader top(doc.root());
  PrecisionPlan plan;
  if (auto d = top.find("default")) {
    plan.default_dtype = parseDTypeNode(*d);
    plan.default_where = d->where();
  }
  if (auto ops = top.find("ops")) {
    if (!ops->isNull()) {
      yaml::MapReader unique(*ops);  // an op listed twice is an error, not "the last wins"
      for (const auto& [key, value] : ops->entries()) {
        plan.ops.push_back({key.scalar(), parseDTypeNode(value), key.where()});
      }
    }
  }
  top.find("error");  // written by `tessel precision` for the reader; not part of the plan
  top.find("tolerance");
  top.find("metric");
  top.finish();
  return plan;
}

}  // namespace

PrecisionPlan parsePrecisionPlan(const std::string& text, const std::string& source_name) {
  return parsePlan(yaml::Document::fromString(text, source_name));
}

PrecisionPlan loadPrecisionPlan(const std::string& path) {
  return parsePlan(yaml::Document::fromFile(path));  // names directories and missing files
}

namespace {

// An op name as a double-quoted YAML scalar: a name may hold ':', '#', quotes or newlines (a
// plan's names come from its reader), and written bare it would change the plan when read back.
std::string quotedName(const std::string& name) {
  std::string out = "\"";
  for (const unsigned char c : name) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace

std::string toYaml(const PrecisionPlan& plan) {
  std::string out = "default: " + std::string(nameOf(plan.default_dtype)) + "\nops:";
  if (plan.ops.empty()) return out + " {}\n";
  out += "\n";
  for (const auto& e : plan.ops) {
    out += "  " + quotedName(e.op) + ": " + std::string(nameOf(e.dtype)) + "\n";
  }
  return out;
}

Graph retype(const Graph& g, const DTypeChoice& choice) {
  Graph out;
  out.name = g.name;
  out.warnings = g.warnings;
  out.weight_values = g.weight_values;             // a model file's weights keep their names
  out.folded_parameters = g.folded_parameters;
  std::vector<int> remap(g.tensors().size(), -1);  // old tensor -> new tensor as produced
  std::map<std::pair<int, DType>, int> converted;  // (new tensor, dtype) -> converted copy
  auto tensorFor = [&](int old_id, DType want) {
    const Tensor& t = g.tensor(old_id);
    if (remap[static_cast<size_t>(old_id)] < 0) {
      const DType stored = choice.stored ? choice.stored(t, want) : want;
      remap[static_cast<size_t>(old_id)] = out.addTensor(t.name, t.shape, stored, t.role);
      out.tensor(remap[static_cast<size_t>(old_id)]).parameter = t.parameter;
    }
    const int id = remap[static_cast<size_t>(old_id)];
    if (out.tensor(id).dtype == want) return id;
    auto key = std::make_pair(id, want);
    if (auto it = converted.find(key); it != converted.end()) return it->second;
    const std::string name = out.tensor(id).name + ".to_" + std::string(nameOf(want));
    Op conv;
    conv.name = name;
    conv.kind = conversionKind(want);
    conv.inputs = {id};
    conv.outputs = {out.addTensor(name, out.tensor(id).shape, want, TensorRole::Activation)};
    conv.layer = out.producerOf(id) >= 0 ? out.op(out.producerOf(id)).layer : -1;
    out.addOp(conv);
    converted[key] = conv.outputs[0];
    return conv.outputs[0];
  };
  for (const Op& op : g.ops()) {
    Op copy = op;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      copy.inputs[i] = tensorFor(op.inputs[i], choice.input(op, i));
    }
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      const Tensor& t = g.tensor(op.outputs[i]);
      copy.outputs[i] = out.addTensor(t.name, t.shape, choice.output(op, i), t.role);
      remap[static_cast<size_t>(op.outputs[i])] = copy.outputs[i];
    }
    out.addOp(copy);
  }
  return out;
}

Graph applyPrecision(const Graph& g, const PrecisionPlan& plan) {
  std::vector<std::string> names;
  for (const Op& op : g.ops()) names.push_back(op.name);
  for (const auto& e : plan.ops) {
    if (g.findOp(e.op) < 0) {
      throw ConfigError(e.where, "the plan names op '" + e.op + "', which workload '" + g.name +
                                     "' does not have" + didYouMean(e.op, names));
    }
  }
  DTypeChoice choice;
  choice.input = [&](const Op& op, size_t i) {
    return keepsItsDType(g, op, i) ? g.tensor(op.inputs[i]).dtype : plan.dtypeOf(op.name);
  };
  choice.output = [&](const Op& op, size_t) { return plan.dtypeOf(op.name); };
  return retype(g, choice);
}

}  // namespace tessel::models
