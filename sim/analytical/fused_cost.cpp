#include "sim/analytical/fused_cost.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dataflows/mapper.h"
#include "sim/analytical/fused_detail.h"
#include "sim/analytical/nest_stats.h"
#include "util/error.h"

namespace tessel::sim::analytical {

using dataflows::AttentionDims;
using dataflows::FfnDims;
using dataflows::FusedGroup;
using models::ChainKind;

namespace detail {

double bytesOf(DType t, double elements) {
  return elements * static_cast<double>(storageBytes(t, 1024)) / 1024.0;
}

MemberCost& member(GroupCost& c, int op) {
  for (MemberCost& m : c.members) {
    if (m.op == op) return m;
  }
  throw Error("fused group: op " + std::to_string(op) + " is not a member");
}

// The accumulator's element size (partial sums, the running output).
double accumBytes(const arch::Accelerator& acc) {
  return static_cast<double>(storageBytes(acc.array.accum_dtype, 1));
}

// Bytes per cycle the local level's output port moves (every copy); unlimited without a limit.
double outputPortRate(const dataflows::nest::Hardware& hw) {
  const auto& lv = hw.levels[static_cast<size_t>(hw.local())];
  const double rate = lv.bandwidth[kOut] * static_cast<double>(lv.instances);
  return rate > 0 ? rate : std::numeric_limits<double>::infinity();
}

namespace {

// The array's least time for a block GEMM `count` times: its MACs at the peak rate of its dtype.
BlockTotals boundBlock(const FusedGroup::Block& b, const arch::Accelerator& acc) {
  const double rate = acc.array.macRate(b.problem.input_dtype, b.problem.weight_dtype) *
                      static_cast<double>(acc.array.rows) * acc.array.cols *
                      static_cast<double>(acc.arrays());
  const double t = rate > 0 ? b.count * static_cast<double>(b.problem.macs()) / rate : 0;
  return {t, t, t};
}

}  // namespace

// One block GEMM, `count` times: the array's part from the loop-nest model (ideal off-chip
// memory: the group moves its edge tensors itself), the local memories' reads and the partial
// sums written into them; fills of the first on-chip level are the group's to count.
BlockTotals addBlock(MemberCost& m, const FusedGroup::Block& b, const models::Graph& g,
                     const arch::Accelerator& acc) {
  if (!b.mapping.has_nest) {
    m.mac_pj += b.count * static_cast<double>(b.problem.macs()) *
                acc.array.macEnergy(b.problem.input_dtype);
    return boundBlock(b, acc);
  }
  dataflows::OpPlan p;
  p.op = &g.op(b.op);
  p.graph = &g;
  p.problem = b.problem;
  p.mapping = b.mapping;
  const NestCost nc = nestCost(p, acc, true);
  const dataflows::nest::Cost& c = nc.cost;
  const dataflows::nest::Hardware& hw = *b.mapping.hw;
  const double n = b.count;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    const auto& lv = hw.levels[l];
    if (lv.off_chip) continue;
    for (size_t t = 0; t < 3; ++t) {
      const int a = lv.arch_level[t];
      if (a < 0) {
        m.rf_pj += n * (c.reads[l][t] * lv.read_pj[t] + c.writes[l][t] * lv.write_pj[t]);
        m.rf_bytes += n * (c.reads[l][t] + c.writes[l][t]);
        continue;
      }
      const bool local = static_cast<int>(l) == hw.local();
      m.reads[static_cast<size_t>(a)][t] += n * c.reads[l][t];
      m.writes[static_cast<size_t>(a)][t] += n * (local ? c.updates[l][t] : c.writes[l][t]);
    }
  }
  m.mac_pj += n * c.mac_energy;
  m.noc_pj += n * c.noc_energy;
  m.noc_bytes += n * (c.noc_bytes[0] + c.noc_bytes[1] + c.noc_bytes[2]);
  m.macs += static_cast<int64_t>(std::llround(n * static_cast<double>(c.macs)));
  const auto local = static_cast<size_t>(hw.local());
  const double out_port = (c.reads[local][kOut] + c.writes[local][kOut]) / outputPortRate(hw);
  return {n * c.compute, n * c.array, n * std::max({c.array, c.local, c.noc}), n * out_port};
}

void read(MemberCost& m, int level, size_t operand, double bytes) {
  m.reads[static_cast<size_t>(level)][operand] += bytes;
  m.offchip.read[static_cast<size_t>(level)] += bytes;
}

void write(MemberCost& m, int level, size_t operand, double bytes, bool offchip) {
  m.writes[static_cast<size_t>(level)][operand] += bytes;
  if (offchip) m.offchip.write[static_cast<size_t>(level)] += bytes;
}

bool stagedInput(const FusedGroup& grp) { return grp.stagingLevel() >= 0; }

// A re-read stream (K or V, the FFN's weights): `once` bytes distinct, `each` bytes moved over
// all row blocks. From its home every time, or once into the resident level and re-read there.
void stream(MemberCost& m, size_t operand, int home, int resident, int local, double once,
            double each, const MemoryModel& mem) {
  if (resident < 0) {
    read(m, home, operand, each);
    write(m, local, operand, each, false);
  } else if (resident == local) {
    read(m, home, operand, once);
    write(m, local, operand, once, false);
  } else {
    read(m, home, operand, once);
    write(m, resident, operand, once, mem.offChip(static_cast<size_t>(resident)));
    read(m, resident, operand, each);
    write(m, local, operand, each, false);
  }
}

// Element passes of the vector unit over one value of the member's output: the softmax's
// max and exp+sum (normalization is deferred to the output rows), one for every other op, and a
// conversion on each side whose dtype is not the unit's arithmetic.
double passes(const models::Op& op, const models::Graph& g, const arch::Accelerator& acc) {
  double n = op.kind == models::OpKind::Softmax ? 2 : 1;
  if (acc.sfu && op.kind != models::OpKind::Quantize && op.kind != models::OpKind::Dequantize) {
    n += (isInteger(g.tensor(op.inputs.at(0)).dtype) != acc.sfu->integer) +
         (isInteger(g.tensor(op.outputs.at(0)).dtype) != acc.sfu->integer);
  }
  return n;
}

namespace {

double sfuElementCycles(const arch::Accelerator& acc, bool on_array) {
  if (on_array) return 1.0 / acc.array.cols;
  return acc.sfu->cycles_per_vector / acc.sfu->lanes;
}

int localIn(const MemoryModel& mem) { return mem.localInputs(); }

}  // namespace

// cycles = the binding stage plus one step of the others (the pipeline fill); the parts go to
// the causes of the members that own them.
void finish(GroupCost& c, const Stages& st, const std::vector<std::pair<int, BlockTotals>>& gemms,
            int vector_op, int memory_op, const MemoryModel& mem, Cause fill_cause) {
  const double top = std::max({st.array, st.vector, st.memory});
  const double fill =
      st.fill >= 0 ? st.fill : (st.array + st.vector + st.memory - top) / std::max(1.0, st.steps);
  for (const auto& [op, t] : gemms) {
    MemberCost& m = member(c, op);
    m.cycles[static_cast<size_t>(Cause::Compute)] += t.compute;
    m.cycles[static_cast<size_t>(Cause::FillDrain)] += t.array - t.compute;
    m.cycles[static_cast<size_t>(Cause::Noc)] += t.busy - t.array;
  }
  MemberCost& v = member(c, vector_op);
  v.cycles[static_cast<size_t>(Cause::Sfu)] += std::max(0.0, st.vector - st.array);
  v.cycles[static_cast<size_t>(fill_cause)] += fill;
  MemberCost& mm = member(c, memory_op);
  mm.cycles[static_cast<size_t>(Cause::MemoryStall)] +=
      std::max(0.0, st.memory - std::max(st.array, st.vector));
  c.array = st.array;
  c.vector = st.vector;
  c.memory = st.memory;
  c.cycles = top + fill;
  c.binds = top == st.array ? "array" : top == st.vector ? "vector unit" : "memory";
  for (const MemberCost& m : c.members) {
    for (size_t l = 0; l < m.reads.size(); ++l) {
      if (!mem.offChip(l)) continue;
      c.offchip_bytes += m.offchip.read[l] + m.offchip.write[l];
    }
  }
}

Transfer sum(const GroupCost& c) {
  Transfer t;
  for (const MemberCost& m : c.members) {
    for (size_t l = 0; l < kMaxLevels; ++l) {
      t.read[l] += m.offchip.read[l];
      t.write[l] += m.offchip.write[l];
    }
  }
  return t;
}

}  // namespace detail

namespace {

using namespace detail;

GroupCost attention(const FusedGroup& grp, const models::Graph& g, const arch::Accelerator& acc,
                    const MemoryModel& mem, GroupCost c) {
  const models::ChainGroup& ch = grp.chain;
  const AttentionDims d = dataflows::attentionDims(ch, g);
  const dataflows::AttentionBlocks b =
      dataflows::attentionBlocks(d, grp.block_rows, grp.block_cols);
  const double units = static_cast<double>(d.units), heads = units * static_cast<double>(d.group);
  const double scores = heads * static_cast<double>(b.score_elems);
  MemberCost& score = member(c, ch.score);
  MemberCost& context = member(c, ch.context);
  std::vector<std::pair<int, BlockTotals>> gemms;
  for (const FusedGroup::Block& blk : grp.blocks) {
    gemms.emplace_back(blk.op, addBlock(member(c, blk.op), blk, g, acc));
  }
  // Executed MACs: the computed blocks' (a diagonal block is computed whole, then masked).
  score.macs = static_cast<int64_t>(scores) * d.head_dim;
  context.macs = static_cast<int64_t>(scores) * d.value_dim;
  const int in = localIn(mem);
  const double q = bytesOf(d.q, heads * static_cast<double>(d.queries * d.head_dim));
  read(score, grp.homes[0], kIn, q);
  write(score, in, kIn, q, false);
  const double k_once = bytesOf(d.k, units * static_cast<double>(d.keys * d.head_dim));
  const double k_each = bytesOf(d.k, units * static_cast<double>(b.key_rows * d.head_dim));
  stream(score, kW, grp.homes[1], grp.resident_level, in, k_once, k_each, mem);
  const double v_once = bytesOf(d.v, units * static_cast<double>(d.keys * d.value_dim));
  const double v_each = bytesOf(d.v, units * static_cast<double>(b.key_rows * d.value_dim));
  stream(context, kW, grp.homes[2], grp.resident_level, in, v_once, v_each, mem);
  // The vector unit writes P where the context's block GEMM reads its inputs.
  write(context, in, kIn, bytesOf(d.p, scores), false);
  write(context, grp.homes[3], kOut,
        bytesOf(d.o, heads * static_cast<double>(d.queries * d.value_dim)),
        mem.offChip(static_cast<size_t>(grp.homes[3])));
  // Vector work: the softmax (and any op between score and softmax) on every computed score,
  // the rescale of the partial output per extra key block, the final division by the row sums.
  double elem_passes = 0, elements = 0;  // cycles and element passes
  for (int id : ch.ops) {
    if (id == ch.score || id == ch.context) continue;
    const models::Op& op = g.op(id);
    const double per = vectorCyclesPerElement(op, acc);
    if (per < 0) throw InfeasibleError("op '" + op.name + "' has no vector unit to fuse on");
    elem_passes += passes(op, g, acc) * scores * per;
    elements += passes(op, g, acc) * scores;
    member(c, id).epilogue_pj = epiloguePj(op, acc, scores);
  }
  const double rescale = heads * static_cast<double>(b.rescale_rows + d.queries) *
                         static_cast<double>(d.value_dim);
  const double per_softmax = vectorCyclesPerElement(g.op(ch.softmax), acc);
  Stages st;
  st.vector = elem_passes + (grp.online_softmax ? rescale : heads * d.queries * d.value_dim) *
                                per_softmax;
  elements += grp.online_softmax ? rescale : heads * d.queries * d.value_dim;
  member(c, ch.softmax).sfu_pj = acc.sfu ? elements * acc.sfu->energy_pj_per_element : 0;
  for (const auto& [op, t] : gemms) st.array += t.busy;
  st.memory = mem.cycles(sum(c));
  st.steps = units * static_cast<double>(b.blocks);
  finish(c, st, gemms, ch.softmax, ch.context, mem);
  return c;
}

}  // namespace

GroupCost evaluateGroup(const FusedGroup& grp, const models::Graph& g,
                        const arch::Accelerator& acc, const MemoryModel& mem, bool ideal_memory) {
  (void)ideal_memory;
  GroupCost c;
  for (int id : grp.chain.ops) {
    MemberCost m;
    m.op = id;
    m.reads.assign(acc.levels.size(), {});
    m.writes.assign(acc.levels.size(), {});
    c.members.push_back(std::move(m));
  }
  const std::string why = groupFits(grp, g, acc);
  if (!why.empty()) {
    c.reason = why;
    return c;
  }
  switch (grp.chain.kind) {
    case ChainKind::Attention:
      c = attention(grp, g, acc, mem, std::move(c));
      break;
    case ChainKind::Ffn:
      c = ffnCost(grp, g, acc, mem, std::move(c));
      break;
    case ChainKind::ConvChain:
      c = convChainCost(grp, g, acc, mem, std::move(c));
      break;
  }
  c.ok = true;
  for (const MemberCost& m : c.members) {
    c.energy_pj += m.rf_pj + m.mac_pj + m.noc_pj + m.sfu_pj + m.epilogue_pj;
    for (size_t l = 0; l < acc.levels.size(); ++l) {
      for (size_t t = 0; t < 3; ++t) {
        c.energy_pj += m.reads[l][t] * acc.levels[l].readPj(static_cast<int>(t)) +
                       m.writes[l][t] * acc.levels[l].writePj(static_cast<int>(t));
      }
    }
  }
  return c;
}

std::string groupFits(const FusedGroup& grp, const models::Graph& g,
                      const arch::Accelerator& acc) {
  const dataflows::LocalCapacity cap = dataflows::localCapacity(acc, false);
  const double acc_b = accumBytes(acc);
  double inputs = 0, outputs = 0;
  if (grp.chain.kind == ChainKind::Attention) {
    const AttentionDims d = dataflows::attentionDims(grp.chain, g);
    const double rows = static_cast<double>(std::min(grp.block_rows, d.queries) * d.group);
    const double cols = static_cast<double>(std::min(grp.block_cols, d.keys));
    const double kv_rows = grp.resident_level >= 0 &&
                                   grp.resident_level == localIn(MemoryModel(acc, false))
                               ? static_cast<double>(d.keys)
                               : 2 * cols;  // double-buffered blocks
    inputs = bytesOf(d.q, rows * d.head_dim) + bytesOf(d.k, kv_rows * d.head_dim) +
             bytesOf(d.v, kv_rows * d.value_dim) + bytesOf(d.p, rows * cols);
    outputs = acc_b * (rows * cols + rows * d.value_dim + 2 * rows);
  } else if (grp.chain.kind == ChainKind::ConvChain) {
    const LocalNeed need = convChainNeed(grp, g, acc);
    inputs = need.inputs;
    outputs = need.outputs;
  } else {
    const FfnDims d = dataflows::ffnDims(grp.chain, g);
    const double rows = static_cast<double>(std::min(grp.block_rows, d.rows));
    const double cols = static_cast<double>(std::min(grp.block_cols, d.hidden));
    const double ups = static_cast<double>(d.ups);
    const double w = grp.resident_level >= 0 &&
                             grp.resident_level == localIn(MemoryModel(acc, false))
                         ? bytesOf(d.w, (ups * d.model + d.out) * static_cast<double>(d.hidden))
                         : 2 * bytesOf(d.w, (ups * d.model + d.out) * cols);
    if (grp.chain.gateUp()) {
      // Each block GEMM fills the accumulator tile by tile as its own mapping does; the chunk's
      // up results wait in the local buffer for the activation and the product, which the
      // store takes from there.
      inputs = (grp.stream_input ? 0.0 : bytesOf(d.x, rows * d.model)) + w +
               bytesOf(d.h, ups * rows * cols);
      if (grp.stagingLevel() >= 0) {
        const auto& level = acc.levels[static_cast<size_t>(grp.stagingLevel())];
        const double staged = bytesOf(d.x, rows * d.model);
        if (staged > static_cast<double>(level.capacity_bytes) / 2) {
          return "the staged input needs " + std::to_string(static_cast<int64_t>(staged)) +
                 " B, half of " + level.name + " holds " + std::to_string(level.capacity_bytes / 2);
        }
      }
    } else if (grp.partials_level < 0) {
      inputs = bytesOf(d.x, rows * d.model) + w + bytesOf(d.h, rows * cols);
      outputs = acc_b * (rows * d.out + ups * rows * cols);
    } else {
      // The running output lives in partials_level and each block GEMM fills the accumulator
      // tile by tile as its own mapping does; the chunk's up outputs wait in the local buffer
      // for the activation (and the gate's product).
      inputs = (grp.stream_input ? 0.0 : bytesOf(d.x, rows * d.model)) + w +
               bytesOf(d.h, ups * rows * cols);
      const auto& level = acc.levels[static_cast<size_t>(grp.partials_level)];
      const double held = acc_b * rows * static_cast<double>(d.out) +
                          (stagedInput(grp) ? bytesOf(d.x, rows * d.model) : 0.0);
      if (held > static_cast<double>(level.capacity_bytes) / 2) {
        return "the running output" + std::string(stagedInput(grp) ? " and the input" : "") +
               " need " + std::to_string(static_cast<int64_t>(held)) +
               " B, half of " + level.name + " holds " +
               std::to_string(level.capacity_bytes / 2);
      }
    }
  }
  const auto over = [](const std::string& what, double need, double have) {
    return what + " needs " + std::to_string(static_cast<int64_t>(std::ceil(need))) +
           " B, holds " + std::to_string(static_cast<int64_t>(have));
  };
  const double in_cap = static_cast<double>(cap.input_weight_bytes);
  if (cap.shared || cap.output_bytes <= 0) {
    if (inputs + outputs > in_cap) return over("the local buffer", inputs + outputs, in_cap);
    return "";
  }
  if (inputs > in_cap) return over("the scratchpad", inputs, in_cap);
  const double out_cap = static_cast<double>(cap.output_bytes);
  if (outputs > out_cap) return over("the accumulator", outputs, out_cap);
  return "";
}

double vectorCyclesPerElement(const models::Op& op, const arch::Accelerator& acc) {
  const std::string name = dataflows::unitOpName(op);
  if (acc.sfu && acc.sfu->supports(name)) return sfuElementCycles(acc, false);
  const auto& ops = acc.array.epilogue_ops;
  if (std::find(ops.begin(), ops.end(), name) != ops.end()) return sfuElementCycles(acc, true);
  return -1;
}

}  // namespace tessel::sim::analytical
