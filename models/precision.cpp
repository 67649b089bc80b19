#include "models/precision.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::models {

DType PrecisionPlan::dtypeOf(const std::string& op_name) const { return precisionOf(op_name).dtype; }

OpPrecision PrecisionPlan::precisionOf(const std::string& op_name) const {
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    if (it->op == op_name) return {it->dtype, it->weights, it->dequantize, it->sparsity};
  }
  return {default_dtype, default_weights, default_dequantize, default_sparsity};
}

void PrecisionPlan::set(const std::string& op_name, DType dtype) { set(op_name, OpPrecision{dtype, {}, {}, {}}); }

void PrecisionPlan::set(const std::string& op_name, const OpPrecision& p) {
  for (auto& e : ops) {
    if (e.op == op_name) {
      e.dtype = p.dtype, e.weights = p.weights, e.dequantize = p.dequantize, e.sparsity = p.sparsity;
      return;
    }
  }
  ops.push_back({op_name, p.dtype, {}, p.weights, p.dequantize, p.sparsity});
}

namespace {

DType parseDTypeNode(const yaml::Node& node) {
  const std::string& s = node.scalar("a dtype");
  const auto t = parseDType(s);
  if (!t) node.fail(dtypeError(s));
  return *t;
}

// `bf16` or {dtype: bf16, weights: int4, dequantize: datapath | op}.
OpPrecision parsePrecisionNode(const yaml::Node& node) {
  if (!node.isMap()) return {parseDTypeNode(node), {}, {}, {}};
  yaml::MapReader m(node);
  OpPrecision p;
  p.dtype = parseDTypeNode(m.require("dtype", "the dtype the op computes in"));
  if (auto w = m.find("weights")) p.weights = parseDTypeNode(*w);
  if (auto d = m.find("dequantize")) {
    const std::string& s = d->scalar("datapath or op");
    if (s != "datapath" && s != "op") d->fail("expected datapath or op, got '" + s + "'");
    if (!p.weights) d->fail("dequantize applies to weights stored in another dtype: give weights too");
    p.dequantize = s == "op" ? Dequantize::Op : Dequantize::Datapath;
  }
  if (auto sp = m.find("sparsity")) {
    const std::string& s = sp->scalar("an N:M pattern such as 2:4, a density, or dense");
    Sparsity parsed;
    std::string why;
    if (s != "dense" && !parseSparsity(s, parsed, why)) sp->fail(why);
    p.sparsity = parsed;
  }
  m.finish();
  if (p.weights == p.dtype) p.weights.reset();
  return p;
}

// Producer dtype -> consumer dtype: Quantize when going to an integer, a narrow float or fewer
// bytes; Dequantize when widening (int8 or int4 weights to bf16, fp16 to fp32).
OpKind conversionKind(DType from, DType to) {
  const bool narrower = isInteger(to) || isNarrowFloat(to) || bytesOf(to) < bytesOf(from);
  return narrower ? OpKind::Quantize : OpKind::Dequantize;
}

// Input i of op is a matmul's or convolution's weight operand (what weight-only plans narrow).
bool readsWeights(const Graph& g, const Op& op, size_t input) {
  return (op.kind == OpKind::MatMul || op.kind == OpKind::Conv2d) && input == 1 && op.inputs.size() > 1 &&
         g.tensor(op.inputs[1]).role == TensorRole::Weight;
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
    const OpPrecision p = parsePrecisionNode(*d);
    plan.default_dtype = p.dtype, plan.default_weights = p.weights, plan.default_dequantize = p.dequantize;
    plan.default_sparsity = p.sparsity;
    plan.default_where = d->where();
  }
  if (auto ops = top.find("ops")) {
    if (!ops->isNull()) {
      yaml::MapReader unique(*ops);  // an op listed twice is an error, not "the last wins"
      for (const auto& [key, value] : ops->entries()) {
        const OpPrecision p = parsePrecisionNode(value);
        plan.ops.push_back({key.scalar(), p.dtype, key.where(), p.weights, p.dequantize, p.sparsity});
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

std::string precisionText(const OpPrecision& p) {
  const std::string dtype(nameOf(p.dtype));
  if (!p.weights && !p.sparsity) return dtype;
  std::string out = "{dtype: " + dtype;
  if (p.weights) out += ", weights: " + std::string(nameOf(*p.weights));
  if (p.weights && p.dequantize == Dequantize::Op) out += ", dequantize: op";
  if (p.sparsity) out += ", sparsity: \"" + toString(*p.sparsity) + "\"";
  return out + "}";
}

}  // namespace

std::string toYaml(const PrecisionPlan& plan) {
  std::string out =
      "default: " +
      precisionText({plan.default_dtype, plan.default_weights, plan.default_dequantize,
                     plan.default_sparsity}) +
      "\nops:";
  if (plan.ops.empty()) return out + " {}\n";
  out += "\n";
  for (const auto& e : plan.ops) {
    out += "  " + quotedName(e.op) + ": " +
           precisionText({e.dtype, e.weights, e.dequantize, e.sparsity}) + "\n";
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
      out.tensor(remap[static_cast<size_t>(old_id)]).sparsity = t.sparsity;
    }
    const int id = remap[static_cast<size_t>(old_id)];
    if (out.tensor(id).dtype == want) return id;
    auto key = std::make_pair(id, want);
    if (auto it = converted.find(key); it != converted.end()) return it->second;
    const std::string name = out.tensor(id).name + ".to_" + std::string(nameOf(want));
    Op conv;
    conv.name = name;
    conv.kind = conversionKind(out.tensor(id).dtype, want);
    conv.inputs = {id};
    conv.outputs = {out.addTensor(name, out.tensor(id).shape, want, TensorRole::Activation)};
    out.tensor(conv.outputs[0]).sparsity = out.tensor(id).sparsity;  // a copy keeps its zeros
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
      out.tensor(copy.outputs[i]).sparsity = t.sparsity;
      remap[static_cast<size_t>(op.outputs[i])] = copy.outputs[i];
    }
    out.addOp(copy);
  }
  return out;
}

namespace {

// The plan's weight sparsity on each matmul's and convolution's weights, through any conversion
// between them (a weight widened by a Dequantize op keeps its zeros).
void applyPlanSparsity(Graph& g, const PrecisionPlan& plan) {
  for (const Op& op : g.ops()) {
    if ((op.kind != OpKind::MatMul && op.kind != OpKind::Conv2d) || op.inputs.size() < 2) continue;
    const std::optional<Sparsity> s = plan.precisionOf(op.name).sparsity;
    if (!s) continue;
    std::vector<int> path{op.inputs[1]};
    for (int producer = g.producerOf(path.back()); producer >= 0;
         producer = g.producerOf(path.back())) {
      const Op& p = g.op(producer);
      if (p.kind != OpKind::Quantize && p.kind != OpKind::Dequantize) break;
      path.push_back(p.inputs.at(0));
    }
    if (g.tensor(path.back()).role != TensorRole::Weight) continue;  // activations keep theirs
    for (int t : path) g.tensor(t).sparsity = *s;
  }
}

}  // namespace

Graph applyPrecision(const Graph& g, const PrecisionPlan& plan) {
  std::vector<std::string> names;
  for (const Op& op : g.ops()) names.push_back(op.name);
  for (const auto& e : plan.ops) {
    if (g.findOp(e.op) < 0) {
      throw ConfigError(e.where, "the plan names op '" + e.op + "', which workload '" + g.name +
                                     "' does not have" + didYouMean(e.op, names));
    }
  }
  // Weights a Dequantize op widens are stored at the plan's weight dtype.
  std::vector<std::optional<DType>> stored_weights(g.tensors().size());
  for (const Op& op : g.ops()) {
    const OpPrecision p = plan.precisionOf(op.name);
    if (p.weights && p.dequantize == Dequantize::Op && readsWeights(g, op, 1)) {
      stored_weights[static_cast<size_t>(op.inputs[1])] = p.weights;
    }
  }
  DTypeChoice choice;
  choice.input = [&](const Op& op, size_t i) {
    if (keepsItsDType(g, op, i)) return g.tensor(op.inputs[i]).dtype;
    const OpPrecision p = plan.precisionOf(op.name);
    return p.weights && p.dequantize == Dequantize::Datapath && readsWeights(g, op, i) ? *p.weights : p.dtype;
  };
  choice.output = [&](const Op& op, size_t) { return plan.dtypeOf(op.name); };
  choice.stored = [&](const Tensor& t, DType first_read) {
    return stored_weights[static_cast<size_t>(t.id)].value_or(first_read);
  };
  Graph out = retype(g, choice);
  applyPlanSparsity(out, plan);
  return out;
}

}  // namespace tessel::models
