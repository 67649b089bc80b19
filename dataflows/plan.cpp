#include "dataflows/plan.h"

#include <algorithm>
#include <functional>

#include "dataflows/host_conversions.h"
#include "dataflows/mapper.h"
#include "dataflows/pinned_mapping.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::dataflows {

using models::OpKind;

std::string unitOpName(const models::Op& op) {
  switch (op.kind) {
    case OpKind::Softmax:
      return "softmax";
    case OpKind::LayerNorm:
      return "layernorm";
    case OpKind::Gelu:
      return "gelu";
    case OpKind::Relu:
      return "relu";
    case OpKind::Add:
      return "add";
    case OpKind::BatchNorm:
      return "batchnorm";
    case OpKind::MaxPool:
      return "maxpool";
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return "avgpool";
    case OpKind::Embedding:
      return "embedding";
    case OpKind::Quantize:
      return op.from_uint8 ? "uint8_shift" : "quantize";
    case OpKind::Dequantize:
      return "dequantize";
    case OpKind::Transpose:
      return "transpose";
    case OpKind::Pad:
      return "pad";
    case OpKind::Slice:
      return "slice";
    case OpKind::Mul:
      return "mul";
    case OpKind::Elementwise:
      return "elementwise";
    case OpKind::Sigmoid:
      return "sigmoid";
    case OpKind::Silu:
      return "silu";
    case OpKind::HardSwish:
      return "hardswish";
    case OpKind::RmsNorm:
      return "rmsnorm";
    case OpKind::Rope:
      return "rope";
    case OpKind::Gather:
      return "gather";
    case OpKind::Reduce:
      return "reduce";
    case OpKind::Concat:
      return "concat";
    case OpKind::MoeRoute:
      return "moe_route";
    default:
      return "gemm";
  }
}

static bool hasEpilogue(const arch::Accelerator& acc, const std::string& name) {
  const auto& ops = acc.array.epilogue_ops;
  return std::find(ops.begin(), ops.end(), name) != ops.end();
}

bool startsKernel(const OpPlan& plan) {
  if (plan.placement == Placement::Host || plan.placement == Placement::Fused) return false;
  return plan.group == nullptr || plan.group->chain.first() == plan.op->id;
}

models::FuseRules fuseRulesFor(const arch::Accelerator& acc) {
  models::FuseRules rules;
  // Inference batch norm folds into the preceding conv's weights and bias.
  rules.epilogue_kinds.push_back(OpKind::BatchNorm);
  if (hasEpilogue(acc, "relu")) rules.epilogue_kinds.push_back(OpKind::Relu);
  if (hasEpilogue(acc, "requantize")) rules.epilogue_kinds.push_back(OpKind::Quantize);
  if (acc.sfu) {
    // The SFU sits on the accumulator read path: it can process a tile as it drains.
    if (acc.sfu->supports("gelu")) rules.epilogue_kinds.push_back(OpKind::Gelu);
    if (acc.sfu->supports("softmax")) rules.epilogue_kinds.push_back(OpKind::Softmax);
    if (acc.sfu->supports("layernorm")) rules.epilogue_kinds.push_back(OpKind::LayerNorm);
    if (acc.sfu->supports("dequantize")) rules.epilogue_kinds.push_back(OpKind::Dequantize);
    // Activations and the elementwise product of a gated unit (SwiGLU) drain through it too;
    // RMSNorm is row-wise like layer norm.
    for (auto [name, kind] : {std::pair{"silu", OpKind::Silu}, std::pair{"sigmoid", OpKind::Sigmoid},
                              std::pair{"hardswish", OpKind::HardSwish}, std::pair{"mul", OpKind::Mul},
                              std::pair{"rmsnorm", OpKind::RmsNorm}}) {
      if (acc.sfu->supports(name)) rules.epilogue_kinds.push_back(kind);
    }
  }
  return rules;
}

Placement placementOf(const models::Op& op, const arch::Accelerator& acc, const models::Graph& g) {
  if (op.isGemmLike()) {
    // A dtype (pair) the array has no MACs for falls back to the host CPU.
    const DType in = g.tensor(op.inputs.at(0)).dtype;
    const DType w = op.inputs.size() > 1 ? g.tensor(op.inputs[1]).dtype : in;
    return acc.array.macRate(in, w) > 0 ? Placement::Array : Placement::Host;
  }
  if (op.host_side) return Placement::Host;
  if (op.kind == OpKind::Embedding) return Placement::Array;  // a DMA gather
  // A gather of rows from the model's own tensors (not a deployment's) is a DMA gather too.
  if (op.kind == OpKind::Gather && op.layout.on_accelerator) return Placement::Array;
  // A layout op runs where the deployment decided (serve::withDeploymentOps): the accelerator
  // streams it through its array path, or the host does it.
  if (op.opClass() == models::OpClass::Layout)
    return op.layout.on_accelerator ? Placement::Array : Placement::Host;
  const std::string name = unitOpName(op);
  if (op.kind == OpKind::Add && hasEpilogue(acc, "residual_add")) return Placement::Array;
  if (op.kind != OpKind::Add && hasEpilogue(acc, name)) return Placement::Array;
  if (acc.sfu && acc.sfu->supports(name)) return Placement::Sfu;
  return Placement::Host;
}

namespace {

// Activations live in the L2 when it exists, holds them (an activation is one op's output and
// the next one's input: `holds` must name both) and they fit half of it; otherwise in DRAM.
// Reloaded weights hit the L2 only when it holds weights.
struct Homes {
  int l2 = -1;
  uint64_t l2_bytes = 0;
  arch::Holds holds;
  bool fits(int64_t bytes) const { return l2 >= 0 && static_cast<uint64_t>(bytes) <= l2_bytes / 2; }
  bool keepsActivation(int64_t bytes) const { return holds.inputs && holds.outputs && fits(bytes); }
  int home(int64_t bytes) const { return keepsActivation(bytes) ? l2 : 0; }
  // A tensor's re-reads come from the L2 when it holds that role.
  bool rereadsFromL2(const models::Tensor& t) const {
    return t.role == models::TensorRole::Weight ? holds.weights && fits(t.bytes())
                                                : keepsActivation(t.bytes());
  }
};

Homes homesOf(const arch::Accelerator& acc) {
  Homes h;
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    if (acc.levels[i].kind == arch::LevelKind::L2) {
      h.l2 = static_cast<int>(i);
      h.l2_bytes = acc.levels[i].capacity_bytes;
      h.holds = acc.levels[i].holds;
    }
  }
  return h;
}

void fillTensors(OpPlan& p, const models::Graph& g, const Homes& homes, int final_output) {
  const models::Op& op = *p.op;
  const models::Tensor& out = g.tensor(final_output);
  p.elements = out.elements();
  p.output_bytes = out.bytes();
  p.rows = out.shape.empty() ? 1 : out.elements() / std::max<int64_t>(1, out.shape.back());
  p.input_bytes = 0;
  for (int t : op.inputs) {
    p.input_bytes = checked::add(p.input_bytes, g.tensor(t).bytes(),
                                 [&] { return "the input bytes of op '" + op.name + "'"; });
  }
  const models::Tensor& in0 = g.tensor(op.inputs.at(0));
  p.input_home = in0.role == models::TensorRole::Activation ? homes.home(in0.bytes()) : 0;
  p.input_fits_l2 = homes.rereadsFromL2(in0);
  if (op.inputs.size() > 1) {
    const models::Tensor& in1 = g.tensor(op.inputs[1]);
    p.weight_home = in1.role == models::TensorRole::Activation ? homes.home(in1.bytes()) : 0;
    p.weight_fits_l2 = homes.rereadsFromL2(in1);
  }
  p.output_home = homes.home(out.bytes());
  p.unit_op = unitOpName(op);
}

// Maps one GEMM; if its group needs whole rows and they do not fit, drops the row-wise tail of
// the epilogue (those ops then run on their own). `pin`: the mapping pinned for this op, if any.
void mapGemm(OpPlan& p, const models::Graph& g, const arch::Accelerator& acc, const Dataflow& df,
             const Mapper& mapper, models::FusionGroup* group, const PinnedMapping* pin) {
  p.problem = problemOf(*p.op, g);
  MapResult r;
  const std::array<int, 3> homes{p.input_home, p.weight_home, p.output_home};
  if (pin) {
    const bool whole = group && group->needs_whole_rows;
    p.mapping = pinnedMapping(*pin, p.problem, acc, df, MapConstraints{whole, homes}).mapping;
    return;
  }
  if (group && group->needs_whole_rows) {
    r = mapper.map(p.problem, acc, df, MapConstraints{true, homes});
    if (!r.ok) {
      auto first_row = std::find_if(group->epilogue.begin(), group->epilogue.end(),
                                    [&](int id) { return models::isRowwise(g.op(id).kind); });
      group->epilogue.erase(first_row, group->epilogue.end());
      group->needs_whole_rows = false;
    }
  }
  if (!r.ok) r = mapper.map(p.problem, acc, df, MapConstraints{false, homes});
  if (!r.ok) throw InfeasibleError("no mapping for op '" + p.op->name + "': " + r.reason);
  p.mapping = r.mapping;
}

// The input of a fused member that does not come down the chain (a residual operand), or -1.
int sideInput(const models::Graph& g, const models::FusionGroup& group, const models::Op& op) {
  auto pos = std::find(group.epilogue.begin(), group.epilogue.end(), op.id);
  const int prev = pos == group.epilogue.begin() ? group.anchor : *(pos - 1);
  const int chain = g.op(prev).outputs.at(0);
  for (int t : op.inputs) {
    if (t != chain && g.tensor(t).role != models::TensorRole::Weight) return t;
  }
  return -1;
}

// A tensor one host op writes and only host ops read stays in host memory.
void markHostResidency(std::vector<OpPlan>& plans, const models::Graph& g) {
  const auto onHost = [&](int op_id) {
    return op_id >= 0 && plans[static_cast<size_t>(op_id)].placement == Placement::Host;
  };
  // A graph input only host ops read (a request a deployment's host pre-processes) starts in
  // host memory; weights and inputs the accelerator reads live in the shared memory.
  const auto hostOnlyInput = [&](int t) {
    const std::vector<int> readers = g.consumersOf(t);
    return g.tensor(t).role == models::TensorRole::Input && !readers.empty() &&
           std::all_of(readers.begin(), readers.end(), onHost);
  };
  for (OpPlan& p : plans) {
    if (p.placement != Placement::Host) continue;
    for (int t : p.op->inputs)
      p.input_on_host.push_back(onHost(g.producerOf(t)) || hostOnlyInput(t));
    const std::vector<int> readers = g.consumersOf(p.op->outputs.at(0));
    p.output_on_host = !readers.empty() && std::all_of(readers.begin(), readers.end(), onHost);
  }
}

void checkHostFloat(const models::Graph& g, const arch::Accelerator& acc, bool fuse) {
  const std::vector<bool> host = hostFloatOps(g, acc, fuse);
  for (const models::Op& op : g.ops()) {
    if (!host[static_cast<size_t>(op.id)]) continue;
    std::vector<int> tensors = op.inputs;
    tensors.insert(tensors.end(), op.outputs.begin(), op.outputs.end());
    for (int t : tensors) {
      if (isInteger(g.tensor(t).dtype) || isNarrowFloat(g.tensor(t).dtype)) {
        throw Error("op '" + op.name + "' runs on the host in floating point, but tensor '" +
                    g.tensor(t).name +
                    "' is an integer or a narrow float: plan the graph dataflows::withHostConversions returns");
      }
    }
  }
}

}  // namespace

bool OpPlan::startsHostCall() const {
  if (placement != Placement::Host) return false;
  for (size_t i = 0; i < input_on_host.size(); ++i) {
    if (input_on_host[i] && graph->tensor(op->inputs[i]).role == models::TensorRole::Activation) {
      return false;
    }
  }
  return true;
}

std::vector<OpPlan> plan(const models::Graph& g, const arch::Accelerator& acc, const Dataflow& df,
                         const PlanOptions& options) {
  std::shared_ptr<const Mapper> mapper = options.mapper_instance;
  if (!mapper) mapper = makeMapper(options.mapper, options.mapper_options);
  const PinnedMapping* pin = options.pinned.get();
  std::string pinned;  // the op it pins
  if (pin) {
    std::vector<std::string> names;  // the ops the mapper maps
    for (const models::Op& op : g.ops()) {
      if (op.isGemmLike() && placementOf(op, acc, g) != Placement::Host) names.push_back(op.name);
    }
    pinned = pinnedOpAmong(*pin, names);
  }
  checkHostFloat(g, acc, options.fuse());
  const Homes homes = homesOf(acc);
  models::Fusion fusion = options.fuse() ? models::fuse(g, fuseRulesFor(acc)) : models::Fusion{};
  fusion.group_of.resize(g.ops().size(), -1);

  // The GEMMs' first mapping requests, answered ahead on all cores; the loop below then asks
  // the same questions in the same order and finds them answered.
  std::vector<MapRequest> requests;
  for (const models::Op& op : g.ops()) {
    if (!op.isGemmLike() || (pin && pinned == op.name)) continue;
    if (placementOf(op, acc, g) == Placement::Host) {
      continue;
    }
    OpPlan p;
    p.op = &op;
    p.graph = &g;
    fillTensors(p, g, homes, op.outputs.at(0));
    const int gi = fusion.group_of[static_cast<size_t>(op.id)];
    const bool whole = gi >= 0 && fusion.groups[static_cast<size_t>(gi)].anchor == op.id &&
                       fusion.groups[static_cast<size_t>(gi)].needs_whole_rows;
    requests.push_back({problemOf(op, g), MapConstraints{whole, {p.input_home, p.weight_home, p.output_home}}});
  }
  mapper->prefetch(requests, acc, df);

  std::vector<OpPlan> plans(g.ops().size());
  for (const models::Op& op : g.ops()) {
    OpPlan& p = plans[static_cast<size_t>(op.id)];
    p.op = &op;
    p.graph = &g;
    p.placement = placementOf(op, acc, g);
    const int gi = fusion.group_of[static_cast<size_t>(op.id)];
    models::FusionGroup* group = gi >= 0 ? &fusion.groups[static_cast<size_t>(gi)] : nullptr;
    if (group && group->anchor == op.id && p.placement == Placement::Host) {
      group->epilogue.clear();  // the host runs the GEMM alone; no accelerator epilogue
      group = nullptr;
    }
    fillTensors(p, g, homes, op.outputs.at(0));  // the homes the mapper costs transfers from
    if (p.placement == Placement::Host) {
      // Nothing to map.
    } else if (group && group->anchor == op.id && op.isGemmLike()) {
      mapGemm(p, g, acc, df, *mapper, group, pinned == op.name ? pin : nullptr);
      p.epilogue = group->epilogue;
    } else if (op.isGemmLike()) {
      mapGemm(p, g, acc, df, *mapper, nullptr, pinned == op.name ? pin : nullptr);
    }
    const bool member =
        group && group->anchor != op.id &&
        std::find(group->epilogue.begin(), group->epilogue.end(), op.id) != group->epilogue.end();
    if (member) {
      p.placement = Placement::Fused;
      p.fused_into = group->anchor;
      p.side_input = sideInput(g, *group, op);
    }
    const int final_out =
        (!p.epilogue.empty()) ? g.op(p.epilogue.back()).outputs.at(0) : op.outputs.at(0);
    fillTensors(p, g, homes, final_out);
    if (op.isGemmLike()) {
      p.problem.output_dtype = g.tensor(final_out).dtype;
      p.problem.loops.output_dtype = p.problem.output_dtype;
      p.mapping.loops.output_dtype = p.problem.output_dtype;
    }
  }
  markHostResidency(plans, g);
  return plans;
}

}  // namespace tessel::dataflows
