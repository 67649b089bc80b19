#include "sim/fusion.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "dataflows/mapper.h"
#include "dataflows/nest/search.h"
#include "models/chains.h"
#include "sim/analytical/fused_cost.h"
#include "sim/analytical/memory_model.h"
#include "sim/fusion_conv.h"
#include "sim/fusion_schedules.h"

namespace tessel::sim {

namespace {

using dataflows::FusedGroup;
using dataflows::OpPlan;
using models::ChainGroup;
using models::ChainKind;

namespace nest = dataflows::nest;

// A schedule's (or the unfused chain's) cycles and energy, scored as the single-op search scores
// a mapping: nest::score (latency breaks near-ties by energy) and nest::preferred
// (--latency-tolerance: the least energy within that fraction of the faster).
using Value = nest::Cost;

Value valueOf(double cycles, double energy, double mac_energy) {
  Value v;
  v.ok = true;
  v.cycles = cycles;
  v.energy = energy;
  v.mac_energy = mac_energy;
  return v;
}

Value valueOf(const analytical::GroupCost& c) {
  double mac = 0;
  for (const analytical::MemberCost& m : c.members) mac += m.mac_pj;
  return valueOf(c.cycles, c.energy_pj, mac);
}

struct Rule {
  nest::Objective objective = nest::Objective::Latency;
  double tolerance = 0;
  bool banded() const { return objective == nest::Objective::Latency && tolerance > 0; }
  double band(double fastest) const { return fastest * (1 + tolerance + 1e-9); }
  double score(const Value& v) const { return nest::score(v, objective); }
  bool better(const Value& a, const Value& b) const {
    return nest::preferred(a, b, objective, tolerance);
  }
};

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
    if (c.kind == ChainKind::ConvChain && !op.isGemmLike()) {
      // A conv's own epilogue member: the drain applies it on the conv's way out.
      if (p.placement != dataflows::Placement::Fused || p.side_input >= 0) return false;
      const auto conv =
          std::find_if(c.convs.rbegin(), c.convs.rend(), [&](int k) { return k < id; });
      if (conv == c.convs.rend() || p.fused_into != *conv) return false;
      continue;
    }
    if (op.isGemmLike()) {
      if (p.placement != dataflows::Placement::Array || !p.mapping.has_nest) return false;
      // The group's closed-form edge traffic counts dense bytes: sparse chains stay unfused.
      if (p.problem.loops.sparse()) return false;
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

struct Search {
  const models::Graph& g;
  const arch::Accelerator& acc;
  const dataflows::Dataflow& df;
  const dataflows::Mapper& mapper;
  const analytical::MemoryModel& mem;
  Rule rule;
  bool ideal_memory = false;

  std::shared_ptr<FusedGroup> best;
  Value best_value;
  // Banded latency: every schedule evaluated, the choice made once the fastest is known.
  std::vector<std::pair<Value, std::shared_ptr<FusedGroup>>> evaluated;
  double fastest = 0;

  // Unmapped blocks at the array's peak, costing only their MACs' energy: no mapping of this
  // schedule can beat the best. Banded: none can come within the band of the fastest, or one
  // schedule evaluated already is as fast and as cheap as any mapping of it could be (it would
  // be in the band whenever this one is, and spend no more).
  bool cannotWin(const FusedGroup& grp) const {
    if (!best) return false;
    const analytical::GroupCost bound = analytical::evaluateGroup(grp, g, acc, mem, ideal_memory);
    if (!bound.ok) return false;
    if (!rule.banded()) return rule.score(valueOf(bound)) >= rule.score(best_value);
    if (bound.cycles > rule.band(fastest)) return true;
    return std::any_of(evaluated.begin(), evaluated.end(), [&](const auto& e) {
      return e.first.cycles <= bound.cycles && e.first.energy <= bound.energy_pj;
    });
  }

  void consider(FusedGroup grp) {
    if (!analytical::groupFits(grp, g, acc).empty() || cannotWin(grp)) return;
    std::vector<dataflows::MapRequest> requests;
    for (const FusedGroup::Block& b : grp.blocks) requests.push_back({b.problem, {}});
    mapper.prefetch(requests, acc, df);  // the blocks on all cores
    for (FusedGroup::Block& b : grp.blocks) {
      const dataflows::MapResult r = mapper.map(b.problem, acc, df, dataflows::MapConstraints{});
      if (!r.ok || !r.mapping.has_nest) return;
      b.mapping = r.mapping;
    }
    const analytical::GroupCost c = analytical::evaluateGroup(grp, g, acc, mem, ideal_memory);
    if (!c.ok) return;
    const Value v = valueOf(c);
    if (rule.banded()) {
      evaluated.emplace_back(v, std::make_shared<FusedGroup>(std::move(grp)));
      fastest = best ? std::min(fastest, v.cycles) : v.cycles;
      best = evaluated.back().second;  // any: the choice is made by finish()
      return;
    }
    if (!best || rule.better(v, best_value)) {
      best = std::make_shared<FusedGroup>(std::move(grp));
      best_value = v;
    }
  }

  // Banded latency: the least energy within the band of the fastest.
  void finish() {
    if (!rule.banded() || evaluated.empty()) return;
    const auto* pick = &evaluated.front();
    for (const auto& e : evaluated) {
      if (e.first.cycles > rule.band(fastest)) continue;
      if (pick->first.cycles > rule.band(fastest) || e.first.energy < pick->first.energy) pick = &e;
    }
    best = pick->second;
    best_value = pick->first;
  }
};

std::array<int, 4> edgeHomes(const ChainGroup& c, const std::vector<OpPlan>& plans) {
  const auto& p = [&](int id) -> const OpPlan& { return plans[static_cast<size_t>(id)]; };
  if (c.kind == ChainKind::Attention) {
    return {p(c.score).input_home, p(c.score).weight_home, p(c.context).weight_home,
            p(c.context).output_home};
  }
  if (c.kind == ChainKind::ConvChain) {
    return {p(c.convs.front()).input_home, 0, 0, p(c.convs.back()).output_home};
  }
  return {p(c.up.front()).input_home, 0, 0, p(c.ffnOutput()).output_home};
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
    if (op.kind == models::OpKind::Conv2d) {
      const models::ConvShape& v = op.conv;
      for (int64_t x : {v.h, v.w, v.r, v.s, v.stride, v.pad, v.dilation, v.groups}) {
        key += "," + std::to_string(x);
      }
    }
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
  // The blocks in the order the schedules built them (sim/fusion_schedules.h).
  if (c.kind == ChainKind::Attention) gemms = {c.score, c.context};
  if (c.kind == ChainKind::Ffn) {
    gemms = c.up;
    if (c.down >= 0) gemms.push_back(c.down);
  }
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
      if (c.kind != ChainKind::ConvChain) p.fused_into = c.first();  // a conv's stays its own
      p.side_input = -1;
    }
  }
}

// What the chain's ops cost unfused (their own plans, the analytical engine), and their off-chip
// bytes.
Value unfusedValue(const ChainGroup& c, const std::vector<OpPlan>& plans, Engine& engine,
                   const analytical::MemoryModel& mem, double& offchip) {
  Value v = valueOf(0, 0, 0);
  for (int id : c.ops) {
    const OpStats st = engine.evaluate(plans[static_cast<size_t>(id)]);
    v.cycles += st.cycles;
    v.energy += st.energyTotal();
    for (const auto& [component, pj] : st.energy_pj) {
      if (component == "array") v.mac_energy += pj;
    }
    for (size_t l = 0; l < st.traffic.size(); ++l) {
      if (mem.offChip(l)) offchip += static_cast<double>(st.traffic[l].total());
    }
  }
  return v;
}

}  // namespace

namespace {

// Each distinct chain's decision: the chosen group (nullptr: stays unfused) and what it saves
// under the objective, by key.
class Decisions {
 public:
  struct Decision {
    std::shared_ptr<const FusedGroup> group;  // nullptr: the chain stays unfused
    double gain = 0;                          // what fusing saves, in the objective's score
    Value fused;                              // the chosen schedule's cycles and energy
  };
  Decisions(const std::vector<OpPlan>& plans, const models::Graph& g, const arch::Accelerator& acc,
            const dataflows::Dataflow& df, const dataflows::PlanOptions& options,
            const EngineOptions& engine_options, const dataflows::Mapper& mapper)
      : plans_(plans),
        g_(g),
        acc_(acc),
        df_(df),
        options_(options),
        ideal_memory_(engine_options.ideal_memory),
        mapper_(mapper),
        mem_(acc, engine_options.ideal_memory),
        engine_(makeEngine("analytical", acc, df, engine_options)) {}

  Rule rule() const {
    return Rule{nest::parseObjective(options_.mapper_options.objective)
                    .value_or(nest::Objective::Latency),
                options_.mapper_options.tolerance};
  }

  // What one op costs as planned, unfused.
  Value unfusedOp(int op) {
    ChainGroup alone;
    alone.ops = {op};
    double offchip = 0;
    return unfusedValue(alone, plans_, *engine_, mem_, offchip);
  }

  Decision of(const ChainGroup& c) {
    if (!eligible(c, plans_, g_, acc_, options_)) return {};
    const std::array<int, 4> homes = edgeHomes(c, plans_);
    std::string key = keyOf(c, g_, homes);
    const DType out = plans_[static_cast<size_t>(c.last())].problem.output_dtype;
    if (c.kind == ChainKind::ConvChain) key += ">" + std::string(nameOf(out));  // its epilogue's
    auto it = decided_.find(key);
    if (it != decided_.end()) return it->second;
    const std::string& objective = options_.mapper_options.objective;
    const Rule rule = this->rule();
    Search s{g_, acc_, df_, mapper_, mem_, rule, ideal_memory_, {}, {}, {}, 0};
    if (c.kind == ChainKind::Attention) {
      const std::vector<int> residents =
          residentLevels(acc_, mem_, homes[1], attentionKvBytes(g_, c));
      for (FusedGroup& grp : attentionSchedules(g_, c, homes, residents))
        s.consider(std::move(grp));
    } else if (c.kind == ChainKind::Ffn) {
      const std::vector<int> residents = residentLevels(acc_, mem_, 0, ffnWeightBytes(g_, c));
      for (FusedGroup& grp : ffnSchedules(g_, c, homes, residents, mem_.l2()))
        s.consider(std::move(grp));
    } else {
      const ConvSearch cs{g_, acc_, mapper_, df_, mem_, objective};
      const std::vector<int> residents = residentLevels(acc_, mem_, 0, convWeightBytes(c, g_));
      for (FusedGroup& grp : convSchedules(cs, c, homes, out, residents))
        s.consider(std::move(grp));
    }
    s.finish();
    Decision chosen;
    if (s.best) {
      double offchip = 0;
      const Value unfused = unfusedValue(c, plans_, *engine_, mem_, offchip);
      if (rule.better(s.best_value, unfused)) {
        s.best->unfused_cycles = unfused.cycles;
        s.best->unfused_energy_pj = unfused.energy;
        s.best->unfused_offchip_bytes = offchip;
        // (Banded, a schedule within the band may win on energy while a little slower: it
        // still counts as a gain when disjoint runs of a conv chain are picked.)
        chosen = {s.best, std::max(1e-9, rule.score(unfused) - rule.score(s.best_value)),
                  s.best_value};
      }
    }
    return decided_.emplace(key, chosen).first->second;
  }

 private:
  const std::vector<OpPlan>& plans_;
  const models::Graph& g_;
  const arch::Accelerator& acc_;
  const dataflows::Dataflow& df_;
  const dataflows::PlanOptions& options_;
  bool ideal_memory_;
  const dataflows::Mapper& mapper_;
  analytical::MemoryModel mem_;
  std::unique_ptr<Engine> engine_;
  std::map<std::string, Decision> decided_;
};

// A conv chain: each run of its convs decided alone, the disjoint runs that save most fused.
void fuseConvChain(std::vector<OpPlan>& plans, const ChainGroup& c, Decisions& decisions,
                   const models::Graph& g) {
  const std::vector<ChainGroup> runs = convSegments(c);
  std::vector<std::shared_ptr<const FusedGroup>> groups;
  std::vector<SegmentGain> gains;
  for (const ChainGroup& r : runs) {
    const Decisions::Decision d = decisions.of(r);
    const auto first = std::find(c.convs.begin(), c.convs.end(), r.convs.front());
    const auto at = static_cast<size_t>(first - c.convs.begin());
    groups.push_back(d.group);
    gains.push_back({at, at + r.convs.size() - 1, d.group ? d.gain : 0});
  }
  for (size_t i : pickSegments(gains, c.convs.size())) {
    install(plans, runs[i], instantiate(*groups[i], runs[i], g), g);
  }
}

// A gated FFN: the whole chain as one group, its gate-up half (the down projection as planned),
// or neither — whichever the objective prefers. The half writes the hidden product out once
// instead of the gate's output, its re-read by the product and the product's write.
void fuseGatedFfn(std::vector<OpPlan>& plans, const ChainGroup& c, Decisions& decisions,
                  const models::Graph& g) {
  const ChainGroup half = models::gateUpOf(c);
  const Decisions::Decision whole = decisions.of(c);
  const Decisions::Decision front = decisions.of(half);
  bool take_half = front.group != nullptr;
  if (whole.group && front.group) {
    Value split = front.fused;
    const Value down = decisions.unfusedOp(c.down);
    split.cycles += down.cycles;
    split.energy += down.energy;
    split.mac_energy += down.mac_energy;
    take_half = decisions.rule().better(split, whole.fused);
  }
  if (take_half) {
    install(plans, half, instantiate(*front.group, half, g), g);
  } else if (whole.group) {
    install(plans, c, instantiate(*whole.group, c, g), g);
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
  Decisions decisions(plans, g, acc, df, options, engine_options, *mapper);
  for (const ChainGroup& c : chains) {
    if (c.kind == ChainKind::ConvChain) {
      fuseConvChain(plans, c, decisions, g);
    } else if (c.kind == ChainKind::Ffn && c.gate_mul >= 0) {
      fuseGatedFfn(plans, c, decisions, g);
    } else if (const auto d = decisions.of(c); d.group) {
      install(plans, c, instantiate(*d.group, c, g), g);
    }
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
