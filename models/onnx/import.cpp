// importFile: read -> bind -> order -> shapes -> convert, then warnings, name and weights.
#include "models/onnx/import.h"

#include "models/passes/recognize.h"

#include <filesystem>
#include <queue>
#include <stdexcept>

#include "models/onnx/bind.h"
#include "models/onnx/context.h"
#include "models/onnx/weights.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::models::onnx {
namespace {

bool isIntegralType(ElemType t) {
  return t == ElemType::Int64 || t == ElemType::Int32 || t == ElemType::Int8 ||
         t == ElemType::Uint8 || t == ElemType::Int16 || t == ElemType::Uint16 ||
         t == ElemType::Bool || t == ElemType::Uint32 || t == ElemType::Uint64;
}

constexpr int64_t kMaxIr = 8, kMaxOpset = 17;

void checkVersions(const OnnxModel& m, const WorkloadOptions& o, Graph& g) {
  auto it = m.opsets.find("");
  const int64_t opset = it == m.opsets.end() ? 0 : it->second;
  if (m.ir_version <= kMaxIr && opset <= kMaxOpset) return;
  const std::string what = "IR version " + std::to_string(m.ir_version) + ", opset " +
                           std::to_string(opset) + " (supported: IR ≤ 8, opset ≤ 17)";
  if (o.strict || m.ir_version > 10 || opset > 21)
    throw ConfigError({m.path, 0, 0, "workload"}, "the model is newer than supported: " + what);
  g.warnings.push_back("the model is newer than supported, " + what +
                       ": imported best effort, with tessel's own shape rules");
}

// Kahn's order; a node left over sits on a cycle.
std::vector<int> topoOrder(Context& ctx) {
  const auto& nodes = ctx.model.nodes;
  std::unordered_map<std::string, int> producer;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const std::string& out : nodes[i].outputs) {
      if (out.empty()) continue;
      if (producer.count(out) || ctx.values.count(out))
        ctx.fail(nodes[i], "output '" + out + "' is already defined");
      producer[out] = static_cast<int>(i);
    }
  }
  std::vector<int> pending(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const std::string& in : nodes[i].inputs) {
      if (in.empty()) continue;
      ctx.consumers[in].push_back(static_cast<int>(i));
      if (producer.count(in))
        ++pending[i];
      else if (!ctx.values.count(in))
        ctx.fail(nodes[i], "reads '" + in + "', which no node, input or initializer provides");
    }
  }
  std::queue<int> ready;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (pending[i] == 0) ready.push(static_cast<int>(i));
  std::vector<int> order;
  while (!ready.empty()) {
    const int i = ready.front();
    ready.pop();
    order.push_back(i);
    for (const std::string& out : nodes[static_cast<size_t>(i)].outputs) {
      if (out.empty() || !ctx.consumers.count(out)) continue;
      for (int c : ctx.consumers[out])
        if (--pending[static_cast<size_t>(c)] == 0) ready.push(c);
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    if (pending[i] > 0) ctx.fail(nodes[i], "is on a cycle: the graph is not acyclic");
  return order;
}

void addInputs(Context& ctx) {
  for (const Initializer& init : ctx.model.initializers) {
    Value& v = ctx.values[init.name];
    v.init = &init;
    v.type = init.type;
    v.shape = init.dims;
    v.inferred = true;
    for (int64_t d : init.dims) {
      if (d < 0 || d > checked::kMaxCount)
        throw ConfigError({ctx.model.path, 0, 0, "workload"},
                          "initializer '" + init.name + "' has a " +
                              (d < 0 ? "negative" : "too large") + " dimension");
    }
    if (init.small && isIntegralType(init.type)) v.ints = init.small->ints;
    if (init.small && !init.small->floats.empty()) v.floats = init.small->floats;
  }
  for (const ValueInfo& in : ctx.model.inputs) {
    Value& v = ctx.values[in.name];
    v.type = in.type;
    if (!in.has_shape) {
      const bool tensor = in.type != ElemType::Undefined;
      throw ConfigError({ctx.model.path, 0, 0, "workload"},
                        "input '" + in.name + "' " +
                            (tensor ? "has no shape"
                                    : "is not a tensor (sequence and optional "
                                      "types are not supported)"));
    }
    for (const Dim& d : in.dims) v.shape.push_back(*d.value);  // bindDims left none unknown
    v.inferred = true;
    try {
      v.tensor = ctx.g.addTensor(in.name, v.shape, ctx.dtypeOf(in.type), TensorRole::Input);
    } catch (const ConfigError&) {
      throw;
    } catch (const Error& e) {
      throw ConfigError({ctx.model.path, 0, 0, "workload"}, "input '" + in.name + "': " + e.what());
    }
  }
}

bool onlyShapes(Context& ctx, const Node& n) {
  for (const std::string& out : n.outputs)
    if (!out.empty() && !ctx.values[out].ints) return false;
  return !n.outputs.empty();
}

void convert(Context& ctx, const std::vector<int>& order) {
  static const std::map<std::string, Converter> table = [] {
    std::map<std::string, Converter> t;
    addGemmConverters(t);
    addConvConverters(t);
    addEltConverters(t);
    addLayoutConverters(t);
    addNormConverters(t);
    return t;
  }();
  for (int idx : order) {
    const Node& n = ctx.model.nodes[static_cast<size_t>(idx)];
    if (ctx.folded[static_cast<size_t>(idx)] || onlyShapes(ctx, n)) continue;
    auto it = n.domain.empty() || n.domain == "com.microsoft" ? table.find(n.op_type) : table.end();
    try {
      ctx.why_generic.clear();
      if (it == table.end() || !it->second(ctx, n)) {
        std::string fn = n.op_type;
        for (char& c : fn) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        ctx.genericOp(n, fn, true, it != table.end());
      }
    } catch (const ConfigError& e) {
      // Errors from shared checks (counts that overflow) learn which node they are about.
      if (e.message().find("node '") == std::string::npos) ctx.fail(n, e.message());
      throw;
    } catch (const Error& e) {
      ctx.fail(n, e.what());
    } catch (const std::out_of_range& e) {
      // An operand whose rank or size contradicts the node (a malformed file).
      ctx.fail(n, std::string("malformed node (") + e.what() + ")");
    }
  }
}

void addWarnings(Context& ctx) {
  for (const auto& [type, nodes] : ctx.generic) {
    std::string names;
    for (size_t i = 0; i < nodes.size() && i < 8; ++i) names += (i ? ", " : "") + nodes[i];
    if (nodes.size() > 8) names += ", ...";
    ctx.g.warnings.push_back(std::to_string(nodes.size()) + " op" + (nodes.size() > 1 ? "s" : "") +
                             " of type " + type + " costed as generic elementwise op" +
                             (nodes.size() > 1 ? "s" : "") + ": nodes " + names);
  }
  if (ctx.views_copied > 0) {
    ctx.g.warnings.push_back(std::to_string(ctx.views_copied) +
                             " reshaped view(s) copied because their readers need the new shape");
  }
}

std::string graphName(const std::string& path, const Bindings& b) {
  std::string name = std::filesystem::path(path).stem().string();
  for (const auto& [dim, value] : b) name += " " + dim + "=" + std::to_string(value);
  return name;
}

}  // namespace

Graph importFile(const std::string& path, const WorkloadOptions& options) {
  Bindings bound;
  auto model = std::make_shared<OnnxModel>(readModel(path, [&](const std::vector<ValueInfo>& in) {
    bound = bindDims(path, in, options);
    return bound;
  }));
  Graph g;
  g.name = graphName(path, bound);
  checkVersions(*model, options, g);
  Context ctx{*model, options, g};
  ctx.folded.assign(model->nodes.size(), false);
  addInputs(ctx);
  const std::vector<int> order = topoOrder(ctx);
  propagateShapes(ctx, order);
  convert(ctx, order);
  for (const ValueInfo& out : model->outputs) {
    auto it = ctx.values.find(out.name);
    if (it == ctx.values.end())
      throw ConfigError({path, 0, 0, "workload"},
                        "graph output '" + out.name + "' is never produced");
  }
  addWarnings(ctx);
  if (const std::string w = missingWeightsWarning(*model); !w.empty()) g.warnings.push_back(w);
  g.weight_values = makeWeightSource(model, ctx);
  // Decomposed LayerNorm/RMSNorm/GELU/SiLU/HardSwish become one op each, and an exported
  // attention's scale and causal mask fold into its score (models/passes/recognize.h).
  return recognizePatterns(g);
}

}  // namespace tessel::models::onnx
