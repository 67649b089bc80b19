#include "sim/analytical/nest_stats.h"

#include <algorithm>

#include "sim/analytical/energy.h"
#include "sim/analytical/nest_accesses.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::sim::analytical {

NestCost nestCost(const dataflows::OpPlan& plan, const arch::Accelerator& acc, bool ideal_memory) {
  namespace nest = dataflows::nest;
  const dataflows::Mapping& mp = plan.mapping;
  const nest::Hardware& hw = *mp.hw;
  NestCost r;
  nest::CostOptions& o = r.options;
  o.mac_rate = acc.array.macRate(plan.problem.input_dtype);
  o.ideal_memory = ideal_memory;
  for (size_t t = 0; t < 3; ++t) {
    const int home = t == 0 ? plan.input_home : t == 1 ? plan.weight_home : plan.output_home;
    const bool in_l2 = home >= 0 && static_cast<size_t>(home) < acc.levels.size() &&
                       acc.levels[static_cast<size_t>(home)].kind == arch::LevelKind::L2;
    o.home[t] = in_l2 && hw.l2 >= 0 ? hw.l2 : hw.dram;
  }
  r.problem = mp.loops;
  r.problem.output_dtype = plan.problem.output_dtype;
  r.cost = nest::evaluate(r.problem, mp.nest, hw, o);
  if (!r.cost.ok) throw InfeasibleError("op '" + plan.op->name + "': " + r.cost.reason);
  return r;
}

void fillNestStats(OpStats& s, const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                   bool ideal_memory) {
  const dataflows::Mapping& mp = plan.mapping;
  const dataflows::nest::Hardware& hw = *mp.hw;
  const NestCost nc = nestCost(plan, acc, ideal_memory);
  const dataflows::nest::Cost& c = nc.cost;
  const double busy = std::max({c.array, c.local, c.noc});
  s.cycles_by_cause[static_cast<size_t>(Cause::Compute)] = c.compute;
  s.cycles_by_cause[static_cast<size_t>(Cause::FillDrain)] = c.array - c.compute;
  s.cycles_by_cause[static_cast<size_t>(Cause::Noc)] = busy - c.array;
  s.cycles_by_cause[static_cast<size_t>(Cause::MemoryStall)] = c.cycles - busy;
  double rf_pj = 0, rf_bytes = 0;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (size_t t = 0; t < 3; ++t) {
      const int a = hw.levels[l].arch_level[t];
      if (a < 0) {
        rf_pj += c.reads[l][t] * hw.levels[l].read_pj[t] + c.writes[l][t] * hw.levels[l].write_pj[t];
        rf_bytes += c.reads[l][t] + c.writes[l][t];
        continue;
      }
      LevelTraffic& tr = s.traffic[static_cast<size_t>(a)];
      auto count = [&](double v, const char* dir) {
        return checked::toCount(v, [&] {
          return "op '" + plan.op->name + "': bytes " + dir + " " + tr.level;
        });
      };
      tr.read_bytes[t] += count(c.reads[l][t], "read from");
      tr.write_bytes[t] += count(c.writes[l][t], "written to");
    }
  }
  addEnergy(s, acc, EnergyParts{rf_pj, c.mac_energy, c.noc_energy, 0, 0});
  for (size_t t = 0; t < 3; ++t) s.energy_by_operand_pj[t] = c.tensor_energy[t];
  s.register_file_bytes = checked::toCount(rf_bytes, [&] {
    return "op '" + plan.op->name + "': register-file bytes";
  });
  s.noc_bytes = checked::toCount(c.noc_bytes[0] + c.noc_bytes[1] + c.noc_bytes[2], [&] {
    return "op '" + plan.op->name + "': NoC bytes";
  });
  fillNestAccesses(s, nc, mp.nest, hw, plan.op->name);
  s.mapping = mp.flatten();
  s.loop_nest = mp.loopNest(plan.problem);
}

}  // namespace tessel::sim::analytical
