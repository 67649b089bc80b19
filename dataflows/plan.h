// Graph + Accelerator -> one OpPlan per op: where it runs (array, SFU, host, or fused into a
// GEMM's epilogue), its mapping when it is a GEMM, and where its tensors live.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/fused_group.h"
#include "dataflows/mapper.h"
#include "dataflows/mapping.h"
#include "models/fuse.h"
#include "models/graph.h"

namespace tessel::dataflows {

enum class Placement : uint8_t { Array, Sfu, Host, Fused };

struct OpPlan {
  const models::Op* op = nullptr;
  const models::Graph* graph = nullptr;
  Placement placement = Placement::Array;
  int fused_into = -1;        // anchor op id when placement == Fused
  int side_input = -1;        // fused members: a tensor read besides the chain (residual)
  std::vector<int> epilogue;  // anchors: ops fused into this one (their cost is charged here)
  // Every member of a fused chain (attention, FFN) shares its group: the engines time the group
  // as one loop nest and give each member its part (sim/fusion.h chooses the group).
  std::shared_ptr<const FusedGroup> group;

  // GEMM-like ops on the array.
  Problem problem;
  Mapping mapping;

  // Every op: where its first input, its weight/second input and its output live
  // (indices into Accelerator::levels; the off-chip level a tensor is homed in).
  int input_home = 0;
  int weight_home = 0;
  int output_home = 0;
  bool weight_fits_l2 = false;  // reloads of B hit the L2 instead of DRAM
  bool input_fits_l2 = false;

  // Vector ops (and the epilogue members): elements and bytes of the tensors they touch.
  int64_t elements = 0;     // output elements
  int64_t input_bytes = 0;  // all inputs read
  int64_t output_bytes = 0;
  int64_t rows = 0;     // row-wise ops: number of rows (elements / row length)
  std::string unit_op;  // name the arch lists use: "softmax", "add", "relu", ...

  // Host ops: a tensor another host op wrote, or that only host ops read, stays in host memory
  // and crosses no link; the others are read from or written to shared memory over the link.
  std::vector<bool> input_on_host;  // by input index
  bool output_on_host = false;
  // The op opens a host call (pays the offload overhead): no activation it reads is on the host.
  bool startsHostCall() const;
};

struct PinnedMapping;

struct PlanOptions {
  std::string mapper = "gemmini-auto";
  MapperOptions mapper_options;  // objective and budget of a searching mapper
  // Epilogue: fuse the ops the hardware drains a GEMM's tile through (relu, folded batch norm,
  // softmax on the SFU...); auto also fuses attention and FFN chains where they cost less (the
  // CLI's default; sim::simulate decides); none fuses nothing.
  FusionMode fusion = FusionMode::Epilogue;
  bool fuse() const { return fusion != FusionMode::None; }
  // One op's mapping pinned by the user (pinned_mapping.h); ConfigError if no op to map has its
  // name (or, when it names none, the workload has more than one).
  std::shared_ptr<const PinnedMapping> pinned;
  // When set, this mapper (and the mappings it remembers) serves every plan() given these
  // options instead of a new one from `mapper`: a caller planning many graphs that share ops
  // (an LLM service's iterations) maps each distinct op once.
  std::shared_ptr<const Mapper> mapper_instance;
};

// Throws InfeasibleError naming the op when no mapping fits, and tessel::Error when an op the
// host runs in floating point has integer tensors (plan withHostConversions(graph) instead).
std::vector<OpPlan> plan(const models::Graph& graph, const arch::Accelerator& acc,
                         const Dataflow& dataflow, const PlanOptions& options);

// The fusion rules an accelerator implies: its array epilogue ops (plus batch norm, which
// inference folds into the conv), and row-wise ops when its SFU runs them.
models::FuseRules fuseRulesFor(const arch::Accelerator& acc);

// The op begins a kernel of its own on the device, where controller.launch_latency is paid: not
// host-run, not an epilogue folded into its anchor, and the first member of a fused group (the
// group is one kernel).
bool startsKernel(const OpPlan& plan);

// Where an op runs when nothing is fused: a GEMM on the array if it has MACs for the input
// dtype, else the host; a vector op on the array's epilogue path, the SFU or the host.
Placement placementOf(const models::Op& op, const arch::Accelerator& acc, const models::Graph& g);

// The arch-level op name of a vector op ("softmax", "residual_add", ...).
std::string unitOpName(const models::Op& op);

}  // namespace tessel::dataflows
