#include "sim/systemc/fused_run.h"

#include <algorithm>

#include "dataflows/mapper.h"
#include "sim/analytical/fused_cost.h"
#include "sim/analytical/nest_stats.h"
#include "util/error.h"

namespace tessel::sim::systemc {

namespace {

using dataflows::FusedGroup;
const char* const kOperandNames[3] = {"inputs", "weights", "outputs"};

std::string blockKey(const FusedGroup::Block& b) {
  const dataflows::Problem& p = b.problem;
  std::string key = std::to_string(p.batch) + "," + std::to_string(p.m) + "," +
                    std::to_string(p.n) + "," + std::to_string(p.k) + "," +
                    std::string(nameOf(p.input_dtype)) + "," + std::string(nameOf(p.weight_dtype)) +
                    "," + std::string(nameOf(p.output_dtype)) + "," +
                    std::to_string(p.weight_is_activation);
  for (int64_t e : p.loops.extent) key += "," + std::to_string(e);  // a conv's window and rows
  key += "," + std::to_string(p.loops.input_h) + "," + std::to_string(p.loops.input_w);
  for (const auto& [k, v] : b.mapping.flatten()) key += "|" + k + "=" + v;
  return key;
}

void addCause(std::array<double, kNumCauses>& a, Cause c, double v) {
  a[static_cast<size_t>(c)] += std::max(0.0, v);
}

// What each role's command is called, by chain kind: the trace's names and the waits' labels.
const char* roleName(Role r, models::ChainKind kind) {
  if (kind == models::ChainKind::ConvChain) {
    switch (r) {
      case Role::RowLoad:
        return "load input tile";
      case Role::Load1:
      case Role::Load3:
        return "load weights";
      case Role::Gemm1:
      case Role::Gemm3:
        return "conv";
      case Role::Vector:
        return "epilogue";
      case Role::RowStore:
        return "store output tile";
    }
  }
  const bool attention = kind == models::ChainKind::Attention;
  switch (r) {
    case Role::RowLoad:
      return attention ? "load Q" : "load x";
    case Role::Load1:
      return attention ? "load K" : "load up weights";
    case Role::Load3:
      return attention ? "load V" : "load down weights";
    case Role::Gemm1:
      return attention ? "score" : "up";
    case Role::Vector:
      return attention ? "softmax" : "activation";
    case Role::Gemm3:
      return attention ? "context" : "down";
    case Role::RowStore:
      return attention ? "store O" : "store y";
  }
  return "?";
}

}  // namespace

const FusedRunner::BlockTime& FusedRunner::blockTime(const FusedGroup::Block& b,
                                                     const models::Graph& g) {
  const std::string key = blockKey(b);
  auto it = blocks_.find(key);
  if (it != blocks_.end()) return it->second;
  dataflows::OpPlan p;
  p.op = &g.op(b.op);
  p.graph = &g;
  p.problem = b.problem;
  p.mapping = b.mapping;
  // Off-chip memory is the group's to time: the block streams from ideal memory, as the
  // analytical group cost's block GEMMs do.
  lowerGemm(p, analytical::nestCost(p, acc_, true), gemm_);
  runOnPlatform(gemm_.stream, ideal_, run_);
  // The block's time is the array's, from its first compute to its last result: its operands'
  // first fill and its results' last drain through the local ports are the group's commands
  // (in the group the operands are already in place and the results stay on chip).
  BlockTime t;
  double first = -1, last = run_.begin;
  for (uint32_t c = 0; c < gemm_.stream.commands.size(); ++c) {
    if (gemm_.stream.commands[c].kind != Kind::Compute) continue;
    if (first < 0) first = run_.timing[c].start;
    last = std::max(last, run_.timing[c].end);
  }
  t.run.cycles = first < 0 ? 0 : last - first;
  t.run.tiles = std::max<int64_t>(1, gemm_.tiles);
  double work = 0, prev = first;
  for (uint32_t c = 0; c < gemm_.stream.commands.size(); ++c) {
    if (gemm_.stream.commands[c].kind != Kind::Compute) continue;
    const CommandTiming& ct = run_.timing[c];
    const double from = std::max(ct.start, prev);
    if (ct.work_end > from) work += ct.work_end - from;
    prev = std::max(prev, ct.end);
  }
  work = std::min(work, t.run.cycles);
  const double ideal = std::min(gemm_.stream.ideal_compute, work);
  addCause(t.causes, Cause::Compute, ideal);
  addCause(t.causes, Cause::FillDrain, work - ideal);
  // The rest is the local ports' and the NoC's: the analytical block's busy time beyond the array.
  addCause(t.causes, Cause::Noc, t.run.cycles - work);
  return blocks_.emplace(key, t).first->second;
}

// As analytical::groupFits, with a second unit's K and V beside the first's.
bool FusedRunner::twoUnitsFit(const FusedGroup& grp, const models::Graph& g) const {
  if (grp.chain.kind != models::ChainKind::Attention || grp.resident_level != mem_.localInputs()) {
    return false;
  }
  const dataflows::AttentionDims d = dataflows::attentionDims(grp.chain, g);
  const auto bytes = [](DType t, double n) { return n * double(storageBytes(t, 1024)) / 1024.0; };
  const double rows = double(std::min(grp.block_rows, d.queries) * d.group);
  const double cols = double(std::min(grp.block_cols, d.keys));
  const double keys = 2 * double(d.keys);
  const double inputs = bytes(d.q, rows * double(d.head_dim)) +
                        bytes(d.k, keys * double(d.head_dim)) +
                        bytes(d.v, keys * double(d.value_dim)) + bytes(d.p, rows * cols);
  const double outputs = double(storageBytes(acc_.array.accum_dtype, 1)) *
                         (rows * cols + rows * double(d.value_dim) + 2 * rows);
  const dataflows::LocalCapacity cap = dataflows::localCapacity(acc_, false);
  if (cap.shared || cap.output_bytes <= 0)
    return inputs + outputs <= double(cap.input_weight_bytes);
  return inputs <= double(cap.input_weight_bytes) && outputs <= double(cap.output_bytes);
}

void FusedRunner::member(const dataflows::OpPlan& plan, OpStats& s, BlockModels& models,
                         std::vector<TraceSlice>* trace, double start) {
  const FusedGroup* key = plan.group.get();
  auto it = groups_.find(key);
  if (it == groups_.end()) it = groups_.emplace(key, run(plan, models, trace, start)).first;
  Group& grp = it->second;
  const auto& ops = key->chain.ops;
  const auto at = std::find(ops.begin(), ops.end(), plan.op->id);
  if (at == ops.end()) throw Error("op '" + plan.op->name + "' is not in " + key->name);
  const Part& part = grp.parts[size_t(at - ops.begin())];
  for (size_t l = 0; l < s.traffic.size() && l < part.traffic.size(); ++l) {
    s.traffic[l].read_bytes = part.traffic[l].read_bytes;
    s.traffic[l].write_bytes = part.traffic[l].write_bytes;
  }
  s.register_file_bytes = part.rf;
  s.noc_bytes = part.noc;
  s.cycles_by_cause = part.causes;
  s.waits.clear();
  for (const auto& w : part.waits) {
    if (w.second >= 0.5) s.waits.push_back(w);  // rounding residue is not a wait
  }
  std::stable_sort(s.waits.begin(), s.waits.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (--grp.left == 0) groups_.erase(it);
}

FusedRunner::Group FusedRunner::run(const dataflows::OpPlan& plan, BlockModels& models,
                                    std::vector<TraceSlice>* trace, double start) {
  const FusedGroup& grp = *plan.group;
  const models::Graph& g = *plan.graph;
  const analytical::GroupCost cost = analytical::evaluateGroup(grp, g, acc_, mem_, ideal_memory_);
  if (!cost.ok) throw InfeasibleError("fused group " + grp.name + ": " + cost.reason);
  std::vector<BlockRun> blocks;
  for (const FusedGroup::Block& b : grp.blocks) blocks.push_back(blockTime(b, g).run);
  if (grp.chain.kind == models::ChainKind::ConvChain) {
    // The vector unit's time after each conv: its per-element members the SFU runs.
    std::vector<double> vector(grp.chain.convs.size(), 0);
    for (int id : grp.chain.ops) {
      if (g.op(id).kind == models::OpKind::Conv2d) continue;
      const auto before = std::upper_bound(grp.chain.convs.begin(), grp.chain.convs.end(), id);
      vector.at(size_t(before - grp.chain.convs.begin()) - 1) +=
          analytical::convMemberVector(grp, g, acc_, mem_, id).cycles[size_t(Cause::Sfu)];
    }
    lowerConvChain(grp, g, acc_, cost, blocks, vector, mem_.localInputs(), lowered_);
  } else {
    lowerFused(grp, g, cost, blocks, Residence{mem_.localInputs(), twoUnitsFit(grp, g)}, lowered_);
  }
  runOnPlatform(lowered_.stream, models, run_);

  Group out;
  out.keep = plan.group;
  out.left = grp.chain.ops.size();
  out.parts.resize(grp.chain.ops.size());
  for (Part& p : out.parts) {
    for (const auto& level : acc_.levels) p.traffic.push_back(LevelTraffic{level.name, {}, {}});
  }
  const CommandStream& s = lowered_.stream;
  for (uint32_t c = 0; c < s.commands.size(); ++c) {
    const Command& cmd = s.commands[c];
    for (uint32_t i = cmd.access_begin; i < cmd.access_end; ++i) {
      const Access& a = s.accesses[i];
      LevelTraffic& t = out.parts[lowered_.access_member[i]].traffic[a.level];
      (a.write ? t.write_bytes : t.read_bytes)[a.tensor] += a.bytes;
    }
    Part& owner = out.parts[lowered_.owner[c]];
    owner.rf += cmd.register_file_bytes;
    owner.noc += cmd.noc_bytes;
  }
  splitCycles(grp, g, out);
  if (trace != nullptr) record(grp, g, *trace, start);
  return out;
}

// The array's time goes to the GEMM member whose block it ran (by its block's causes); the time
// it stood idle, to what the next block waited on: the vector unit (the vector member's SFU
// cause) or a transfer or the controller (the last GEMM's memory stall). The time after the last
// block (the last output's store) is memory stall too.
void FusedRunner::splitCycles(const FusedGroup& grp, const models::Graph& g, Group& out) const {
  const CommandStream& s = lowered_.stream;
  const models::ChainKind kind = grp.chain.kind;
  const bool attention = kind == models::ChainKind::Attention;
  const auto index = [&](int op) {
    return size_t(std::find(grp.chain.ops.begin(), grp.chain.ops.end(), op) -
                  grp.chain.ops.begin());
  };
  // Who the vector unit's and the memory's waits are charged to: the softmax (activation) and
  // the context (down, or the gate-up half's product); a conv chain's first member on the vector unit and its last conv.
  int vector_op = attention ? grp.chain.softmax : grp.chain.activation;
  int memory_op = attention ? grp.chain.context : grp.chain.ffnOutput();
  if (kind == models::ChainKind::ConvChain) {
    memory_op = vector_op = grp.chain.convs.back();
    for (uint32_t c = 0; c < s.commands.size(); ++c) {
      if (s.commands[c].kind != Kind::Sfu) continue;
      vector_op = grp.chain.ops[lowered_.owner[c]];
      break;
    }
  }
  Part& vector = out.parts[index(vector_op)];
  Part& memory = out.parts[index(memory_op)];
  const std::string unit =
      std::string(acc_.sfu ? "sfu: " : "epilogue: ") + dataflows::unitOpName(g.op(vector_op));
  std::vector<const BlockTime*> block_of(grp.chain.ops.size(), nullptr);
  for (const FusedGroup::Block& b : grp.blocks) block_of[index(b.op)] = &blocks_.at(blockKey(b));
  double prev = run_.begin;
  for (uint32_t c = 0; c < s.commands.size(); ++c) {
    const Command& cmd = s.commands[c];
    if (cmd.kind != Kind::Compute) continue;
    const CommandTiming& t = run_.timing[c];
    const double gap = t.start - prev;
    if (gap > kTimeEps) {
      const IssueLogic::Record& r = run_.logic.record(c);
      if (r.blocked_by >= 0 && r.dispatched > prev + kTimeEps) {
        memory.waits["dispatch: " + std::string(nameOf(Queue(r.blocked_by))) + " queue full"] +=
            gap;
        addCause(memory.causes, Cause::MemoryStall, gap);
      } else if (r.last_dep != kNone && r.ready > prev + kTimeEps &&
                 s.commands[r.last_dep].kind == Kind::Sfu) {
        vector.waits[unit] += gap;
        addCause(vector.causes, Cause::Sfu, gap);
      } else {
        const bool dma = r.last_dep != kNone && r.ready > prev + kTimeEps;
        memory.waits[dma ? "dma: " + std::string(roleName(lowered_.role[r.last_dep], kind))
                         : std::string("controller")] += gap;
        addCause(memory.causes, Cause::MemoryStall, gap);
      }
    }
    // Its block's time, split as the block ran on its own.
    const BlockTime* bt = block_of[lowered_.owner[c]];
    const double busy = t.end - t.start;
    Part& owner = out.parts[lowered_.owner[c]];
    for (size_t k = 0; k < owner.causes.size() && bt != nullptr && bt->run.cycles > 0; ++k) {
      owner.causes[k] += busy * bt->causes[k] / bt->run.cycles;
    }
    prev = std::max(prev, t.end);
  }
  if (run_.end - prev > kTimeEps) {
    memory.waits["dma: " + std::string(roleName(Role::RowStore, kind))] += run_.end - prev;
    addCause(memory.causes, Cause::MemoryStall, run_.end - prev);
  }
}

void FusedRunner::record(const FusedGroup& grp, const models::Graph& g,
                         std::vector<TraceSlice>& trace, double start) const {
  const CommandStream& s = lowered_.stream;
  for (uint32_t c = 0; c < s.commands.size(); ++c) {
    const Command& cmd = s.commands[c];
    const CommandTiming& t = run_.timing[c];
    TraceSlice x;
    x.op = g.op(grp.chain.ops[lowered_.owner[c]]).name;
    x.tensor = cmd.tensor >= 0 ? kOperandNames[cmd.tensor] : "";
    x.name = roleName(lowered_.role[c], grp.chain.kind);
    const bool dma = cmd.kind == Kind::Load || cmd.kind == Kind::Store;
    for (uint32_t i = cmd.access_begin; i < cmd.access_end; ++i) {
      if (!dma || mem_.offChip(s.accesses[i].level)) x.bytes += s.accesses[i].bytes;
    }
    x.track = dma ? "dma" : cmd.kind == Kind::Compute ? "array" : acc_.sfu ? "sfu" : "epilogue";
    x.start = start + (t.start - run_.begin);
    x.duration = std::max(0.0, (dma ? t.work_end : t.end) - t.start);
    trace.push_back(std::move(x));
  }
}

}  // namespace tessel::sim::systemc
