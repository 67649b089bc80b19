#include "sim/analytical/vector_model.h"

#include <algorithm>
#include <cmath>

#include "sim/analytical/stream_chunks.h"
#include "util/error.h"

namespace tessel::sim::analytical {

using models::OpKind;

int sfuPasses(OpKind kind) {
  switch (kind) {
    case OpKind::Softmax:
      return 3;  // row max, exp and sum, scale by 1/sum
    case OpKind::LayerNorm:
      return 2;  // mean and variance (one pass), then normalize
    case OpKind::RmsNorm:
      return 2;  // sum of squares, then scale
    case OpKind::MoeRoute:
      return 3;  // like softmax: the top-k selection rides on the max pass
    default:
      return 1;
  }
}

namespace {

// Passes an SFU makes for an op on these tensors: its own, plus a conversion pass on each side
// whose dtype is not the SFU's arithmetic (a float SFU dequantizes INT8 inputs and quantizes
// INT8 outputs; an integer SFU quantizes float inputs and dequantizes its result).
double passesOn(const arch::Sfu& sfu, const models::Op& op, const models::Graph& g) {
  double passes = sfuPasses(op.kind);
  if (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) return passes;
  const bool in_int = isInteger(g.tensor(op.inputs.at(0)).dtype);
  const bool out_int = isInteger(g.tensor(op.outputs.at(0)).dtype);
  passes += (in_int != sfu.integer) + (out_int != sfu.integer);
  return passes;
}

bool inputOnHost(const dataflows::OpPlan& p, size_t i) {
  return i < p.input_on_host.size() && p.input_on_host[i];
}

// Reads every input from where it lives and writes the output to its home; a host op's tensors
// that stay in host memory touch neither.
Transfer roundTrip(const dataflows::OpPlan& p, const models::Graph& g) {
  Transfer t;
  const models::Op& op = *p.op;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (inputOnHost(p, i)) continue;
    const models::Tensor& in = g.tensor(op.inputs[i]);
    const int home = i == 0 ? p.input_home : i == 1 ? p.weight_home : 0;
    t.read[static_cast<size_t>(in.role == models::TensorRole::Activation ? home : 0)] +=
        static_cast<double>(in.bytes());
  }
  if (!p.output_on_host)
    t.write[static_cast<size_t>(p.output_home)] += static_cast<double>(p.output_bytes);
  return t;
}

double inputElements(const dataflows::OpPlan& p, const models::Graph& g) {
  double e = 0;
  for (int t : p.op->inputs) {
    if (g.tensor(t).role != models::TensorRole::Weight)
      e += static_cast<double>(g.tensor(t).elements());
  }
  return e;
}

// The transfer time of `t` without its round trip.
double streaming(const MemoryModel& mem, const Transfer& t) {
  return mem.cycles(t) - mem.latency(t);
}

// Work streamed through a unit in chunks with double-buffered transfers (stream_chunks.h), as
// many as make it fastest. The SystemC engine runs the same chunks as commands.
void overlap(VectorCost& c, Cause unit, double unit_cycles, const MemoryModel& mem,
             const arch::Accelerator& acc) {
  Transfer loads, stores;
  loads.read = c.traffic.read;
  stores.write = c.traffic.write;
  Stream s;
  s.latency = mem.latency(c.traffic);
  s.load_latency = mem.latency(loads);
  s.loads = streaming(mem, loads);
  s.stores = streaming(mem, stores);
  s.unit = unit_cycles;
  for (size_t l = 0; l < acc.levels.size() && l < kMaxLevels; ++l) {
    if (!mem.offChip(l)) continue;
    Transfer both, in, out;
    in.read[l] = both.read[l] = c.traffic.read[l];
    out.write[l] = both.write[l] = c.traffic.write[l];
    s.levels[l] = {streaming(mem, both), streaming(mem, in), streaming(mem, out)};
    if (out.write[l] > 0) s.store_path = std::max(s.store_path, s.levels[l].time);
  }
  const ChunkRange range = chunkRange(c, acc);
  c.chunks = fastestChunks(s, range.fewest, range.most);
  c.cycles[static_cast<size_t>(unit)] = unit_cycles;
  c.cycles[static_cast<size_t>(Cause::MemoryStall)] = streamCycles(s, c.chunks) - unit_cycles;
}

// An op whose tensors stream from their homes through the local memory into a unit and back.
void streamThrough(VectorCost& c, const dataflows::OpPlan& p, const models::Graph& g,
                   const MemoryModel& mem, const arch::Accelerator& acc, Cause unit,
                   double unit_cycles) {
  c.traffic = roundTrip(p, g);
  c.local_write = static_cast<double>(p.input_bytes);
  c.local_read = static_cast<double>(p.output_bytes);
  overlap(c, unit, unit_cycles, mem, acc);
}

// A host op's call overhead (when it opens a host call) and its link transfers: the latency of
// each direction that moves bytes plus the bytes at the link's bandwidth, in accelerator cycles.
double hostOverheads(const dataflows::OpPlan& p, const arch::Accelerator& acc, bool ideal_memory) {
  const arch::Host& host = acc.host;
  double cycles = p.startsHostCall() ? host.offload_overhead : 0;
  if (!ideal_memory && host.link_bandwidth > 0) {
    double in = 0;
    for (size_t i = 0; i < p.op->inputs.size(); ++i) {
      if (!inputOnHost(p, i)) in += static_cast<double>(p.graph->tensor(p.op->inputs[i]).bytes());
    }
    const double out = p.output_on_host ? 0 : static_cast<double>(p.output_bytes);
    cycles += (in > 0 ? host.link_latency : 0) + (out > 0 ? host.link_latency : 0) +
              (in + out) / host.link_bandwidth;
  }
  return cycles;
}

// A GEMM in a dtype the array cannot run: 2 FLOPs per MAC at the host's sustained rate.
VectorCost hostGemm(const dataflows::OpPlan& p, const arch::Accelerator& acc, bool ideal_memory) {
  if (acc.host.flops <= 0) {
    throw InfeasibleError("op '" + p.op->name +
                          "' needs the host (the array has no MACs for its "
                          "dtype), but host.flops is not set");
  }
  VectorCost c;
  const double seconds = 2.0 * static_cast<double>(p.op->macs) / acc.host.flops;
  c.cycles[static_cast<size_t>(Cause::Host)] =
      seconds * acc.clock_hz + hostOverheads(p, acc, ideal_memory);
  c.traffic = roundTrip(p, *p.graph);
  c.host_flops = 2.0 * static_cast<double>(p.op->macs);
  c.host_bytes = static_cast<double>(p.input_bytes + p.output_bytes);
  return c;
}

}  // namespace

VectorCost evaluateVector(const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                          const MemoryModel& mem, bool ideal_memory) {
  const models::Graph& g = *plan.graph;
  switch (plan.placement) {
    case dataflows::Placement::Array:
      return evaluateArrayVector(plan, g, acc, mem);
    case dataflows::Placement::Sfu:
      return evaluateSfu(plan, g, acc, mem);
    case dataflows::Placement::Host:
      return evaluateHost(plan, g, acc, ideal_memory);
    case dataflows::Placement::Fused:
      return evaluateFused(plan, g, acc, mem);
  }
  return {};
}

ChunkRange chunkRange(const VectorCost& c, const arch::Accelerator& acc) {
  double moved = 0;
  for (size_t l = 0; l < acc.levels.size() && l < kMaxLevels; ++l) {
    moved += c.traffic.read[l] + c.traffic.write[l];
  }
  const double biggest = std::max({moved, c.local_read, c.local_write});
  double quarter = 0;
  for (const arch::StorageLevel& l : acc.levels) {
    if (l.kind == arch::LevelKind::Scratchpad || l.kind == arch::LevelKind::GlobalBuffer) {
      quarter = static_cast<double>(l.sharedBytes()) / 4;
      break;
    }
  }
  const auto clamp = [](double n) {
    return static_cast<int64_t>(std::clamp(n, 1.0, static_cast<double>(kMaxChunks)));
  };
  ChunkRange r;
  r.fewest = quarter > 0 ? clamp(std::ceil(biggest / quarter)) : 1;
  r.most = std::max(r.fewest, clamp(std::floor(biggest / std::max(1, acc.dma.max_request_bytes))));
  return r;
}

namespace {
// The op's name among array.epilogue_ops.
std::string epilogueName(const models::Op& op) {
  return op.kind == OpKind::Add ? "residual_add" : dataflows::unitOpName(op);
}
}  // namespace

double epiloguePj(const models::Op& op, const arch::Accelerator& acc, double elements) {
  if (acc.sfu && acc.sfu->supports(dataflows::unitOpName(op))) return 0;
  return elements * acc.array.epiloguePj(epilogueName(op));
}

VectorCost evaluateArrayVector(const dataflows::OpPlan& p, const models::Graph& g,
                               const arch::Accelerator& acc, const MemoryModel& mem) {
  VectorCost c;
  if (p.op->kind == OpKind::Embedding || p.op->kind == OpKind::Gather) {
    // A DMA gather: one table row per token from DRAM, written to the output's home.
    c.traffic.read[0] += static_cast<double>(p.output_bytes);
    c.traffic.write[static_cast<size_t>(p.output_home)] += static_cast<double>(p.output_bytes);
    overlap(c, Cause::Compute, 0, mem, acc);
    return c;
  }
  // The accumulator path handles one array row (cols elements) per cycle.
  const double elements = std::max(inputElements(p, g), static_cast<double>(p.elements));
  c.epilogue_pj = elements * acc.array.epiloguePj(epilogueName(*p.op));
  streamThrough(c, p, g, mem, acc, Cause::Compute, std::ceil(elements / acc.array.cols));
  return c;
}

VectorCost evaluateSfu(const dataflows::OpPlan& p, const models::Graph& g,
                       const arch::Accelerator& acc, const MemoryModel& mem) {
  VectorCost c;
  const arch::Sfu& sfu = *acc.sfu;
  const double elements = std::max(inputElements(p, g), static_cast<double>(p.elements));
  const double passes = passesOn(sfu, *p.op, g);
  const double cycles = passes * std::ceil(elements / sfu.lanes) * sfu.cycles_per_vector;
  c.sfu_elements = passes * elements;
  streamThrough(c, p, g, mem, acc, Cause::Sfu, cycles);
  return c;
}

VectorCost evaluateFused(const dataflows::OpPlan& p, const models::Graph& g,
                         const arch::Accelerator& acc, const MemoryModel& mem) {
  VectorCost c;
  const models::Op& op = *p.op;
  double sfu_cycles = 0;
  if (acc.sfu && acc.sfu->supports(p.unit_op) &&
      (op.kind == OpKind::Gelu || models::isRowwise(op.kind) || op.kind == OpKind::Dequantize ||
       op.opClass() == models::OpClass::Activation || op.kind == OpKind::Mul)) {
    const double elements = static_cast<double>(p.elements);
    const double passes = passesOn(*acc.sfu, op, g);
    sfu_cycles = passes * std::ceil(elements / acc.sfu->lanes) * acc.sfu->cycles_per_vector;
    c.sfu_elements = passes * elements;
  } else {
    c.epilogue_pj = static_cast<double>(p.elements) * acc.array.epiloguePj(epilogueName(op));
  }
  c.cycles[static_cast<size_t>(Cause::Sfu)] = sfu_cycles;
  if (p.side_input >= 0) {
    // The residual operand is loaded into the accumulator next to the GEMM's tile, in chunks
    // that overlap the SFU's passes.
    const models::Tensor& side = g.tensor(p.side_input);
    const int home = side.id == op.inputs.at(0) ? p.input_home : p.weight_home;
    c.traffic.read[static_cast<size_t>(home)] += static_cast<double>(side.bytes());
    overlap(c, Cause::Sfu, sfu_cycles, mem, acc);
  }
  return c;
}

VectorCost evaluateHost(const dataflows::OpPlan& p, const models::Graph& g,
                        const arch::Accelerator& acc, bool ideal_memory) {
  VectorCost c;
  const arch::Host& host = acc.host;
  if (p.op->isGemmLike()) return hostGemm(p, acc, ideal_memory);
  const double op_cost = host.costPerElement(p.unit_op);
  if (op_cost < 0) {
    throw InfeasibleError("op '" + p.op->name +
                          "' runs on the host, but host.cycles_per_element "
                          "has no entry for '" +
                          p.unit_op + "'");
  }
  const double in_elems = inputElements(p, g);
  const double out_elems = static_cast<double>(p.elements);
  // Conversions are ops of their own (dataflows::withHostConversions): this op's tensors are
  // the ones it computes on, and it streams them through host memory at least once.
  const double host_cycles = std::max(in_elems, out_elems) * op_cost;
  double moved = static_cast<double>(p.output_bytes);
  for (int t : p.op->inputs) {
    if (g.tensor(t).role != models::TensorRole::Weight)
      moved += static_cast<double>(g.tensor(t).bytes());
  }
  double host_seconds = host_cycles / host.clock_hz;
  if (host.mem_bandwidth_bytes_per_s > 0 && !ideal_memory) {
    host_seconds = std::max(host_seconds, moved / host.mem_bandwidth_bytes_per_s);
  }
  const double cycles = host_seconds * acc.clock_hz + hostOverheads(p, acc, ideal_memory);
  c.cycles[static_cast<size_t>(Cause::Host)] = cycles;
  // The core issues at its sustained rate while it computes; its tensors stream in and out.
  c.host_flops = host_cycles * host.flops / host.clock_hz;
  c.host_bytes = moved;
  c.traffic = roundTrip(p, g);  // the host reads and writes the tensors in shared memory
  return c;
}

}  // namespace tessel::sim::analytical
