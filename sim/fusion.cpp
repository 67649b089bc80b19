#include "sim/fusion.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "dataflows/mapper.h"
#include "models/chains.h"
#include "sim/analytical/fused_cost.h"
#include "sim/analytical/memory_model.h"

namespace tessel::sim {

namespace {

using dataflows::FusedGroup;
using dataflows::OpPlan;
using models::ChainGroup;
using models::ChainKind;

struct Value {
  double cycles = 0, energy = 0;
};

double objectiveOf(const Value& v, const std::string& objective) {
  if (objective == "energy") return v.energy;
  if (objective == "edp") return v.cycles * v.energy;
  return v.cycles;
}

bool better(const Value& a, const Value& b, const std::string& objective) {
  const double x = objectiveOf(a, objective), y = objectiveOf(b, objective);
  if (x != y) return x < y;
  return a.energy + a.cycles < b.energy + b.cycles;
}

bool isMember(const ChainGroup& c, int id) {
  return std::find(c.ops.begin(), c.ops.end(), id) != c.ops.end();
}

// Every member runs on the accelerator, its GEMMs on the array with a loop nest, its other ops
// on a vector unit; no member's epilogue reaches outside the chain except the last GEMM's.
bool eligible(const ChainGroup& c, const std::vector<OpPlan>& plans, const models::Graph& g,
              const arch::Accelerator& acc, const dataflows::PlanOptions& options) {
  for (int id : c.ops) {
    const OpPlan& p = plans[static_cast<size_t>(id)];
    const models::Op& op = g.op(id);
    if (p.placement == dataflows::Placement::Host || p.group) return false;
    if (op.isGemmLike()) {
      if (p.placement != dataflows::Placement::Array || !p.mapping.has_nest) return false;
      if (id == c.last()) continue;
      for (int e : p.epilogue) {
        if (!isMember(c, e)) return false;
      }
    } else if (analytical::vectorCyclesPerElement(op, acc) < 0) {
      return false;
    }
    if (options.pinned && p.mapping.mapper == "pinned") return false;
  }
  return true;
}

// Largest first: big blocks reuse most, so the best comes early and bounds the rest.
std::vector<int64_t> descending(std::vector<int64_t> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

// A block GEMM: the member op's GEMM at block size.
FusedGroup::Block block(const models::Graph& g, int op_id, models::GemmShape shape, double count) {
  models::Op op = g.op(op_id);
  op.gemm = shape;
  FusedGroup::Block b;
  b.op = op_id;
  b.problem = dataflows::problemOf(op, g);
  b.count = count;
  return b;
}

struct Search {
  const models::Graph& g;
  const arch::Accelerator& acc;
  const dataflows::Dataflow& df;
  const dataflows::Mapper& mapper;
  const analytical::MemoryModel& mem;
  std::string objective;
  bool ideal_memory = false;

  std::shared_ptr<FusedGroup> best;
  Value best_value;

  void consider(FusedGroup grp) {
    if (!analytical::groupFits(grp, g, acc).empty()) return;
    if (best && objective == "latency") {
      // Unmapped blocks at the array's peak: no mapping of this schedule can beat the best.
      const analytical::GroupCost bound = analytical::evaluateGroup(grp, g, acc, mem, ideal_memory);
      if (bound.ok && bound.cycles >= best_value.cycles) return;
    }
    for (FusedGroup::Block& b : grp.blocks) {
      const dataflows::MapResult r = mapper.map(b.problem, acc, df, dataflows::MapConstraints{});
      if (!r.ok || !r.mapping.has_nest) return;
      b.mapping = r.mapping;
    }
    const analytical::GroupCost c = analytical::evaluateGroup(grp, g, acc, mem, ideal_memory);
    if (!c.ok) return;
    const Value v{c.cycles, c.energy_pj};
    if (!best || better(v, best_value, objective)) {
      best = std::make_shared<FusedGroup>(std::move(grp));
      best_value = v;
    }
  }
};

// Levels K/V (attention) or the weights (FFN) may stay in between row blocks, besides
// re-reading them from home: the L2 when it is not their home and `bytes` fit half of it, the
// local buffer (groupFits checks that).
std::vector<int> residentLevels(const arch::Accelerator& acc, const analytical::MemoryModel& mem,
                                int home, double bytes) {
  std::vector<int> r{-1};
  const int l2 = mem.l2();
  if (l2 >= 0 && l2 != home &&
      bytes <= static_cast<double>(acc.levels[static_cast<size_t>(l2)].capacity_bytes) / 2) {
    r.push_back(l2);
  }
  r.push_back(mem.localInputs());
  return r;
}

void searchAttention(Search& s, const ChainGroup& c, const std::array<int, 4>& homes) {
  const dataflows::AttentionDims d = dataflows::attentionDims(c, s.g);
  const double kv = static_cast<double>(d.units * d.keys) *
                    static_cast<double>(storageBytes(d.k, d.head_dim) + storageBytes(d.v, d.value_dim));
  for (int64_t br : descending(dataflows::blockSizes(d.queries))) {
    for (int64_t bc : descending(dataflows::blockSizes(d.keys))) {
      const dataflows::AttentionBlocks b = dataflows::attentionBlocks(d, br, bc);
      for (int resident : residentLevels(s.acc, s.mem, homes[1], kv)) {
        FusedGroup grp;
        grp.chain = c;
        grp.block_rows = br;
        grp.block_cols = bc;
        grp.online_softmax = bc < d.keys;
        grp.resident_level = resident;
        grp.homes = homes;
        const double n = static_cast<double>(b.blocks);
        const int64_t rows = d.group * std::min(br, d.queries), cols = std::min(bc, d.keys);
        grp.blocks.push_back(block(s.g, c.score, {d.units, rows, cols, d.head_dim}, n));
        grp.blocks.push_back(block(s.g, c.context, {d.units, rows, d.value_dim, cols}, n));
        s.consider(std::move(grp));
      }
    }
  }
}

void searchFfn(Search& s, const ChainGroup& c, const std::array<int, 4>& homes) {
  const dataflows::FfnDims d = dataflows::ffnDims(c, s.g);
  const double weights = static_cast<double>(storageBytes(d.w, d.hidden)) *
                         static_cast<double>(d.ups * d.model + d.out);
  for (int64_t tm : descending(dataflows::blockSizes(d.rows))) {
    for (int64_t tf : descending(dataflows::blockSizes(d.hidden, 64))) {
      for (int resident : residentLevels(s.acc, s.mem, 0, weights)) {
        FusedGroup grp;
        grp.chain = c;
        grp.block_rows = tm;
        grp.block_cols = tf;
        grp.resident_level = resident;
        grp.homes = homes;
        const int64_t rows = std::min(tm, d.rows), cols = std::min(tf, d.hidden);
        const double n = static_cast<double>(((d.rows + tm - 1) / tm) * ((d.hidden + tf - 1) / tf));
        for (int up : c.up) grp.blocks.push_back(block(s.g, up, {1, rows, cols, d.model}, n));
        grp.blocks.push_back(block(s.g, c.down, {1, rows, d.out, cols}, n));
        s.consider(std::move(grp));
      }
    }
  }
}

std::array<int, 4> edgeHomes(const ChainGroup& c, const std::vector<OpPlan>& plans) {
  const auto& p = [&](int id) -> const OpPlan& { return plans[static_cast<size_t>(id)]; };
  if (c.kind == ChainKind::Attention) {
    return {p(c.score).input_home, p(c.score).weight_home, p(c.context).weight_home,
            p(c.context).output_home};
  }
  return {p(c.up.front()).input_home, 0, 0, p(c.down).output_home};
}

// What identical chains share: their shapes, dtypes and homes.
std::string keyOf(const ChainGroup& c, const models::Graph& g, const std::array<int, 4>& homes) {
  std::string key(nameOf(c.kind));
  for (int id : c.ops) {
    const models::Op& op = g.op(id);
    key += "|" + std::to_string(static_cast<int>(op.kind)) + ":" + std::to_string(op.gemm.batch) +
           "," + std::to_string(op.gemm.m) + "," + std::to_string(op.gemm.n) + "," +
           std::to_string(op.gemm.k) + "," + std::to_string(op.attn.causal) + "," +
           std::to_string(op.attn.heads) + "," + std::to_string(op.attn.kv_heads);
    for (int t : op.inputs) key += "," + std::string(nameOf(g.tensor(t).dtype));
    key += ">" + std::string(nameOf(g.tensor(op.outputs.at(0)).dtype));
  }
  for (int h : homes) key += "@" + std::to_string(h);
  return key;
}

// The chosen schedule for a chain like `tpl`'s, on this chain's own ops.
std::shared_ptr<FusedGroup> instantiate(const FusedGroup& tpl, const ChainGroup& c,
                                        const models::Graph& g) {
  auto grp = std::make_shared<FusedGroup>(tpl);
  grp->chain = c;
  grp->name = std::string(nameOf(c.kind)) + "@" + g.op(c.first()).name;
  std::vector<int> gemms;
  for (int id : c.ops) {
    if (g.op(id).isGemmLike()) gemms.push_back(id);
  }
  if (c.kind == ChainKind::Attention) gemms = {c.score, c.context};
  for (size_t i = 0; i < grp->blocks.size() && i < gemms.size(); ++i) grp->blocks[i].op = gemms[i];
  return grp;
}

void install(std::vector<OpPlan>& plans, const ChainGroup& c,
             const std::shared_ptr<const FusedGroup>& grp, const models::Graph& g) {
  for (int id : c.ops) {
    OpPlan& p = plans[static_cast<size_t>(id)];
    p.group = grp;
    p.epilogue.erase(std::remove_if(p.epilogue.begin(), p.epilogue.end(),
                                    [&](int e) { return isMember(c, e); }),
                     p.epilogue.end());
    if (!g.op(id).isGemmLike()) {
      p.placement = dataflows::Placement::Fused;
      p.fused_into = c.first();
      p.side_input = -1;
    }
  }
}

}  // namespace

void fuseChains(std::vector<OpPlan>& plans, const models::Graph& g, const arch::Accelerator& acc,
                const dataflows::Dataflow& df, const dataflows::PlanOptions& options,
                const EngineOptions& engine_options) {
  const std::vector<ChainGroup> chains = models::findChains(g);
  if (chains.empty()) return;
  dataflows::MapperOptions mo = options.mapper_options;
  // Block GEMMs are small and regular: a tenth of the search a layer gets finds their best.
  if (mo.budget > 0) mo.budget = std::max<int64_t>(500, mo.budget / 10);
  std::shared_ptr<const dataflows::Mapper> mapper = options.mapper_instance;
  if (!mapper || mapper->name() == "pinned") mapper = dataflows::makeMapper(options.mapper, mo);
  const analytical::MemoryModel mem(acc, engine_options.ideal_memory);
  auto engine = makeEngine("analytical", acc, df, engine_options);
  std::map<std::string, std::shared_ptr<const FusedGroup>> decided;  // nullptr: stays unfused
  for (const ChainGroup& c : chains) {
    if (!eligible(c, plans, g, acc, options)) continue;
    const std::array<int, 4> homes = edgeHomes(c, plans);
    const std::string key = keyOf(c, g, homes);
    auto it = decided.find(key);
    if (it == decided.end()) {
      Search s{g, acc, df, *mapper, mem, options.mapper_options.objective,
               engine_options.ideal_memory, nullptr, {}};
      if (c.kind == ChainKind::Attention) {
        searchAttention(s, c, homes);
      } else {
        searchFfn(s, c, homes);
      }
      std::shared_ptr<const FusedGroup> chosen;
      if (s.best) {
        Value unfused;
        double offchip = 0;
        for (int id : c.ops) {
          const OpStats st = engine->evaluate(plans[static_cast<size_t>(id)]);
          unfused.cycles += st.cycles;
          unfused.energy += st.energyTotal();
          for (size_t l = 0; l < st.traffic.size(); ++l) {
            if (mem.offChip(l)) offchip += static_cast<double>(st.traffic[l].total());
          }
        }
        if (std::getenv("TESSEL_DEBUG_FUSION")) {
          std::fprintf(stderr, "%s: fused %.0f cyc %.3g pJ (%lld x %lld res %d) vs unfused %.0f cyc %.3g pJ\n",
                       key.c_str(), s.best_value.cycles, s.best_value.energy,
                       (long long)s.best->block_rows, (long long)s.best->block_cols,
                       s.best->resident_level, unfused.cycles, unfused.energy);
        }
        if (better(s.best_value, unfused, options.mapper_options.objective)) {
          s.best->unfused_cycles = unfused.cycles;
          s.best->unfused_energy_pj = unfused.energy;
          s.best->unfused_offchip_bytes = offchip;
          chosen = s.best;
        }
      }
      it = decided.emplace(key, chosen).first;
    }
    if (it->second) install(plans, c, instantiate(*it->second, c, g), g);
  }
}

std::vector<OpPlan> planGraph(const models::Graph& g, const arch::Accelerator& acc,
                              const dataflows::Dataflow& df, const dataflows::PlanOptions& options,
                              const EngineOptions& engine_options) {
  std::vector<OpPlan> plans = dataflows::plan(g, acc, df, options);
  if (options.fusion == dataflows::FusionMode::Auto)
    fuseChains(plans, g, acc, df, options, engine_options);
  return plans;
}

}  // namespace tessel::sim
